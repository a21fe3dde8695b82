import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

/// `HistorySync` alone (spec 3.6, 3.7, 7.10), on the manual clock.
@Suite("HistorySyncTests")
struct HistorySyncTests {
    @Test("one load at a time; a poll asked for while one runs goes again instead of starting a second")
    func coalescing() {
        let history = HistorySync(clock: ManualClock())
        #expect(history.canLoad)
        history.loadStarted(Task {})
        #expect(!history.canLoad)
        #expect(history.isLoading)
        history.loadEnded()
        let first = history.pollRequested()
        #expect(first)
        history.pollStarted(Task {})
        let second = history.pollRequested()
        #expect(!second)
        #expect(history.pollAgain)
        history.pollRoundStarted()
        #expect(!history.pollAgain)
        history.pollStale()
        #expect(history.pollAgain)
        history.pollEnded()
        let afterEnd = history.pollRequested()
        #expect(afterEnd)
    }

    @Test("a stale answer triggers exactly one reload")
    func oneReload() {
        let history = HistorySync(clock: ManualClock())
        let first = history.reloadNeeded()
        let nested = history.reloadNeeded()
        #expect(first)
        #expect(!nested)
        history.reloadDone()
        let later = history.reloadNeeded()
        #expect(later)
    }

    @Test("a poll during a requests wait runs once when the wait ends")
    func deferredPoll() async {
        let clock = ManualClock()
        let fired = Recorder<String>()
        let history = HistorySync(clock: clock)
        history.deferPoll(for: .seconds(3), fire: fired.action("poll"))
        history.deferPoll(for: .seconds(1), fire: fired.action("second"))
        await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .seconds(2))
        #expect(fired.recorded.isEmpty)
        await clock.advance(by: .seconds(1))
        #expect(await eventually { fired.recorded == ["poll"] })
        history.deferredPollFired()
        history.deferPoll(for: .seconds(1), fire: fired.action("next"))
        history.stop()
        #expect(clock.sleeperCount == 0, "stopping cancels the deferred poll")
    }

    @Test("load failures back off and stop; a server wait is waited out without spending the budget")
    func loadRetry() {
        let history = HistorySync(clock: ManualClock())
        let cooldown = ReceptionError.cooldown(retryAfter: 7, scope: .requests)
        history.loadFailed(cooldown, random: FixedRandomSource())
        #expect(history.retryDelay(after: cooldown) == .seconds(7))
        #expect(history.canLoad)
        var attempts = 0
        while history.canLoad, attempts < 100 {
            history.loadFailed(.connectionFailed(), random: FixedRandomSource())
            attempts += 1
        }
        #expect(attempts == RetryBudget.maximumAttempts)
        #expect(history.retryDelay(after: .connectionFailed()) == nil)
        #expect(!history.canLoad, "the spent budget stops the opening load")
        history.appBecameActive()
        #expect(history.canLoad)
    }
}
