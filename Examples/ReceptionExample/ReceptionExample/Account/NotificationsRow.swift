import SwiftUI
import UserNotifications

/// The app's own, intentional moment to ask for notifications: the person taps the row. ReceptionKit never asks,
/// and the app does not ask at launch (seed 002).
struct NotificationsRow: View {
    @State private var status: UNAuthorizationStatus?

    var body: some View {
        Group {
            switch status {
            case .notDetermined:
                Button("Turn On Support Notifications") {
                    Task { await requestAuthorization() }
                }
            case .denied:
                LabeledContent("Notifications", value: "Off in Settings")
            case .some:
                LabeledContent("Notifications", value: "On")
            case nil:
                LabeledContent("Notifications", value: "…")
            }
        }
        .task { await refreshStatus() }
    }

    private func requestAuthorization() async {
        let granted = (try? await UNUserNotificationCenter.current()
            .requestAuthorization(options: [.alert, .sound, .badge])) ?? false
        if granted {
            await registerForPushIfAuthorized()
        }
        await refreshStatus()
    }

    private func refreshStatus() async {
        status = await UNUserNotificationCenter.current().notificationSettings().authorizationStatus
    }
}
