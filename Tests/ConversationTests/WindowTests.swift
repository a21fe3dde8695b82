import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

/// Spec 3.6 and 7.10: the history window in memory and in the store, and bad input on the way in.
@Suite("WindowTests")
struct WindowTests {
    @Test("spec 3.6: cached confirmed messages missing from the window are dropped from memory and the store")
    func windowDropsFromStore() async throws {
        let store = try cachedStore(seqs: 1...5)
        let h = await EngineHarness(store: store, conversationExists: true)
        let unsent = StoredMessage(
            id: "LOCAL-1", sender: .user, text: "unsent", createdAt: Date(timeIntervalSince1970: 1_790_000_100),
            delivery: [.failed])
        try store.enqueue(unsent)
        let now = h.clock.now
        await h.service.inject(Message(id: "agent-4", seq: 4, sender: .agent, text: "cached 4", createdAt: now))
        await h.service.inject(Message(id: "agent-5", seq: 5, sender: .agent, text: "cached 5", createdAt: now))
        await h.service.hold("events")
        await h.service.hold("send")
        await h.open()
        #expect(await eventually { await h.snapshot.messages.compactMap(\.seq) == [4, 5] })
        #expect(try store.loadWindow().compactMap(\.seq) == [4, 5])
        let relaunched = await h.relaunched()
        let shown = await relaunched.snapshot.messages
        #expect(shown.compactMap(\.seq) == [4, 5])
        #expect(shown.contains { $0.id == "LOCAL-1" }, "unsent messages are never dropped")
    }

    @Test("bad input: duplicate stream events merge each message once, in memory and in the store")
    func duplicateEvents() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.agentReply("one")
        await h.open()
        #expect(await eventually { await h.service.openStreams == 1 })
        await h.service.agentReply("two")
        for _ in 0..<4 { await h.service.signal(.changed) }
        await h.service.signal(.ping)
        await h.service.signal(.ping)
        #expect(await eventually { await h.snapshot.messages.count == 2 })
        await h.elapse(seconds: 2)
        #expect(await h.snapshot.messages.map(\.text) == ["one", "two"])
        #expect(try h.store.loadWindow().map(\.text) == ["one", "two"])
    }

    @Test("bad input: a page that goes back below the cursor is merged in order and never moves the cursor back")
    func seqGoingBackwards() async throws {
        let h = await EngineHarness(conversationExists: true)
        for text in ["one", "two", "three"] { await h.service.agentReply(text) }
        await h.open()
        #expect(await eventually { await h.service.openStreams == 1 })
        #expect(await eventually { await h.snapshot.messages.count == 3 })
        let now = h.clock.now
        await h.service.scriptNextPoll([
            Message(id: "agent-2", seq: 2, sender: .agent, text: "two", createdAt: now),
            Message(id: "odd", seq: 0, sender: .agent, text: "malformed", createdAt: now),
            Message(id: "", seq: 9, sender: .agent, text: "no id", createdAt: now),
        ])
        await h.service.signal(.changed)
        await h.elapse(seconds: 1)
        #expect(await h.snapshot.messages.map(\.text) == ["one", "two", "three"])
        #expect(try h.store.sessionState().cursor == 3)
        let id = try #require(await h.send("still works"))
        #expect(await eventually { await h.message(id)?.status == .sent })
    }

    @Test("bad input: storage_full while receiving shows the messages and a notice, and keeps what was stored")
    func fullDiskWhileReceiving() async throws {
        let store = try cachedStore(seqs: 1...2)
        let h = await EngineHarness(store: store, conversationExists: true)
        for text in ["cached 1", "cached 2"] { await h.service.agentReply(text) }
        await h.service.agentReply("new while full")
        store.writeFailure = .storageFull
        await h.open()
        #expect(await eventually { await h.snapshot.messages.count == 3 })
        #expect(await h.snapshot.composer.notices.contains(.storageProblem))
        store.writeFailure = nil
        #expect(try store.loadWindow().map(\.text) == ["cached 1", "cached 2"])
        let id = try #require(await h.send("sent anyway"))
        #expect(await eventually { await h.message(id)?.status == .sent })
    }
}
