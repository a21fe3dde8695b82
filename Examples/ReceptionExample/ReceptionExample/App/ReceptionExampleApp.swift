import ReceptionKit
import SwiftUI

/// A support-chat integration in one app: configure at launch, the account's sign-in, sign-out and support-data
/// deletion, push forwarding, a Support tab with the unread badge, a Help button that opens the SDK sheet, and a
/// paywall that offer cards open over the chat.
@main
struct ReceptionExampleApp: App {
    // Seed 002: the push callbacks need an app delegate; SwiftUI connects one through this adaptor.
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate
    @State private var account: AccountModel

    init() {
        let settings = ExampleSettings.current
        // Configure first, in the app initializer, so every later call and callback finds the SDK ready.
        Reception.configure(appId: settings.appId, configuration: settings.receptionConfiguration)
        // Seed 001 "Paywall cards": an offer card opens the app's paywall, over the chat.
        Self.registerPaywalls()
        let account = AccountModel(tokens: TokenServerClient(baseURL: settings.tokenServerURL))
        // Seed 000, "Restore a signed-in session": the saved account is identified again on every launch.
        account.restoreSupportIdentity()
        account.observeSupportEvents()
        _account = State(initialValue: account)
    }

    var body: some Scene {
        WindowGroup {
            RootView()
                .environment(account)
        }
    }
}
