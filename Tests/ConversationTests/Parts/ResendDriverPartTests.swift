import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

/// `ResendDriver` alone (spec 7.8.5): its sleep and its parking, woken early or by the manual clock.
@Suite("ResendDriverPartTests")
struct ResendDriverPartTests {
    /// Holds the driver the way the engine does: one isolation domain owns it.
    private actor Owner {
        var driver: ResendDriver
        var resumed = 0

        init(clock: ManualClock) { driver = ResendDriver(clock: clock) }

        func park() async {
            await withCheckedContinuation { continuation in driver.park(continuation) }
            resumed += 1
        }

        func sleep(_ duration: Duration) async {
            let task = driver.sleep(for: duration)
            await task.value
            driver.sleepEnded(task)
            resumed += 1
        }

        var isParked: Bool { driver.isParked }
        func wake() { driver.wake() }
        func stop() { driver.stop() }
    }

    @Test("a sleep ends on the clock")
    func sleepEndsOnTheClock() async {
        let clock = ManualClock()
        let owner = Owner(clock: clock)
        let sleeping = Task { await owner.sleep(.seconds(30)) }
        await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .seconds(29))
        #expect(await owner.resumed == 0)
        await clock.advance(by: .seconds(1))
        await sleeping.value
        #expect(await owner.resumed == 1)
    }

    @Test("wake cuts a sleep short and resumes a parked loop")
    func wake() async {
        let clock = ManualClock()
        let owner = Owner(clock: clock)
        let sleeping = Task { await owner.sleep(.seconds(30)) }
        await clock.waitForSleepers(atLeast: 1)
        await owner.wake()
        await sleeping.value
        #expect(clock.uptime == .zero)
        let parked = Task { await owner.park() }
        #expect(await eventually { await owner.isParked })
        #expect(await owner.resumed == 1, "a parked loop stays parked until woken")
        await owner.wake()
        await parked.value
        #expect(await owner.resumed == 2)
    }

    @Test("stop cancels the loop and forgets it")
    func stop() async {
        let driver = ResendDriver(clock: ManualClock())
        let loop = loopUntilCancelled()
        driver.started(loop)
        #expect(driver.isRunning)
        driver.stop()
        #expect(!driver.isRunning)
        await loop.value
        #expect(loop.isCancelled)
    }
}
