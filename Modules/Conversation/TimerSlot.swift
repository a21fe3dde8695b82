import ReceptionCore

/// One timer a part owns: arming replaces the running one, and the action runs only when the clock's sleep ended
/// without being cancelled. The action hops back to the engine, which applies the part's transition.
struct TimerSlot: Sendable {
    private var task: Task<Void, Never>?

    /// A timer is running (armed and neither fired nor cancelled).
    @_optimize(size) var isArmed: Bool { task != nil }

    /// Starts the timer, cancelling the one that ran.
    @inline(never) @_optimize(size) mutating func arm(
        after delay: Duration, on clock: any ReceptionClock, _ action: @escaping @Sendable () async -> Void
    ) {
        task?.cancel()
        task = Task {
            guard (try? await clock.sleep(for: delay)) != nil else { return }
            await action()
        }
    }

    /// Stops the timer; its action does not run.
    @_optimize(size) mutating func cancel() {
        task?.cancel()
        task = nil
    }

    /// The timer fired: it is forgotten without being cancelled.
    @_optimize(size) mutating func fired() { task = nil }
}
