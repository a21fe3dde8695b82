import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

/// Spec 3.9 and 7.11: what is reported read, when, and which responses a moved read generation discards.
@Suite("ReadTests")
struct ReadTests {
    private func reads(_ h: EngineHarness) async -> [String] {
        await h.service.calls.filter { $0.hasPrefix("read") || $0.hasPrefix("unread") }
    }

    @Test("bounded read: throughSeq is the max of the previous one and the highest seq of the GET")
    func boundedThroughSeq() async throws {
        let h = await EngineHarness(conversationExists: true)
        for text in ["one", "two", "three"] { await h.service.agentReply(text) }
        await h.service.setUnreadCount(0)
        await h.service.hold("events")
        await h.open()
        #expect(await eventually { await reads(h) == ["read:3"] })
        // The stream opens and polls: nothing newer, so the previous throughSeq is reported again.
        await h.service.release("events")
        #expect(await eventually { await reads(h) == ["read:3", "read:3"] })
        // A poll answering with an older message (a seq going backwards) never lowers throughSeq.
        await h.service.scriptNextPoll([
            Message(id: "late", seq: 2, sender: .agent, text: "late", createdAt: h.clock.now),
        ])
        await h.service.signal(.changed)
        #expect(await eventually { await reads(h).count == 3 })
        #expect(await reads(h).last == "read:3")
        await h.service.agentReply("four")
        await h.service.setUnreadCount(1)
        await h.service.signal(.changed)
        #expect(await eventually { await reads(h).last == "read:4" })
        #expect(await eventually { await h.snapshot.unreadCount == 1 })
    }

    @Test("legacy read: without boundedRead the client posts read without a body, then asks for the unread count",
          arguments: [nil, false] as [Bool?])
    func legacyRead(bounded: Bool?) async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.agentReply("hello")
        await h.service.setBoundedRead(bounded)
        await h.service.setUnreadCount(4)
        await h.service.hold("events")
        await h.open()
        #expect(await eventually { await reads(h) == ["readLegacy", "unread"] })
        #expect(await eventually { await h.snapshot.unreadCount == 4 })
        #expect(await h.service.count("read:") == 0)
    }

    @Test("no read while the app is inactive; becoming active reads what loaded")
    func noReadWhileInactive() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.agentReply("hello")
        await h.service.hold("events")
        await h.engine.setAppState(.inactive)
        await h.open()
        await h.elapse(seconds: 2)
        #expect(await h.service.count("history") == 0)
        #expect(await reads(h).isEmpty)
        await h.engine.setAppState(.active)
        #expect(await eventually { await reads(h) == ["read:1"] })
    }

    @Test("a history answer that arrives after the chat closed reads nothing and is not reloaded")
    func closedBeforeAnswer() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.agentReply("hello")
        await h.service.hold("history")
        await h.open()
        #expect(await eventually { await h.service.waitingCount("history") == 1 })
        await h.engine.setVisible(false)
        await h.service.release("history")
        await h.elapse(seconds: 2)
        #expect(await reads(h).isEmpty)
        #expect(await h.service.count("history") == 1)
    }

    @Test("cached history shown offline confirms nothing")
    func cachedOfflineReadsNothing() async throws {
        let store = try cachedStore(seqs: 1...3)
        let h = await EngineHarness(store: store, conversationExists: true)
        await h.engine.setNetworkAvailable(false)
        await h.service.fail("history", with: .connectionFailed(), .connectionFailed(), .connectionFailed())
        await h.open()
        await h.elapse(seconds: 3)
        #expect(await h.snapshot.messages.map(\.text) == ["cached 1", "cached 2", "cached 3"])
        #expect(await h.service.count("history") >= 1)
        #expect(await reads(h).isEmpty)
    }

    @Test("spec 7.11: a history answer that returns after a send moved the generation is replaced by one reload")
    func historyDiscardedAfterSend() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.agentReply("hello")
        await h.service.hold("events")
        await h.service.hold("history")
        await h.open()
        #expect(await eventually { await h.service.waitingCount("history") == 1 })
        let a = try #require(await h.send("a"))
        let b = try #require(await h.send("b"))
        #expect(await eventually { await h.message(b)?.status == .sent })
        #expect(await h.message(a)?.status == .sent)
        #expect(await reads(h).isEmpty, "send confirmations never read")
        await h.service.release("history")
        #expect(await eventually { await reads(h).count == 1 })
        await h.elapse(seconds: 1)
        #expect(await h.service.count("history") == 2, "one coalesced reload")
        #expect(await reads(h) == ["read:3"])
    }

    @Test("spec 7.11: a poll answer that returns after the generation moved is replaced by one poll")
    func pollDiscardedAfterSend() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.agentReply("hello")
        await h.open()
        #expect(await eventually { await h.service.openStreams == 1 })
        await h.elapse(seconds: 1)
        let polls = await h.service.count("messages")
        await h.service.hold("messages")
        await h.service.signal(.changed)
        #expect(await eventually { await h.service.waitingCount("messages") == 1 })
        let id = try #require(await h.send("meanwhile"))
        #expect(await eventually { await h.message(id)?.status == .sent })
        await h.service.release("messages")
        #expect(await eventually { await h.service.count("messages") == polls + 2 })
        await h.elapse(seconds: 1)
        #expect(await h.service.count("messages") == polls + 2)
    }

    @Test("spec 3.9: send confirmations never trigger a read")
    func sendNeverReads() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.agentReply("hello")
        await h.open()
        #expect(await eventually { await h.service.openStreams == 1 })
        await h.elapse(seconds: 1)
        let before = await reads(h)
        #expect(!before.isEmpty)
        for text in ["one", "two"] {
            let id = try #require(await h.send(text))
            #expect(await eventually { await h.message(id)?.status == .sent })
        }
        await h.elapse(seconds: 2)
        #expect(await reads(h) == before)
    }
}
