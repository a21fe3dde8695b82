import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

/// `ConnectionStatus` alone (spec 7.18), on the manual clock.
@Suite("ConnectionStatusTests")
struct ConnectionStatusTests {
    private static let online = ConnectionStatus.Facts(
        hasStartedChat: true, halted: false, pathAvailable: true, hasConversation: true, watched: true,
        streamConnected: true, streamWaitActive: false)

    private func facts(_ change: (inout ConnectionStatus.Facts) -> Void) -> ConnectionStatus.Facts {
        var facts = Self.online
        change(&facts)
        return facts
    }

    @Test("hidden for an unused chat or a halted session; offline whenever the path is gone")
    func basics() {
        let status = ConnectionStatus(clock: ManualClock())
        status.update(facts { $0.hasStartedChat = false; $0.pathAvailable = false }, connectedEnded: {}, graceEnded: {})
        #expect(status.banner == .hidden)
        status.update(facts { $0.pathAvailable = false }, connectedEnded: {}, graceEnded: {})
        #expect(status.banner == .offline)
        status.update(facts { $0.halted = true }, connectedEnded: {}, graceEnded: {})
        #expect(status.banner == .hidden)
    }

    @Test("back from offline: connecting at once, connected when the stream opens, hidden 3 s later")
    func recovery() async {
        let clock = ManualClock()
        let timers = Recorder<String>()
        let status = ConnectionStatus(clock: clock)
        status.update(facts { $0.pathAvailable = false }, connectedEnded: {}, graceEnded: {})
        status.update(facts { $0.streamConnected = false }, connectedEnded: {}, graceEnded: {})
        #expect(status.banner == .connecting)
        status.update(Self.online, connectedEnded: timers.action("connected"), graceEnded: {})
        #expect(status.banner == .connected)
        await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .milliseconds(2900))
        #expect(timers.recorded.isEmpty)
        await clock.advance(by: .milliseconds(100))
        #expect(await eventually { timers.recorded == ["connected"] })
        let hid = status.connectedTimerFired()
        #expect(hid)
        #expect(status.banner == .hidden)
    }

    @Test("a drop while online shows connecting only after the 1 s grace; a reconnect inside it shows nothing")
    func grace() async {
        let clock = ManualClock()
        let timers = Recorder<String>()
        let status = ConnectionStatus(clock: clock)
        let dropped = facts { $0.streamConnected = false }
        status.update(dropped, connectedEnded: {}, graceEnded: timers.action("grace"))
        #expect(status.banner == .hidden)
        await clock.waitForSleepers(atLeast: 1)
        status.update(Self.online, connectedEnded: {}, graceEnded: {})
        #expect(clock.sleeperCount == 0, "the reconnect cancelled the grace")
        #expect(status.banner == .hidden)

        status.update(dropped, connectedEnded: {}, graceEnded: timers.action("grace"))
        await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .seconds(1))
        #expect(await eventually { timers.recorded == ["grace"] })
        let changed = status.graceFired(dropped)
        #expect(changed)
        #expect(status.banner == .connecting)
    }

    @Test("a stream-relevant wait pauses; closing the chat hides everything but offline")
    func pausedAndClosed() {
        let status = ConnectionStatus(clock: ManualClock())
        status.update(facts { $0.streamConnected = false; $0.streamWaitActive = true }, connectedEnded: {},
                      graceEnded: {})
        #expect(status.banner == .paused)
        status.chatClosed()
        #expect(status.banner == .hidden)
        status.update(facts { $0.pathAvailable = false }, connectedEnded: {}, graceEnded: {})
        status.chatClosed()
        #expect(status.banner == .offline)
    }

    @Test("the grace ending after the stream came back changes nothing")
    func lateGrace() {
        let status = ConnectionStatus(clock: ManualClock())
        let changed = status.graceFired(Self.online)
        #expect(!changed)
        #expect(status.banner == .hidden)
    }
}
