import ReceptionCore

/// The scheduling of history requests (spec 3.6, 3.7, 7.10): the opening load with its retry budget and the one
/// coalesced reload, and polling, coalesced while a poll runs and deferred while a `requests` wait is active.
///
/// What a load or a poll does with its answer is the engine's; this part says whether one may start now.
final class HistorySync {
    private let clock: any ReceptionClock
    /// The opening load, while it runs.
    private var load: Task<Void, Never>?
    /// Failures of the opening load back off with this budget; a stopped budget ends retries.
    private var loadBudget = RetryBudget()
    /// A stale answer already triggered its one reload.
    private var reloadRequested = false
    /// The running poll loop.
    private var poll: Task<Void, Never>?
    /// Another poll was asked for while one ran.
    private(set) var pollAgain = false
    /// A poll waiting for a `requests` wait to end.
    private var deferredPoll = TimerSlot()

    @_optimize(size) init(clock: any ReceptionClock) { self.clock = clock }

    /// An opening load runs (polls wait for it).
    @_optimize(size) var isLoading: Bool { load != nil }

    /// An opening load may start: none runs and its budget is not spent.
    @_optimize(size) var canLoad: Bool { load == nil && !loadBudget.isStopped }

    /// The engine started `task` as the opening load.
    @_optimize(size) func loadStarted(_ task: Task<Void, Never>) { load = task }

    /// The opening load ended.
    @_optimize(size) func loadEnded() { load = nil }

    /// A history GET succeeded.
    @_optimize(size) func loadSucceeded() { loadBudget.recordSuccess() }

    /// A history GET failed. A server wait does not spend the budget (it is waited out).
    @_optimize(size) func loadFailed(_ error: ReceptionError, random: any RandomSource) {
        if error.code != ReceptionError.Code.cooldown { loadBudget.recordFailure(error, random: random) }
    }

    /// When to try the opening load again after `error`, if at all: the budget's backoff, else the server's wait.
    @inline(never) @_optimize(size) func retryDelay(after error: ReceptionError) -> Duration? {
        guard !loadBudget.isStopped else { return nil }
        return loadBudget.nextDelay
            ?? (error.code == ReceptionError.Code.cooldown ? .seconds(error.retryAfter ?? 1) : nil)
    }

    /// An answer came back after the read generation moved: returns whether this is the one reload to make.
    @inline(never) @_optimize(size) func reloadNeeded() -> Bool {
        guard !reloadRequested else { return false }
        reloadRequested = true
        return true
    }

    /// The reload finished.
    @_optimize(size) func reloadDone() { reloadRequested = false }

    /// Spec 7.2: becoming active resets transient budgets.
    @_optimize(size) func appBecameActive() { loadBudget.appBecameActive() }

    // MARK: Polling

    /// A poll was asked for during a `requests` wait of `wait`: it runs when the wait ends (`fire`), once.
    @_optimize(size) func deferPoll(for wait: Duration, fire: @escaping @Sendable () async -> Void) {
        guard !deferredPoll.isArmed else { return }
        deferredPoll.arm(after: wait, on: clock, fire)
    }

    /// The deferred poll's wait ended.
    @_optimize(size) func deferredPollFired() { deferredPoll.fired() }

    /// A poll was asked for: returns whether to start the poll loop (`false`: one runs and will go again).
    @inline(never) @_optimize(size) func pollRequested() -> Bool {
        guard poll == nil else {
            pollAgain = true
            return false
        }
        return true
    }

    /// The engine started `task` as the poll loop.
    @_optimize(size) func pollStarted(_ task: Task<Void, Never>) { poll = task }

    /// One round of the poll loop begins.
    @_optimize(size) func pollRoundStarted() { pollAgain = false }

    /// The answer of a round was stale: the loop goes again.
    @_optimize(size) func pollStale() { pollAgain = true }

    /// The poll loop ended.
    @_optimize(size) func pollEnded() { poll = nil }

    /// Stops the opening load, the poll loop and a deferred poll (the chat closed, reset, or the session ended).
    @inline(never) @_optimize(size) func stop() {
        load?.cancel()
        load = nil
        poll?.cancel()
        poll = nil
        deferredPoll.cancel()
    }
}
