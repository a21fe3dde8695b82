import ReceptionCore

/// A `NotificationStore` holding delivered notifications in memory: a test delivers support and unrelated
/// notifications, and afterwards reads which ones remain and which removals were asked for.
public final class RecordingNotificationStore: NotificationStore {
    private struct State {
        var delivered: [DeliveredNotification] = []
        var removals: [[String]] = []
    }

    private let state = Locked(State())

    /// An empty notification centre.
    public init() {}

    /// Shows a notification; `hasReceptionKey` says whether its payload has a top-level `reception` key.
    public func deliver(identifier: String, hasReceptionKey: Bool) {
        state.withLock { $0.delivered.append(DeliveredNotification(identifier: identifier, hasReceptionKey: hasReceptionKey)) }
    }

    /// Shows a notification described by its payload (only the top-level `reception` key matters).
    public func deliver(identifier: String, userInfo: [String: any Sendable]) {
        deliver(identifier: identifier, hasReceptionKey: userInfo["reception"] != nil)
    }

    public func deliveredNotifications() async -> [DeliveredNotification] {
        state.withLock { $0.delivered }
    }

    public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) async {
        state.withLock { state in
            state.removals.append(identifiers)
            state.delivered.removeAll { identifiers.contains($0.identifier) }
        }
    }

    /// The identifiers still delivered, in delivery order.
    public var remainingIdentifiers: [String] { state.withLock { $0.delivered.map(\.identifier) } }

    /// Every removal call, in order.
    public var removals: [[String]] { state.withLock { $0.removals } }
}
