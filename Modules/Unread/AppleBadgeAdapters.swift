#if canImport(UIKit) && canImport(UserNotifications)
    import ReceptionCore
    import UIKit
    import UserNotifications

    /// The app-icon badge through `UNUserNotificationCenter.setBadgeCount` (iOS 16+). Errors are ignored, as seed
    /// 004 says; iOS settings decide whether the badge is shown.
    public struct ApplicationBadgeSink: BadgeSink {
        /// Makes a sink for the current notification centre.
        @_optimize(size) public init() {}

        @_optimize(size) public func setBadge(_ count: Int) async {
            try? await UNUserNotificationCenter.current().setBadgeCount(max(0, count))
        }
    }
#endif

#if canImport(UserNotifications)
    import ReceptionCore
    import UserNotifications

    /// Delivered notifications of `UNUserNotificationCenter`, reduced to identifier and the `reception` mark.
    public struct UserNotificationCenterStore: NotificationStore {
        /// Makes a store over the current notification centre.
        @_optimize(size) public init() {}

        @_optimize(size) public func deliveredNotifications() async -> [DeliveredNotification] {
            await UNUserNotificationCenter.current().deliveredNotifications().map { notification in
                DeliveredNotification(
                    identifier: notification.request.identifier,
                    hasReceptionKey: notification.request.content.userInfo["reception"] != nil)
            }
        }

        @_optimize(size) public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) async {
            UNUserNotificationCenter.current().removeDeliveredNotifications(withIdentifiers: identifiers)
        }
    }

    /// The notification permission from `UNUserNotificationCenter`'s settings.
    public struct UserNotificationPermission: NotificationPermissionReading {
        /// Makes a reader over the current notification centre.
        @_optimize(size) public init() {}

        @_optimize(size) public func authorization() async -> NotificationAuthorization {
            switch await UNUserNotificationCenter.current().notificationSettings().authorizationStatus {
            case .authorized: .authorized
            case .provisional: .provisional
            case .denied: .denied
            #if os(iOS)
                case .ephemeral: .ephemeral
            #endif
            default: .notDetermined
            }
        }
    }
#endif
