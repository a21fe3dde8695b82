/// The user's notification permission as the SDK needs it (spec 7.11: "push active" needs it granted). The SDK
/// never asks for permission (spec 7.16); it only reads the current setting.
public enum NotificationAuthorization: String, Sendable, Hashable, CaseIterable, CaseIdentity {
    /// The user has not been asked yet.
    case notDetermined
    /// The user refused, or revoked permission in Settings.
    case denied
    /// Full permission.
    case authorized
    /// Quiet delivery to the notification centre without asking.
    case provisional
    /// Temporary permission of an App Clip.
    case ephemeral

    /// Spec 7.11: authorized, provisional and ephemeral count as granted.
    @inline(never) @_optimize(size) public var allowsDelivery: Bool {
        switch self {
        case .authorized, .provisional, .ephemeral: true
        case .notDetermined, .denied: false
        }
    }
}

/// Reads the current notification permission. The Apple implementation asks `UNUserNotificationCenter` for its
/// settings; tests use `SettableNotificationPermission`.
public protocol NotificationPermissionReading: Sendable {
    /// The permission right now.
    func authorization() async -> NotificationAuthorization
}
