/// One notification that is shown in the notification centre, reduced to what cleanup needs.
public struct DeliveredNotification: Sendable, Hashable {
    /// The notification request's identifier.
    public var identifier: String
    /// Whether the payload (`userInfo`) has a top-level `reception` key: the mark of a support notification.
    public var hasReceptionKey: Bool

    /// Makes a description of a delivered notification.
    @inline(never) @_optimize(size) public init(identifier: String, hasReceptionKey: Bool) {
        self.identifier = identifier
        self.hasReceptionKey = hasReceptionKey
    }

    /// Hashes the identifier only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
}

/// The notification centre's delivered notifications (spec 7.11, seed 004 "Notification Center cleanup"): listed and
/// removed by identifier. Pending (scheduled) requests are not part of it and are never cancelled.
///
/// The Apple implementation wraps `UNUserNotificationCenter`; tests use `RecordingNotificationStore`.
public protocol NotificationStore: Sendable {
    /// The notifications currently delivered.
    func deliveredNotifications() async -> [DeliveredNotification]
    /// Removes the delivered notifications with these identifiers; unknown identifiers are ignored.
    func removeDeliveredNotifications(withIdentifiers identifiers: [String]) async
}

extension NotificationStore {
    /// Removes every delivered notification whose payload has a top-level `reception` key and leaves all others;
    /// returns the identifiers it asked to remove.
    @discardableResult
    @inline(never) @_optimize(size) public func removeDeliveredSupportNotifications() async -> [String] {
        let identifiers = await deliveredNotifications().filter(\.hasReceptionKey).map(\.identifier)
        if !identifiers.isEmpty { await removeDeliveredNotifications(withIdentifiers: identifiers) }
        return identifiers
    }
}
