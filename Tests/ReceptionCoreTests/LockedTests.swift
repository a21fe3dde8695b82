import Foundation
import ReceptionCore
import Testing

/// The package's lock (`Locked`), which host-linked libraries use instead of the iOS 18 standard lock.
@Suite("LockedTests")
struct LockedTests {
    /// Not `Sendable`: it can only be shared because `Locked` takes it as a `sending` value.
    final class Tally {
        var count = 0
        /// How many bodies are inside the lock right now; more than one means the lock let two in.
        var inside = 0
        var overlaps = 0
    }

    /// A read-modify-write spread over a few steps, so two unlocked bodies would interleave and lose updates.
    static func slowIncrement(_ tally: Tally) {
        tally.inside += 1
        if tally.inside > 1 { tally.overlaps += 1 }
        let read = tally.count
        var spin = 0
        for step in 0..<50 { spin &+= step }
        _ = spin
        tally.count = read + 1
        tally.inside -= 1
    }

    @Test func incrementsFromManyTasksAreAllCountedAndNeverOverlap() async {
        let tally = Locked(Tally())
        let tasks = 64, increments = 500
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    for _ in 0..<increments { tally.withLock { Self.slowIncrement($0) } }
                }
            }
        }
        #expect(tally.withLock { $0.count } == tasks * increments)
        #expect(tally.withLock { $0.overlaps } == 0)
    }

    @Test func incrementsFromManyThreadsAreAllCountedAndNeverOverlap() async {
        let tally = Locked(Tally())
        let threads = 8, increments = 5_000
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let finished = Locked(0)
            for _ in 0..<threads {
                Thread.detachNewThread {
                    for _ in 0..<increments { tally.withLock { Self.slowIncrement($0) } }
                    let last = finished.withLock { count -> Bool in
                        count += 1
                        return count == threads
                    }
                    if last { done.resume() }
                }
            }
        }
        #expect(tally.withLock { $0.count } == threads * increments)
        #expect(tally.withLock { $0.overlaps } == 0)
    }

    @Test func withLockReturnsWhatTheBodyReturns() {
        let names = Locked(["a", "b"])
        let joined = names.withLock { names -> String in
            names.append("c")
            return names.joined(separator: ",")
        }
        #expect(joined == "a,b,c")
        #expect(names.withLock { $0.count } == 3)
    }

    struct Refused: Error, Equatable { let reason: String }

    @Test func aThrownErrorReachesTheCallerTypedAndTheLockIsReleased() {
        let value = Locked(1)
        #expect(throws: Refused(reason: "no")) {
            try value.withLock { (value: inout Int) throws(Refused) -> Int in
                value = 2
                throw Refused(reason: "no")
            }
        }
        // The lock is free again (a held lock would hang here) and the change made before the throw stays.
        #expect(value.withLock { $0 } == 2)
        // The error type is kept: this compiles as `throws(Refused)`, so `catch` sees a `Refused` without a cast.
        do throws(Refused) {
            let _: Int = try value.withLock { (_: inout Int) throws(Refused) -> Int in throw Refused(reason: "typed") }
            Issue.record("withLock returned although its body threw")
        } catch {
            #expect(error.reason == "typed")
        }
    }

    /// Calls `onDeinit` when it goes away.
    final class Witness {
        let onDeinit: @Sendable () -> Void
        init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
        deinit { onDeinit() }
    }

    @Test func theStateIsReleasedWithTheLock() {
        let freed = Locked(false)
        do {
            let lock = Locked(Witness { freed.withLock { $0 = true } })
            withExtendedLifetime(lock) {
                lock.withLock { _ in }
                #expect(freed.withLock { $0 } == false)
            }
        }
        #expect(freed.withLock { $0 } == true)
    }
}
