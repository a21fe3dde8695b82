import Foundation
import ReceptionCore
import ReceptionTesting
import Testing

/// A shared list that tasks append to.
final class Trace: Sendable {
    private let values = Locked<[Int]>([])
    func append(_ value: Int) { values.withLock { $0.append(value) } }
    var all: [Int] { values.withLock { $0 } }
}

@Suite("ManualClockTests")
struct ManualClockTests {
    @Test func sleepersWakeInDeadlineOrderOnlyWhenTheirTimeHasCome() async throws {
        let clock = ManualClock()
        let order = Trace()
        let tasks = [3, 1, 2].map { seconds in
            Task {
                try await clock.sleep(for: .seconds(seconds))
                order.append(seconds)
            }
        }
        await clock.waitForSleepers(atLeast: 3)
        await clock.advance(by: .milliseconds(999))
        #expect(order.all.isEmpty)
        await clock.advance(by: .milliseconds(1001))
        #expect(order.all == [1, 2])
        #expect(clock.sleeperCount == 1)
        #expect(clock.nextWake == .seconds(1))
        await clock.advance(by: .seconds(1))
        for task in tasks { try await task.value }
        #expect(order.all == [1, 2, 3])
    }

    @Test func aLoopThatSleepsRepeatedlyRunsOncePerPeriod() async throws {
        let clock = ManualClock()
        let ticks = Trace()
        let loop = Task {
            while !Task.isCancelled {
                try await clock.sleep(for: .seconds(2))
                ticks.append(1)
            }
        }
        await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .seconds(9))
        #expect(ticks.all.count == 4)
        #expect(clock.uptime == .seconds(9))
        loop.cancel()
        _ = try? await loop.value
    }

    @Test func wallTimeFollowsAdvanceAndCanBeSetOnItsOwn() async {
        let start = Date(timeIntervalSince1970: 1_000_000)
        let clock = ManualClock(now: start)
        await clock.advance(by: .milliseconds(1500))
        #expect(clock.now == start.addingTimeInterval(1.5))
        clock.setWallClock(to: start.addingTimeInterval(-3600))
        #expect(clock.now == start.addingTimeInterval(-3600))
        #expect(clock.uptime == .milliseconds(1500), "setting the wall clock must not move monotonic time")
    }

    @Test func settingTheWallClockBackDoesNotStretchASleep() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(10)) }
        await clock.waitForSleepers(atLeast: 1)
        clock.setWallClock(to: clock.now.addingTimeInterval(-86_400))
        await clock.advance(by: .seconds(10))
        try await sleeper.value
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellationWakesTheSleeperWithCancellationError() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.waitForSleepers(atLeast: 1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func sleepUntilADeadlineThatPassedReturnsAtOnce() async throws {
        let clock = ManualClock()
        await clock.advance(by: .seconds(5))
        try await clock.sleep(until: .seconds(3))
        #expect(clock.sleeperCount == 0)
    }
}
