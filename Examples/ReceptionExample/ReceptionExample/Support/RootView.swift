import ReceptionKit
import SwiftUI

/// The app's tabs: Home with a Help button, Support with the embedded chat and its unread badge, and Account.
struct RootView: View {
    @Environment(AccountModel.self) private var account
    @Environment(\.scenePhase) private var scenePhase

    var body: some View {
        TabView {
            HomeView()
                .tabItem { Label("Home", systemImage: "house") }
            // Seed 004: the embedded chat in a tab; zero hides the badge.
            NavigationStack { ReceptionChatView() }
                .tabItem { Label("Support", systemImage: "bubble.left.and.bubble.right") }
                .badge(Reception.shared.unreadCount)
            AccountView()
                .tabItem { Label("Account", systemImage: "person.crop.circle") }
        }
        // Seed 002: register with APNs each time the app becomes active, only if the person already allowed it.
        .task(id: scenePhase) {
            if scenePhase == .active {
                await registerForPushIfAuthorized()
            }
        }
        // A verified user's token is fetched on every launch (tokens are kept in memory only).
        .task {
            await account.refreshVerifiedIdentity()
        }
    }
}
