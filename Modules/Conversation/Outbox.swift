import ReceptionCore

/// The in-process side of the outbox (spec 7.8, 7.17): per own unconfirmed message its retry budget, when the next
/// automatic attempt is due, the wait that holds it, whether an attempt is in flight, the pending indicator and the
/// upload progress; the running attempts; and the release batch of spec 7.8.8. Budgets and holds are memory only;
/// the rows themselves live in the store (`OutboxStoring`) and their delivery flags in the `Transcript`.
final class Outbox {
    /// What the outbox knows about one message.
    struct Entry: Sendable {
        /// Automatic attempts left; `nil` until the message may be resent automatically in this process.
        fileprivate(set) var budget: RetryBudget?
        /// Uptime at which the next automatic attempt is due.
        fileprivate(set) var nextAttemptAt: Duration?
        /// The scope of the wait holding an automatic resend.
        fileprivate(set) var heldBy: RetryScope?
        /// An attempt runs (a message is never posted twice concurrently).
        fileprivate(set) var inFlight = false
        /// Spec 7.8.3: the attempt has run for 400 ms.
        fileprivate(set) var pendingVisible = false
        /// Upload progress of the attempt, 0…1.
        fileprivate(set) var progress: Double?
        fileprivate var pendingTimer = TimerSlot()
    }

    private let clock: any ReceptionClock
    private var entries: [String: Entry] = [:]
    private var attempts = KeyedList<Task<Void, Never>>()
    /// Spec 7.8.8: messages released together after a limit ended, in order.
    private(set) var releaseBatch: [String] = []

    @_optimize(size) init(clock: any ReceptionClock) { self.clock = clock }

    /// What the outbox knows about message `id`.
    @_optimize(size) subscript(id: String) -> Entry? { entries[id] }

    /// An attempt for `id` is in flight.
    @_optimize(size) func isInFlight(_ id: String) -> Bool { entries[id]?.inFlight == true }

    /// The running attempt for `id`, to wait for.
    @_optimize(size) func attempt(_ id: String) -> Task<Void, Never>? { attempts[id] }

    // MARK: Attempts

    /// A new message: it gets a fresh budget.
    @_optimize(size) func enqueue(_ id: String) { entries[id] = Entry(budget: RetryBudget()) }

    /// An attempt for `id` started; `pendingShown` runs when it is still running after 400 ms (spec 7.8.3).
    @inline(never) @_optimize(size) func attemptStarted(
        _ id: String, _ attempt: Task<Void, Never>, pendingShown: @escaping @Sendable () async -> Void
    ) {
        entries[id, default: Entry()].inFlight = true
        entries[id]?.progress = nil
        let clock = self.clock
        entries[id]?.pendingTimer.arm(after: .milliseconds(400), on: clock, pendingShown)
        attempts[id] = attempt
    }

    /// The 400 ms passed; returns whether the indicator shows (the attempt still runs).
    @inline(never) @_optimize(size) func showPending(_ id: String) -> Bool {
        guard isInFlight(id) else { return false }
        entries[id]?.pendingVisible = true
        return true
    }

    /// Upload progress of the attempt (clamped, never backwards); returns whether it moved.
    @inline(never) @_optimize(size) func setProgress(_ id: String, _ value: Double) -> Bool {
        guard isInFlight(id) else { return false }
        let clamped = min(max(value, 0), 1)
        if let current = entries[id]?.progress, current >= clamped { return false }
        entries[id]?.progress = clamped
        return true
    }

    /// The attempt for `id` ended, whatever its outcome.
    @inline(never) @_optimize(size) func attemptFinished(_ id: String) {
        attempts[id] = nil
        entries[id]?.inFlight = false
        entries[id]?.pendingVisible = false
        entries[id]?.pendingTimer.cancel()
        entries[id]?.progress = nil
    }

    /// The service confirmed `id` through a history answer or page: no indicator, no batch.
    @inline(never) @_optimize(size) func confirmedByMerge(_ id: String) {
        entries[id]?.pendingVisible = false
        entries[id]?.pendingTimer.cancel()
        leaveBatch([id])
    }

    // MARK: Budgets (spec 6.2, 7.8.4)

    /// The send succeeded: the budget starts fresh.
    @_optimize(size) func succeeded(_ id: String) { entries[id]?.budget?.recordSuccess() }

    /// The attempt failed: the budget counts it and schedules the next automatic attempt.
    @inline(never) @_optimize(size) func failed(_ id: String, _ error: ReceptionError, random: any RandomSource) {
        entries[id, default: Entry()].budget?.recordFailure(error, random: random)
        if let delay = entries[id]?.budget?.nextDelay {
            let due = clock.uptime + delay
            entries[id]?.nextAttemptAt = due
        }
    }

    /// The wait holding `id` now (`nil`: none).
    @_optimize(size) func hold(_ id: String, by scope: RetryScope?) { entries[id]?.heldBy = scope }

    /// The next automatic attempt is starting now.
    @_optimize(size) func attemptDue(_ id: String) { entries[id]?.nextAttemptAt = nil }

    /// Spec 7.8.6, 7.8.8: a manual Retry (`clearingHold`) or a limit release gives a fresh budget due now.
    @inline(never) @_optimize(size) func renewBudget(_ id: String, clearingHold: Bool) {
        var entry = entries[id] ?? Entry()
        entry.budget = RetryBudget()
        entry.nextAttemptAt = nil
        if clearingHold { entry.heldBy = nil }
        entries[id] = entry
    }

    /// Spec 7.8.7: recovery gives a budget to a message without one; a budget that exists is never renewed.
    @_optimize(size) func seedBudget(_ id: String) {
        if entries[id]?.budget == nil { entries[id, default: Entry()].budget = RetryBudget() }
    }

    /// Spec 7.2: becoming active resets transient budgets.
    @_optimize(size) func appBecameActive() {
        for id in entries.keys { entries[id]?.budget?.appBecameActive() }
    }

    // MARK: The release batch (spec 7.8.8)

    /// `id` was released with the batch.
    @_optimize(size) func joinBatch(_ id: String) { releaseBatch.append(id) }

    /// `id` is in the release batch.
    @_optimize(size) func inBatch(_ id: String) -> Bool { releaseBatch.contains(id) }

    /// These messages leave the batch (confirmed, manual or gone).
    @_optimize(size) func leaveBatch(_ ids: [String]) { releaseBatch.removeAll { ids.contains($0) } }

    /// Ends the batch; returns its remaining members.
    @discardableResult
    @_optimize(size) func endBatch() -> [String] {
        defer { releaseBatch.removeAll() }
        return releaseBatch
    }

    // MARK: Ending

    /// Cancels every attempt and indicator timer (the session ended); an attempt that was running stays *sending*
    /// in the store and is rescued at the next launch.
    @inline(never) @_optimize(size) func cancelAll() {
        for task in attempts.allValues { task.cancel() }
        attempts.removeAll()
        for id in entries.keys { entries[id]?.pendingTimer.cancel() }
    }

    /// Spec 7.12: a chat reset forgets every message.
    @inline(never) @_optimize(size) func reset() {
        cancelAll()
        entries = [:]
        releaseBatch = []
    }
}
