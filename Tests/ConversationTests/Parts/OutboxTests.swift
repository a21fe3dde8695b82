import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

/// `Outbox` alone (spec 7.8.3–7.8.8), on the manual clock.
@Suite("OutboxTests")
struct OutboxTests {
    @Test("spec 7.8.3: the pending indicator shows 400 ms into an attempt, and not after it ended")
    func pendingIndicator() async throws {
        let clock = ManualClock()
        let timers = Recorder<String>()
        let outbox = Outbox(clock: clock)
        outbox.enqueue("c1")
        outbox.attemptStarted("c1", Task {}, pendingShown: timers.action("pending"))
        #expect(outbox.isInFlight("c1"))
        await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .milliseconds(399))
        #expect(timers.recorded.isEmpty)
        await clock.advance(by: .milliseconds(1))
        #expect(await eventually { timers.recorded == ["pending"] })
        let shown = outbox.showPending("c1")
        #expect(shown)
        #expect(outbox["c1"]?.pendingVisible == true)
        outbox.attemptFinished("c1")
        let entry = try #require(outbox["c1"])
        #expect(!entry.inFlight)
        #expect(!entry.pendingVisible)
        let late = outbox.showPending("c1")
        #expect(!late, "no indicator once the attempt ended")
    }

    @Test("upload progress is clamped and never goes backwards; none outside an attempt")
    func progress() {
        let outbox = Outbox(clock: ManualClock())
        let outside = outbox.setProgress("c1", 0.5)
        #expect(!outside)
        outbox.attemptStarted("c1", Task {}, pendingShown: {})
        let moves = [outbox.setProgress("c1", 0.5), outbox.setProgress("c1", 0.4), outbox.setProgress("c1", 7)]
        #expect(moves == [true, false, true])
        #expect(outbox["c1"]?.progress == 1)
    }

    @Test("spec 7.8.4: a failure schedules the next attempt on the uptime clock; a success starts fresh")
    func budgets() async {
        let clock = ManualClock()
        let outbox = Outbox(clock: clock)
        outbox.enqueue("c1")
        await clock.advance(by: .seconds(10))
        outbox.failed("c1", .connectionFailed(), random: FixedRandomSource())
        let due = outbox["c1"]?.nextAttemptAt
        #expect(due.map { $0 > .seconds(10) } == true)
        #expect(outbox["c1"]?.budget?.attempts == 1)
        outbox.attemptDue("c1")
        #expect(outbox["c1"]?.nextAttemptAt == nil)
        outbox.succeeded("c1")
        #expect(outbox["c1"]?.budget?.attempts == 0)
    }

    @Test("spec 7.8.7: recovery seeds a missing budget but never renews one; Retry renews and clears the hold")
    func seedAndRenew() {
        let outbox = Outbox(clock: ManualClock())
        outbox.seedBudget("c1")
        #expect(outbox["c1"]?.budget != nil)
        outbox.failed("c1", .connectionFailed(), random: FixedRandomSource())
        outbox.seedBudget("c1")
        #expect(outbox["c1"]?.budget?.attempts == 1, "an existing budget is kept")
        outbox.hold("c1", by: .messages)
        outbox.renewBudget("c1", clearingHold: false)
        #expect(outbox["c1"]?.heldBy == .messages)
        #expect(outbox["c1"]?.budget?.attempts == 0)
        outbox.renewBudget("c1", clearingHold: true)
        #expect(outbox["c1"]?.heldBy == nil)
    }

    @Test("spec 7.8.8: the release batch keeps its order and ends with its remaining members")
    func releaseBatch() {
        let outbox = Outbox(clock: ManualClock())
        for id in ["a", "b", "c"] { outbox.joinBatch(id) }
        outbox.confirmedByMerge("a")
        #expect(outbox.releaseBatch == ["b", "c"])
        #expect(outbox.inBatch("b"))
        let remaining = outbox.endBatch()
        #expect(remaining == ["b", "c"])
        #expect(outbox.releaseBatch.isEmpty)
    }

    @Test("a reset cancels running attempts and forgets every message")
    func reset() async {
        let clock = ManualClock()
        let outbox = Outbox(clock: clock)
        let attempt = Task { _ = try? await clock.sleep(for: .seconds(60)) }
        outbox.enqueue("c1")
        outbox.attemptStarted("c1", attempt, pendingShown: {})
        outbox.joinBatch("c1")
        outbox.reset()
        await attempt.value
        #expect(attempt.isCancelled)
        #expect(outbox["c1"] == nil)
        #expect(outbox.attempt("c1") == nil)
        #expect(outbox.releaseBatch.isEmpty)
        #expect(clock.sleeperCount == 0, "the pending indicator's timer went too")
    }
}
