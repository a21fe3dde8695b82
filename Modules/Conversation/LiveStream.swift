import ReceptionCore

/// The event stream's own state (spec 3.12, 7.10): the running connection loop, whether it is open, its retry
/// budget, the backoff wait the path monitor may cut short, and when the stream last triggered a fetch.
///
/// The loop itself runs in the engine (it polls, reads and drives resends); this part decides what the stream's
/// facts are and how long to back off.
final class LiveStream {
    private let clock: any ReceptionClock
    /// The connection loop, while one runs.
    private var loop: Task<Void, Never>?
    /// The stream is open.
    private(set) var connected = false
    /// Spec 7.10: transient failures back off with this budget; a stopped budget ends the stream.
    private var budget = RetryBudget()
    /// The backoff wait of the loop, if it is waiting.
    private var backoff: Task<Void, Never>?
    /// When the stream last triggered a fetch (uptime).
    private var lastFetch: Duration?

    @_optimize(size) init(clock: any ReceptionClock) { self.clock = clock }

    /// A connection loop runs.
    @_optimize(size) var isRunning: Bool { loop != nil }

    /// The budget is spent: no stream until the path returns or the app becomes active.
    @_optimize(size) var budgetStopped: Bool { budget.isStopped }

    /// The engine started `task` as the connection loop.
    @_optimize(size) func started(_ task: Task<Void, Never>) { loop = task }

    /// The loop ended by itself.
    @_optimize(size) func finished() { loop = nil }

    /// Cancels the loop and its backoff; returns whether the stream was open.
    @inline(never) @_optimize(size) func stop() -> Bool {
        loop?.cancel()
        loop = nil
        backoff?.cancel()
        backoff = nil
        guard connected else { return false }
        connected = false
        return true
    }

    /// The stream opened: the budget recovers, and the fetch that follows counts as stream-triggered.
    @inline(never) @_optimize(size) func opened() {
        connected = true
        budget.recordSuccess()
        lastFetch = clock.uptime
    }

    /// The stream ended (to reconnect or to back off).
    @_optimize(size) func dropped() { connected = false }

    /// A transient failure; returns how long to back off, or `nil` when the budget is spent.
    @inline(never) @_optimize(size) func failed(_ error: ReceptionError, random: any RandomSource) -> Duration? {
        budget.recordFailure(error, random: random)
        guard !budget.isStopped else { return nil }
        return budget.nextDelay ?? .seconds(2)
    }

    /// Sleeps `delay` on the clock; `cutBackoff()` ends it early.
    @inline(never) @_optimize(size) func startBackoff(_ delay: Duration) -> Task<Void, Never> {
        let sleeper = Task { [clock] in _ = try? await clock.sleep(for: delay) }
        backoff = sleeper
        return sleeper
    }

    /// The backoff wait is over.
    @_optimize(size) func backoffEnded() { backoff = nil }

    /// Spec 7.10: a returning path restarts the stream, dropping the backoff wait.
    @_optimize(size) func cutBackoff() { backoff?.cancel() }

    /// Spec 7.10: a returning path gives the stream a fresh budget.
    @_optimize(size) func pathReturned() { budget = RetryBudget() }

    /// Spec 7.2: becoming active resets transient budgets.
    @_optimize(size) func appBecameActive() { budget.appBecameActive() }

    /// Spec 3.12: a `changed` signal fetches at once.
    @_optimize(size) func changedSignal() { lastFetch = clock.uptime }

    /// Spec 3.12: a `ping` fetches once when a minute passed since the last stream-triggered fetch; returns whether
    /// it does.
    @inline(never) @_optimize(size) func pingSignal() -> Bool {
        if let lastFetch, clock.uptime - lastFetch < .seconds(60) { return false }
        lastFetch = clock.uptime
        return true
    }
}
