import ReceptionCore

/// The one automatic resend driver of spec 7.8.5: the running loop, the sleep it waits out before a due attempt,
/// and the continuation it parks on while an earlier message is in flight. `wake()` cuts a sleep short and
/// resumes a parked loop so it re-evaluates; which message goes next is the engine's decision.
final class ResendDriver {
    private let clock: any ReceptionClock
    private var loop: Task<Void, Never>?
    private var sleeper: Task<Void, Never>?
    private var parked: CheckedContinuation<Void, Never>?

    @_optimize(size) init(clock: any ReceptionClock) { self.clock = clock }

    /// A driver loop runs (exactly one may).
    @_optimize(size) var isRunning: Bool { loop != nil }

    /// The loop is parked, waiting for `wake()`.
    @_optimize(size) var isParked: Bool { parked != nil }

    /// The engine started `task` as the driver loop.
    @_optimize(size) func started(_ task: Task<Void, Never>) { loop = task }

    /// The loop ended by itself.
    @_optimize(size) func finished() { loop = nil }

    /// Parks the loop until `wake()` (exactly one loop runs, so at most one is parked).
    @_optimize(size) func park(_ continuation: CheckedContinuation<Void, Never>) { parked = continuation }

    /// Starts the loop's sleep of `duration`; `wake()` ends it early.
    @inline(never) @_optimize(size) func sleep(for duration: Duration) -> Task<Void, Never> {
        let task = Task { [clock] in _ = try? await clock.sleep(for: duration) }
        sleeper = task
        return task
    }

    /// The sleep `task` ended (a newer sleep is kept).
    @_optimize(size) func sleepEnded(_ task: Task<Void, Never>) { if sleeper == task { sleeper = nil } }

    /// Re-evaluate now: the sleep is cut short and a parked loop resumes.
    @inline(never) @_optimize(size) func wake() {
        sleeper?.cancel()
        sleeper = nil
        let continuation = parked
        parked = nil
        continuation?.resume()
    }

    /// Cancels the loop and wakes it so it ends (a chat reset, the end of the session).
    @inline(never) @_optimize(size) func stop() {
        loop?.cancel()
        loop = nil
        wake()
    }
}
