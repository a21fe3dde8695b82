import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

/// `LiveStream` alone (spec 3.12, 7.10), on the manual clock.
@Suite("LiveStreamTests")
struct LiveStreamTests {
    @Test("spec 3.12: a ping fetches only when a minute passed since the last stream-triggered fetch")
    func pingThrottle() async {
        let clock = ManualClock()
        let stream = LiveStream(clock: clock)
        stream.opened()
        #expect(stream.connected)
        let early = stream.pingSignal()
        #expect(!early, "the open itself fetched")
        await clock.advance(by: .seconds(59))
        stream.changedSignal()
        await clock.advance(by: .seconds(59))
        let stillEarly = stream.pingSignal()
        #expect(!stillEarly, "the changed signal at 59 s counts as a fetch")
        await clock.advance(by: .seconds(1))
        let due = stream.pingSignal()
        #expect(due)
    }

    @Test("failures back off with the budget until it is spent; a returning path gives a fresh one")
    func backoff() {
        let stream = LiveStream(clock: ManualClock())
        var delays: [Duration] = []
        while let delay = stream.failed(.connectionFailed(), random: FixedRandomSource()) {
            delays.append(delay)
            if delays.count > 100 { break }
        }
        #expect(!delays.isEmpty)
        #expect(delays.count <= 100, "the budget stops")
        #expect(stream.budgetStopped)
        stream.pathReturned()
        #expect(!stream.budgetStopped)
    }

    @Test("a backoff wait ends on the clock, or early when the path returns")
    func backoffWait() async {
        let clock = ManualClock()
        let stream = LiveStream(clock: clock)
        let wait = stream.startBackoff(.seconds(5))
        await clock.waitForSleepers(atLeast: 1)
        stream.cutBackoff()
        await wait.value
        #expect(clock.uptime == .zero, "ended without time passing")
        stream.backoffEnded()
        let timed = stream.startBackoff(.seconds(5))
        await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .seconds(5))
        await timed.value
        #expect(clock.uptime == .seconds(5))
    }

    @Test("stop reports whether the stream was open, cancels the loop and forgets it")
    func stop() async {
        let stream = LiveStream(clock: ManualClock())
        let loop = loopUntilCancelled()
        stream.started(loop)
        #expect(stream.isRunning)
        stream.opened()
        let wasOpen = stream.stop()
        #expect(wasOpen)
        #expect(!stream.isRunning)
        await loop.value
        #expect(loop.isCancelled)
        let again = stream.stop()
        #expect(!again)
    }
}
