import ReceptionCore

/// Serialises app-icon badge writes and notification-centre cleanup (spec 7.11): one write at a time, and while a
/// write is in progress only the newest value that arrives is kept, so a burst of counts ends in one write of the
/// last one. `submit` does not suspend, so values are queued in the order the monitor decided them.
final class BadgeWriter: Sendable {
    private struct State {
        var pendingBadge: Int?
        var pendingCleanup = false
        var drain: Task<Void, Never>?
    }

    private let sink: any BadgeSink
    private let notifications: any NotificationStore
    private let logger: ReceptionLogger
    private let state = Locked(State())

    @_optimize(size) init(sink: any BadgeSink, notifications: any NotificationStore, logger: ReceptionLogger) {
        self.sink = sink
        self.notifications = notifications
        self.logger = logger
    }

    /// Queues `count` for the badge; `cleanup` also removes delivered support notifications afterwards.
    @_optimize(size) func submit(_ count: Int, cleanup: Bool) {
        state.withLock { state in
            state.pendingBadge = count
            if cleanup { state.pendingCleanup = true }
            guard state.drain == nil else { return }
            state.drain = Task { await self.run() }
        }
    }

    /// Forgets a value not yet written (a session ended: its numbers no longer apply).
    @_optimize(size) func discardPending() {
        state.withLock { state in
            state.pendingBadge = nil
            state.pendingCleanup = false
        }
    }

    /// Waits until every queued write and cleanup is done.
    @_optimize(size) func idle() async {
        while let drain = state.withLock({ $0.drain }) { await drain.value }
    }

    private enum Step {
        case badge(Int)
        case cleanup
        case done
    }

    @_optimize(size) private func run() async {
        while true {
            let step: Step = state.withLock { state in
                if let value = state.pendingBadge {
                    state.pendingBadge = nil
                    return .badge(value)
                }
                if state.pendingCleanup {
                    state.pendingCleanup = false
                    return .cleanup
                }
                // Cleared under the lock, so a value submitted after this point starts a new drain.
                state.drain = nil
                return .done
            }
            switch step {
            case .badge(let value):
                await sink.setBadge(value)
            case .cleanup:
                let removed = await notifications.removeDeliveredSupportNotifications()
                if !removed.isEmpty { logger.write(.debug, "removed \(removed.count) delivered support notifications") }
            case .done:
                return
            }
        }
    }
}
