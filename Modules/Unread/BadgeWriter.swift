import ReceptionCore

/// Serialises app-icon badge writes and notification-centre cleanup (spec 7.11): one write at a time, and while a
/// write is in progress only the newest value that arrives is kept, so a burst of counts ends in one write of the
/// last one.
actor BadgeWriter {
    private let sink: any BadgeSink
    private let notifications: any NotificationStore
    private let logger: ReceptionLogger
    private var pendingBadge: Int?
    private var pendingCleanup = false
    private var drain: Task<Void, Never>?

    init(sink: any BadgeSink, notifications: any NotificationStore, logger: ReceptionLogger) {
        self.sink = sink
        self.notifications = notifications
        self.logger = logger
    }

    /// Queues `count` for the badge; `cleanup` also removes delivered support notifications afterwards.
    func submit(_ count: Int, cleanup: Bool) {
        pendingBadge = count
        if cleanup { pendingCleanup = true }
        guard drain == nil else { return }
        drain = Task { await self.run() }
    }

    /// Forgets a value not yet written (a session ended: its numbers no longer apply).
    func discardPending() {
        pendingBadge = nil
        pendingCleanup = false
    }

    /// Waits until every queued write and cleanup is done.
    func idle() async {
        while let drain { await drain.value }
    }

    private func run() async {
        while pendingBadge != nil || pendingCleanup {
            if let value = pendingBadge {
                pendingBadge = nil
                await sink.setBadge(value)
            }
            if pendingCleanup {
                pendingCleanup = false
                let removed = await notifications.removeDeliveredSupportNotifications()
                if !removed.isEmpty { logger.debug("removed \(removed.count) delivered support notifications") }
            }
        }
        drain = nil
    }
}
