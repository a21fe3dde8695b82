// SCAFFOLDING (not from a seed): the SwiftUI app the seeds' samples are pasted into, as a host app's own code is.
// The samples themselves are in Seed000Accounts.swift, Seed002Push.swift and Seed004Unread.swift.
import ReceptionKit
import SwiftUI
import UIKit
import UserNotifications

@main
struct SeedSamplesApp: App {
    // Seed 002, "Preserve delegate ownership": "If the SwiftUI app has no app delegate either, connect one with
    // @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate in the App type."
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate

    init() {
        // "Configure ReceptionKit in your app initializer" (seed 002); the App ID is a placeholder.
        Reception.configure(appId: "app_YOUR_APP_ID")
    }

    var body: some Scene {
        WindowGroup {
            RootView()  // seed 002
        }
    }
}

/// The app delegate seed 002's callbacks go into (Seed002Push.swift adds them, and the notification-center
/// delegate conformance, in extensions).
final class AppDelegate: NSObject, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        // Seed 002: "assign UNUserNotificationCenter.current().delegate = self during
        // application(_:didFinishLaunchingWithOptions:)".
        UNUserNotificationCenter.current().delegate = self
        return true
    }
}

/// "HomeView represents your existing app content" (seed 002): here, a list that reaches every view sample.
struct HomeView: View {
    var body: some View {
        NavigationStack {
            List {
                SupportUnreadButton()  // seed 004
                NavigationLink("Support data") { DeleteSupportDataView() }  // seed 000
                NavigationLink("Support tab") { Seed004SupportTabs() }  // seed 004
                Seed004EntryCount()  // seed 004
            }
            .navigationTitle("Seed samples")
        }
    }
}
