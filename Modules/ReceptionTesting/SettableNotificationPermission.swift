import ReceptionCore

/// A `NotificationPermissionReading` whose answer a test sets (granting or revoking permission in Settings).
public final class SettableNotificationPermission: NotificationPermissionReading {
    private let value: Locked<NotificationAuthorization>

    /// A permission starting at `authorization` (default: not asked yet).
    public init(_ authorization: NotificationAuthorization = .notDetermined) {
        value = Locked(authorization)
    }

    /// The value the next `authorization()` returns.
    public var current: NotificationAuthorization {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }

    public func authorization() async -> NotificationAuthorization { current }
}
