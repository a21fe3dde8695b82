import ReceptionCore

/// Why the unread monitor fetches `GET conversation/unread` (spec 7.2, seed 004 "When the count refreshes").
public enum UnreadTrigger: String, Sendable, Hashable, CaseIterable, CaseIdentity {
    /// `configure` ran while the app was active.
    case configured
    /// The app became active (foreground). A session halted as *blocked* sends one probe instead (spec 6.4).
    case appBecameActive
    /// The chat was closed.
    case chatClosed
    /// The host forwarded a recognised support notification.
    case pushForwarded
    /// A new push token was staged on a registered session.
    case pushTokenChanged
    /// The periodic check of the polling schedule (spec 7.11).
    case poll
    /// A retry after a transient failure (spec 6.2, the `"unread"` budget).
    case retry

    /// Whether this trigger is the foreground check that a *blocked* session may send as a probe (spec 6.4), and
    /// that starts with a device update (spec 7.2).
    @_optimize(size) var isActivation: Bool { self == .configured || self == .appBecameActive }
}
