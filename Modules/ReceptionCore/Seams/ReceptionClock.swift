import Foundation

/// Time and sleeping, injected so every timing rule (backoff, cooldowns, typing throttles, polling stages) is
/// tested with a manual clock instead of real sleeps.
public protocol ReceptionClock: Sendable {
    /// Wall-clock time, for deadlines that persist across launches (cooldowns). It can jump, also backwards.
    var now: Date { get }
    /// Monotonic time since an arbitrary origin, for intervals inside one process.
    var uptime: Duration { get }
    /// Suspends for `duration` of monotonic time. Throws `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
}

extension ReceptionClock {
    /// Suspends until monotonic `deadline`; returns at once when it has passed.
    @inline(never) @_optimize(size) public func sleep(until deadline: Duration) async throws {
        let remaining = deadline - uptime
        if remaining > .zero { try await sleep(for: remaining) }
    }
}

/// The real clock: `Date()` for the wall and the continuous clock for sleeping.
public struct SystemClock: ReceptionClock {
    private let origin = ContinuousClock.now

    /// Makes a system clock.
    @_optimize(size) public init() {}

    @_optimize(size) public var now: Date { Date() }

    @_optimize(size) public var uptime: Duration { ContinuousClock.now - origin }

    @inline(never) @_optimize(size) public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration, clock: .continuous)
    }
}
