import Foundation
import ReceptionCore

/// A `ReceptionClock` that moves only when a test says so. Sleepers wake, in deadline order, when `advance` passes
/// their deadline; the wall clock can also be set on its own (a user changing the device time).
public final class ManualClock: ReceptionClock {
    private struct Sleeper {
        let deadline: Duration
        var continuation: CheckedContinuation<Void, any Error>?
        var cancelled = false
    }

    private struct State {
        var wall: Date
        var uptime: Duration = .zero
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
    }

    private let state: Locked<State>

    /// A clock whose wall time starts at `now` (default 2026-09-25T10:00:00Z) and whose uptime starts at zero.
    public init(now: Date = Date(timeIntervalSince1970: 1_790_330_400)) {
        state = Locked(State(wall: now))
    }

    public var now: Date { state.withLock { $0.wall } }

    public var uptime: Duration { state.withLock { $0.uptime } }

    /// How many tasks are asleep on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.values.filter { !$0.cancelled }.count } }

    /// The earliest pending wake-up, relative to now, or `nil` when nobody sleeps.
    public var nextWake: Duration? {
        state.withLock { state in
            state.sleepers.values.filter { !$0.cancelled }.map { $0.deadline - state.uptime }.min()
        }
    }

    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        let id: UInt64? = state.withLock { state in
            guard duration > .zero else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.sleepers[id] = Sleeper(deadline: state.uptime + duration)
            return id
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Result<Void, any Error>? = state.withLock { state in
                    guard var sleeper = state.sleepers[id] else { return .success(()) }
                    if sleeper.cancelled {
                        state.sleepers[id] = nil
                        return .failure(CancellationError())
                    }
                    sleeper.continuation = continuation
                    state.sleepers[id] = sleeper
                    return nil
                }
                if let resumeNow { continuation.resume(with: resumeNow) }
            }
        } onCancel: {
            let continuation: CheckedContinuation<Void, any Error>? = state.withLock { state in
                guard var sleeper = state.sleepers[id] else { return nil }
                if let continuation = sleeper.continuation {
                    state.sleepers[id] = nil
                    return continuation
                }
                sleeper.cancelled = true
                state.sleepers[id] = sleeper
                return nil
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Moves wall and monotonic time forward by `duration`, waking every sleeper whose deadline is passed, earliest
    /// first, and letting woken tasks run (and sleep again) before time moves on.
    public func advance(by duration: Duration) async {
        let target = state.withLock { $0.uptime + duration }
        while true {
            let due: (CheckedContinuation<Void, any Error>?, Bool)? = state.withLock { state in
                guard let (id, sleeper) = state.sleepers
                    .filter({ $0.value.deadline <= target && !$0.value.cancelled && $0.value.continuation != nil })
                    .min(by: { $0.value.deadline < $1.value.deadline })
                else { return nil }
                let step = sleeper.deadline - state.uptime
                if step > .zero {
                    state.uptime = sleeper.deadline
                    state.wall = state.wall.addingTimeInterval(step.seconds)
                }
                state.sleepers[id] = nil
                return (sleeper.continuation, true)
            }
            guard let (continuation, _) = due else { break }
            continuation?.resume()
            await Self.settle()
        }
        state.withLock { state in
            let step = target - state.uptime
            if step > .zero {
                state.uptime = target
                state.wall = state.wall.addingTimeInterval(step.seconds)
            }
        }
        await Self.settle()
    }

    /// Sets the wall clock alone (the device time was changed); monotonic time and sleepers are unaffected.
    public func setWallClock(to date: Date) {
        state.withLock { $0.wall = date }
    }

    /// Waits until at least `count` tasks sleep on this clock, so a test can advance time deterministically after
    /// starting work that will sleep.
    public func waitForSleepers(atLeast count: Int) async {
        for _ in 0..<100_000 {
            if sleeperCount >= count { return }
            await Task.yield()
        }
    }

    /// Lets tasks that were just resumed run until they suspend again.
    private static func settle() async {
        for _ in 0..<64 { await Task.yield() }
    }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    package var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
