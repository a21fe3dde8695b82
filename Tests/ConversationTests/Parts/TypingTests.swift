import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

/// `Typing` alone (spec 7.13, 3.11), on the manual clock.
@Suite("TypingTests")
struct TypingTests {
    @Test("spec 7.13: true at most once per 3 s; false 1.5 s after the last change, only after a true")
    func reports() async {
        let clock = ManualClock()
        let sent = Recorder<Bool>()
        let timers = Recorder<String>()
        let typing = Typing(clock: clock) { value in sent.record(value) }
        typing.stop(hasConversation: true)
        typing.draftChanged(idle: timers.action("idle"))
        #expect(await eventually { sent.recorded == [true] })
        await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .seconds(1))
        typing.draftChanged(idle: timers.action("idle"))
        await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .seconds(1))
        #expect(timers.recorded.isEmpty, "the change at 1 s re-armed the idle timer to 2.5 s")
        await clock.advance(by: .milliseconds(600))
        #expect(await eventually { timers.recorded == ["idle"] })
        typing.stop(hasConversation: true)
        #expect(await eventually { sent.recorded == [true, false] }, "no false before the first true")
        await clock.advance(by: .seconds(3))
        typing.draftChanged(idle: timers.action("idle"))
        #expect(await eventually { sent.recorded == [true, false, true] })
    }

    @Test("a chat reset forgets the true, so no false goes to the new chat")
    func resetForgetsTrue() async {
        let clock = ManualClock()
        let sent = Recorder<Bool>()
        let typing = Typing(clock: clock) { value in sent.record(value) }
        typing.draftChanged(idle: {})
        #expect(await eventually { sent.recorded == [true] })
        typing.chatReset()
        typing.stop(hasConversation: true)
        await clock.advance(by: .seconds(3))
        typing.draftChanged(idle: {})
        typing.stop(hasConversation: true)
        #expect(await eventually { sent.recorded.count == 3 })
        #expect(sent.recorded == [true, true, false], "no false went out for the true sent before the reset")
    }

    @Test("spec 7.13: the agent's indicator hides 8 s after the last typing signal")
    func agentIndicator() async {
        let clock = ManualClock()
        let timers = Recorder<String>()
        let typing = Typing(clock: clock) { _ in }
        typing.agentStarted(expired: timers.action("expired"))
        #expect(typing.agentTyping)
        await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .seconds(7))
        typing.agentStarted(expired: timers.action("expired"))
        await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .seconds(7))
        #expect(timers.recorded.isEmpty, "the second signal re-armed the 8 s")
        await clock.advance(by: .seconds(1))
        #expect(await eventually { timers.recorded == ["expired"] })
        let hid = typing.agentStopped()
        let again = typing.agentStopped()
        #expect(hid)
        #expect(!again, "already hidden")
    }

    @Test("report errors are ignored and reports stay in order")
    func errorsIgnored() async {
        let clock = ManualClock()
        let sent = Recorder<Bool>()
        let typing = Typing(clock: clock) { value throws(ReceptionError) in
            sent.record(value)
            throw .connectionFailed()
        }
        typing.draftChanged(idle: {})
        typing.stop(hasConversation: true)
        #expect(await eventually { sent.recorded == [true, false] })
    }
}
