// Seed 002, "Push notifications" (/work/shared/seeds/002_3d3f4a56688242b4.txt): every Swift sample of the document,
// pasted as an integrator would, in the document's order. Each sample's code is the seed's, unchanged; the app
// delegate callbacks go into this app's AppDelegate (SeedSamplesApp.swift), a fragment sits in a small function
// named after its section, and what the document leaves to the host (HomeView) is SCAFFOLDING, marked as such.
// The payload example is JSON, not Swift, and is left out.
import Foundation
import ReceptionKit
import SwiftUI
import UIKit
import UserNotifications

// MARK: - Keep permission under your app's control

// Seed 002, "Keep permission under your app's control", first sample (complete).
import UIKit
import UserNotifications

@MainActor
func registerForPushIfAuthorized() async {
    let settings = await UNUserNotificationCenter.current().notificationSettings()
    switch settings.authorizationStatus {
    case .authorized, .provisional, .ephemeral:
        UIApplication.shared.registerForRemoteNotifications()
    default:
        break
    }
}

// Seed 002, "Keep permission under your app's control", second sample (complete; HomeView is the host's content,
// SCAFFOLDING in SeedSamplesApp.swift).
import SwiftUI
import ReceptionKit

struct RootView: View {
    @Environment(\.scenePhase) private var scenePhase

    var body: some View {
        HomeView()
            .task(id: scenePhase) {
                if scenePhase == .active {
                    await registerForPushIfAuthorized()
                }
            }
    }
}

// MARK: - Forward the device token: Reception.shared.setPushToken

// Seed 002, "Reception.shared.setPushToken": "Add this call inside your existing app delegate callback" (the
// method, unchanged, in this app's delegate).
extension AppDelegate {
    func application(
        _ application: UIApplication,
        didRegisterForRemoteNotificationsWithDeviceToken token: Data
    ) {
        Reception.shared.setPushToken(token)
        // Keep your app's other token handling here.
    }
}

// MARK: - Reception.PushEnvironment

// Seed 002, "Reception.PushEnvironment": the forwarding call with an explicit environment (a statement; `token` is
// the delegate callback's).
@MainActor
func seed002ForwardTokenWithEnvironment(token: Data) {
    Reception.shared.setPushToken(token, environment: .sandbox)
}

// MARK: - Handle notifications: Foreground receipt and Notification taps

// SCAFFOLDING: "If you have no notification delegate, make your existing app delegate conform to
// UNUserNotificationCenterDelegate" (the delegate is assigned in AppDelegate's didFinishLaunching). The two methods
// inside are the seed's "Foreground receipt" and "Notification taps" samples, unchanged.
extension AppDelegate: UNUserNotificationCenterDelegate {
    // Seed 002, "Foreground receipt" (complete).
    nonisolated func userNotificationCenter(
        _ center: UNUserNotificationCenter,
        willPresent notification: UNNotification
    ) async -> UNNotificationPresentationOptions {
        let payload = notification.request.content.userInfo["reception"] as? [String: Any]
        if let conversationId = payload?["conversationId"] as? String {
            let options: UNNotificationPresentationOptions? = await MainActor.run {
                guard Reception.shared.handlePushNotification(
                    userInfo: ["reception": ["conversationId": conversationId]],
                    openChat: false
                ) else { return nil }
                return Reception.shared.isChatOpen ? [] : [.banner, .sound]
            }
            if let options { return options }
        }
        // Preserve your existing presentation policy for other notifications.
        return [.banner, .sound]
    }

    // Seed 002, "Notification taps" (complete).
    nonisolated func userNotificationCenter(
        _ center: UNUserNotificationCenter,
        didReceive response: UNNotificationResponse
    ) async {
        let payload = response.notification.request.content.userInfo["reception"] as? [String: Any]
        if let conversationId = payload?["conversationId"] as? String {
            let handled = await MainActor.run {
                Reception.shared.handlePushNotification(
                    userInfo: ["reception": ["conversationId": conversationId]]
                )
            }
            if handled { return }
        }
        // Run your existing tap handler for other notifications here.
    }
}

// MARK: - App badge and unread refresh

// Seed 002, "App badge and unread refresh" (a statement for "app initialization on the main actor").
@MainActor
func seed002HostOwnsBadge() {
    Reception.shared.updatesAppBadge = false
}

// MARK: - Declarations the prose states (SCAFFOLDING: checks of what the text promises, not samples)

// Seed 002, "Reception.shared.setPushToken": "Reception.shared.setPushToken(_ token: Data, environment:
// Reception.PushEnvironment = .automatic)"; "Reception.PushEnvironment": ".sandbox", "Use .production";
// "Reception.shared.handlePushNotification": "handlePushNotification(userInfo: [AnyHashable: Any], openChat: Bool =
// true) -> Bool is a main-actor method".
@MainActor
func seed002ProseDeclarations(token: Data, userInfo: [AnyHashable: Any]) -> Bool {
    let setPushToken: @MainActor (Data, Reception.PushEnvironment) -> Void = Reception.shared.setPushToken
    let environments: [Reception.PushEnvironment] = [.automatic, .sandbox, .production]
    for environment in environments { setPushToken(token, environment) }
    Reception.shared.setPushToken(token)
    let handle: @MainActor ([AnyHashable: Any], Bool) -> Bool = Reception.shared.handlePushNotification
    return handle(userInfo, true) || Reception.shared.handlePushNotification(userInfo: userInfo)
}
