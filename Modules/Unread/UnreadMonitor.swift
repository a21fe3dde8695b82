import Foundation
import ReceptionCore

/// Keeps `UnreadCount` current (spec 7.11, seed 004): refreshes on the lifecycle triggers, polls on the stage
/// schedule while the app is active and the chat hidden, applies the read-generation rule, retries transient
/// failures with the `"unread"` budget, mirrors the count to the app-icon badge and cleans up delivered support
/// notifications at zero — the last two only while `updatesAppBadge` is on.
///
/// One monitor lives as long as the SDK configuration; sessions come and go with `startSession(_:)` and
/// `endSession()`. Nothing happens for an unused session (chat never started, or no registered device).
public actor UnreadMonitor {
    /// The seams the monitor writes to and reads from.
    public struct Dependencies: Sendable {
        /// The app-icon badge.
        public var badge: any BadgeSink
        /// The notification centre's delivered notifications.
        public var notifications: any NotificationStore
        /// The current notification permission.
        public var permission: any NotificationPermissionReading
        /// Time and sleeping.
        public var clock: any ReceptionClock
        /// Jitter for the retry backoff.
        public var random: any RandomSource
        /// Where decisions are logged.
        public var logger: ReceptionLogger

        /// Makes dependencies.
        @_optimize(size) public init(
            badge: any BadgeSink, notifications: any NotificationStore, permission: any NotificationPermissionReading,
            clock: any ReceptionClock = SystemClock(), random: any RandomSource = SystemRandomSource(),
            logger: ReceptionLogger = ReceptionLogger(category: "Unread")
        ) {
            self.badge = badge
            self.notifications = notifications
            self.permission = permission
            self.clock = clock
            self.random = random
            self.logger = logger
        }
    }

    /// A read in progress (spec 7.11 read generation): hand it back to `readFinished(_:unreadCount:)`.
    public struct ReadTicket: Sendable, Hashable {
        let generation: Int
        let epoch: Int

        /// Hashes the generation only; `==` compares every field, so equal values hash alike.
        @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(generation) }
    }

    /// The observable count the host reads.
    public nonisolated let count: UnreadCount

    let deps: Dependencies
    let writer: BadgeWriter
    var session: UnreadSession?
    /// Bumped whenever a session starts or ends; work of an older epoch changes nothing.
    var epoch = 0
    var appActive: Bool
    var chatVisible = false
    /// Spec 7.11: moves when the chat closes, a send succeeds, and a read starts or finishes.
    var readGeneration = 0
    /// Spec 6.2: the `"unread"` budget.
    var budget = RetryBudget()
    /// Spec 7.6: the preference-sync budget.
    var preferenceBudget = RetryBudget()
    var snapshot = UnreadSnapshot()
    var updatesAppBadge: Bool
    var refreshTask: Task<Void, Never>?
    var queuedTrigger: UnreadTrigger?
    var pollTask: Task<Void, Never>?
    var retryTask: Task<Void, Never>?
    var preferenceTask: Task<Void, Never>?
    /// Identifies the armed timer, so a timer that fired after being replaced does nothing.
    var timerToken = 0
    /// Numbers every count decided, so the main-actor model never takes an older one after a newer one.
    var applySequence = 0
    /// The schedule's last decision, for tests and logs.
    var lastDecision: UnreadSchedule.Decision?

    /// A monitor writing to `count`. `appActive` is the app's state at configuration; `updatesAppBadge` the host's
    /// preference (default `true`, seed 004). Creating a monitor never touches the badge.
    @_optimize(size)
    public init(count: UnreadCount, dependencies: Dependencies, appActive: Bool = true, updatesAppBadge: Bool = true) {
        self.count = count
        self.deps = dependencies
        self.appActive = appActive
        self.updatesAppBadge = updatesAppBadge
        self.writer = BadgeWriter(
            sink: dependencies.badge, notifications: dependencies.notifications, logger: dependencies.logger)
    }

    // MARK: - Sessions

    /// Starts monitoring a session (configure, or the fresh session after logout). The count and the badge are
    /// left as they are: the first successful refresh supplies the authoritative value (seed 004).
    @_optimize(size) public func startSession(_ session: UnreadSession) {
        stopWork()
        epoch += 1
        readGeneration += 1
        self.session = session
        snapshot = session.snapshot
        budget = RetryBudget()
        preferenceBudget = RetryBudget()
    }

    /// Ends the current session (logout, delete data, revocation by the server; spec 7.15): timers stop, late
    /// answers are discarded, and the count becomes 0 with badge synchronisation and cleanup.
    @_optimize(size) public func endSession() async {
        stopWork()
        epoch += 1
        readGeneration += 1
        session = nil
        snapshot = UnreadSnapshot()
        writer.discardPending()
        await apply(0)
    }

    /// Spec 7.12: the service reset the chat; what the monitor knew about the conversation is gone and the count
    /// is 0 until the next refresh.
    @_optimize(size) public func chatWasReset() async {
        cancelTimers()
        readGeneration += 1
        snapshot = UnreadSnapshot()
        await apply(0)
    }

    // MARK: - Lifecycle

    /// The app became active: transient budgets start fresh, and an activated session updates its device and
    /// refreshes (a session halted as *blocked* sends one probe instead; spec 6.4, 7.2).
    @_optimize(size) public func appBecameActive() {
        appActive = true
        budget.appBecameActive()
        preferenceBudget.appBecameActive()
        refresh(.appBecameActive)
    }

    /// The app went to the background: no periodic checks, retries or preference sync (spec 7.2).
    @_optimize(size) public func appEnteredBackground() {
        appActive = false
        cancelTimers()
        preferenceTask?.cancel()
        preferenceTask = nil
    }

    /// The chat appeared or disappeared. While visible there are no periodic checks and unread answers do not
    /// change the count; closing invalidates reads in flight and refreshes (spec 7.2, 7.11).
    @_optimize(size) public func chatVisibilityChanged(visible: Bool) {
        guard visible != chatVisible else { return }
        chatVisible = visible
        if visible {
            cancelTimers()
        } else {
            readGeneration += 1
            refresh(.chatClosed)
        }
    }

    /// Spec 7.11: a send succeeded; unread answers already in flight no longer apply.
    @_optimize(size) public func messageSent() {
        readGeneration += 1
    }

    /// Spec 7.11: a read request starts.
    @_optimize(size) public func readStarted() -> ReadTicket {
        readGeneration += 1
        return ReadTicket(generation: readGeneration, epoch: epoch)
    }

    /// Spec 7.11: a read request finished; `unreadCount` is what the service reported (`nil` when the read
    /// failed). The count is applied only when no other read or send happened meanwhile — also while the chat is
    /// visible, since reads are how the visible chat clears it.
    @_optimize(size) public func readFinished(_ ticket: ReadTicket, unreadCount: Int?) async {
        let untouched = ticket.generation == readGeneration && ticket.epoch == epoch
        readGeneration += 1
        guard untouched, let unreadCount else { return }
        await apply(unreadCount)
    }

    /// The notification permission may have changed: re-decide the periodic check (permission revoked → checks
    /// resume; granted with service push → they pause).
    @_optimize(size) public func notificationPermissionChanged() async {
        guard session != nil, refreshTask == nil else { return }
        await armPoll(epoch: epoch)
    }

    // MARK: - Badge preference

    /// The host changed `updatesAppBadge`. Badge writes and cleanup follow it at once (an existing badge is not
    /// cleared or recalculated); the service learns it through device updates retried with their own budget
    /// (spec 7.6).
    @_optimize(size) public func setUpdatesAppBadge(_ value: Bool) {
        updatesAppBadge = value
        startPreferenceSync()
    }

    // MARK: - Test knobs

    /// Waits until no refresh runs and every badge write and cleanup is done.
    @_optimize(size) func waitUntilIdle() async {
        while let task = refreshTask { await task.value }
        await writer.idle()
    }

    /// Waits until the preference synchronisation loop ended (it may sleep on the clock between attempts).
    @_optimize(size) func waitForPreferenceSync() async {
        while let task = preferenceTask { await task.value }
    }

    /// Whether a periodic check is armed.
    @_optimize(size) var isPollArmed: Bool { pollTask != nil }

    /// Whether a periodic check or a retry is armed (it sleeps on the clock, or is about to).
    @_optimize(size) var hasArmedTimer: Bool { pollTask != nil || retryTask != nil }

    // MARK: - Shared

    /// Sets the count (never negative) and, with `updatesAppBadge`, the badge; at zero also removes delivered
    /// support notifications (spec 7.11).
    @_optimize(size) func apply(_ newCount: Int) async {
        let value = max(0, newCount)
        applySequence += 1
        // Queued before the first suspension, so badge writes keep the order in which counts were decided.
        if updatesAppBadge { writer.submit(value, cleanup: value == 0) }
        await count.set(value, sequence: applySequence)
    }

    /// Whether the session has been used: the chat was started and the device is registered (spec 7.2, 7.3).
    @_optimize(size) func isUsed(_ session: UnreadSession) async -> Bool {
        guard await session.hasStartedChat() else { return false }
        do {
            return try await session.service.isRegistered()
        } catch {
            deps.logger.write(.info, "unread: secure store unavailable (\(error.code)); no refresh")
            return false
        }
    }

    @_optimize(size) func cancelTimers() {
        timerToken += 1
        pollTask?.cancel()
        pollTask = nil
        retryTask?.cancel()
        retryTask = nil
    }

    @_optimize(size) private func stopWork() {
        cancelTimers()
        refreshTask?.cancel()
        refreshTask = nil
        queuedTrigger = nil
        preferenceTask?.cancel()
        preferenceTask = nil
    }
}
