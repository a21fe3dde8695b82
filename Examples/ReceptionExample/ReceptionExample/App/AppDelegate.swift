import ReceptionKit
import UIKit
import UserNotifications

/// The app's delegate: it owns the notification-center delegate and forwards APNs tokens and support pushes
/// (seed 002). ReceptionKit never installs a delegate or asks for permission itself.
final class AppDelegate: NSObject, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        // Set before launch finishes, so a tap that launched the app reaches `didReceive` below.
        UNUserNotificationCenter.current().delegate = self
        return true
    }

    func application(
        _ application: UIApplication,
        didRegisterForRemoteNotificationsWithDeviceToken token: Data
    ) {
        // Every token APNs hands over, including changes; the environment comes from the build's signing.
        Reception.shared.setPushToken(token)
    }

    func application(
        _ application: UIApplication,
        didFailToRegisterForRemoteNotificationsWithError error: any Error
    ) {
        // The simulator without push support and unsigned builds land here; the next activation tries again.
        print("Push registration failed: \(error.localizedDescription)")
    }
}

extension AppDelegate: UNUserNotificationCenterDelegate {
    /// A notification that arrives while the app is in the foreground. A support push refreshes the unread count;
    /// its banner is hidden while the chat is on screen.
    nonisolated func userNotificationCenter(
        _ center: UNUserNotificationCenter,
        willPresent notification: UNNotification
    ) async -> UNNotificationPresentationOptions {
        // Only a String crosses to the main actor: the raw payload is not Sendable.
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
        return [.banner, .sound]
    }

    /// A tap on a notification: a support push opens the SDK sheet, also after a cold start.
    nonisolated func userNotificationCenter(
        _ center: UNUserNotificationCenter,
        didReceive response: UNNotificationResponse
    ) async {
        let payload = response.notification.request.content.userInfo["reception"] as? [String: Any]
        guard let conversationId = payload?["conversationId"] as? String else { return }
        await MainActor.run {
            _ = Reception.shared.handlePushNotification(
                userInfo: ["reception": ["conversationId": conversationId]]
            )
        }
    }
}
