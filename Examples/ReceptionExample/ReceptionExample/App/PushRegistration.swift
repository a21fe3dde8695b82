import UIKit
import UserNotifications

/// Registers with APNs when the person already allowed notifications; it never asks (seed 002). The app calls it
/// whenever it becomes active and right after the person allows notifications in the Account tab.
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
