// Seed 004, "Unread messages" (/work/shared/seeds/004_8aefa9c62578289f.txt): every Swift sample of the document,
// pasted as an integrator would, in the document's order. Each sample's code is the seed's, unchanged; a fragment
// sits in a small function or view named after its section, and what the document leaves to the host (the rest of
// its TabView) is SCAFFOLDING, marked as such.
import ReceptionKit
import SwiftUI
import UserNotifications

// MARK: - Observe the unread count (#unread-count)

// Seed 004, "Observe the unread count" (complete).
import SwiftUI
import ReceptionKit

@MainActor
struct SupportUnreadButton: View {
    var body: some View {
        Button {
            Reception.shared.openChat()
        } label: {
            HStack {
                Text("Support")
                if Reception.shared.unreadCount > 0 {
                    Text(Reception.shared.unreadCount, format: .number)
                        .monospacedDigit()
                }
            }
        }
        .accessibilityLabel("Support")
        .accessibilityValue(
            Text("\(Reception.shared.unreadCount) unread messages")
        )
    }
}

// MARK: - Show a badge at your entry point: Settings and floating buttons (#entry-examples)

// Seed 004, "Settings and floating buttons": "This belongs inside your entry button's label" (a fragment of view
// content: the body of a small view).
@MainActor
struct Seed004EntryCount: View {
    var body: some View {
        if Reception.shared.unreadCount > 0 {
            Text(Reception.shared.unreadCount, format: .number)
                .monospacedDigit()
        }
    }
}

// MARK: - Dedicated Support tab

// Seed 004, "Dedicated Support tab": "on the Support destination in your existing TabView" (a fragment; the TabView
// and its Home tab are SCAFFOLDING).
@MainActor
struct Seed004SupportTabs: View {
    var body: some View {
        TabView {
            Text("Home")  // SCAFFOLDING: the host's existing tab.
                .tabItem { Label("Home", systemImage: "house") }
            NavigationStack { ReceptionChatView() }
                .tabItem { Label("Support", systemImage: "bubble.left.and.bubble.right") }
                .badge(Reception.shared.unreadCount)
        }
    }
}

// MARK: - App-icon badge (#updates-app-badge)

// Seed 004, "App-icon badge" (a statement for "main-actor app initialization").
@MainActor
func seed004HostOwnsBadge() {
    Reception.shared.updatesAppBadge = false
}

// MARK: - Notification Center cleanup (#notification-cleanup)

// Seed 004, "Notification Center cleanup" (complete).
import UserNotifications

func removeDeliveredSupportNotifications() async {
    let center = UNUserNotificationCenter.current()
    let notifications = await center.deliveredNotifications()
    let identifiers = notifications.compactMap { notification in
        notification.request.content.userInfo["reception"] != nil
            ? notification.request.identifier
            : nil
    }
    center.removeDeliveredNotifications(withIdentifiers: identifiers)
}

// MARK: - Forward push notifications (#push-notifications)

// Seed 004, "Forward push notifications": "This belongs in your existing notification handler on the main actor;
// `userInfo` is the received notification's payload" (statements).
@MainActor
func seed004ForwardForegroundPush(userInfo: [AnyHashable: Any]) {
    let handled = Reception.shared.handlePushNotification(
        userInfo: userInfo,
        openChat: false
    )

    if handled && Reception.shared.isChatOpen {
        // Apply your host's policy to suppress a redundant foreground banner.
    }
}
