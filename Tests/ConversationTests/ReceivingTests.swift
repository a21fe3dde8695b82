import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

@Suite("ReceivingTests")
struct ReceivingTests {
    @Test("a changed signal fetches newer messages; an agent message hides the typing indicator")
    func streamMerge() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.open()
        #expect(await eventually { await h.service.openStreams == 1 })
        await h.service.signal(.typing)
        #expect(await eventually { await h.snapshot.agentTyping })
        await h.service.agentReply("hello")
        await h.service.signal(.changed)
        #expect(await eventually { await h.snapshot.messages.contains { $0.text == "hello" } })
        #expect(await h.snapshot.agentTyping == false)
    }

    @Test("spec 7.13: agent typing hides itself after 8 s")
    func typingAutoHide() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.open()
        #expect(await eventually { await h.service.openStreams == 1 })
        await h.service.signal(.typing)
        #expect(await eventually { await h.snapshot.agentTyping })
        await h.elapse(seconds: 7.5)
        #expect(await h.snapshot.agentTyping)
        await h.elapse(seconds: 1)
        #expect(await h.snapshot.agentTyping == false)
    }

    @Test("bad input: malformed messages, a seq going backwards and duplicates leave one copy each")
    func badInput() async throws {
        let h = await EngineHarness(conversationExists: true)
        let now = h.clock.now
        await h.service.inject(Message(id: "m5", seq: 5, sender: .agent, text: "five", createdAt: now))
        await h.service.inject(Message(id: "bad", seq: 0, sender: .agent, text: "malformed", createdAt: now))
        await h.service.inject(Message(id: "m3", seq: 3, sender: .agent, text: "three", createdAt: now))
        await h.service.inject(Message(id: "m5", seq: 5, sender: .agent, text: "five", createdAt: now))
        await h.open()
        #expect(await eventually { await h.snapshot.messages.count == 2 })
        await h.service.signal(.changed)
        await settle()
        let texts = await h.snapshot.messages.map(\.text)
        #expect(texts == ["three", "five"])
        let id = try #require(await h.send("still works"))
        #expect(await eventually { await h.message(id)?.status == .sent })
    }

    @Test("spec 7.13: typing true at most every 3 s, false after 1.5 s idle")
    func typingOut() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.open()
        await settle()
        await h.engine.setDraft("h")
        await h.engine.setDraft("he")
        await settle()
        #expect(await h.service.count("typing:true") == 1)
        await h.elapse(seconds: 1.5)
        #expect(await eventually { await h.service.count("typing:false") == 1 })
    }
}

@Suite("CardButtonTests")
struct CardButtonTests {
    @Test("a card's button says the agent's label, else the default of its kind; a review without a link has none")
    func cardButtonTitles() async throws {
        let h = await EngineHarness(conversationExists: true)
        let now = Date()
        await h.service.inject(Message(id: "r1", seq: 1, sender: .agent, text: "Enjoying it?", createdAt: now,
                                       kind: .review, reviewUrl: "https://apps.apple.com/app/id1?action=write-review"))
        await h.service.inject(Message(id: "r2", seq: 2, sender: .agent, text: "", createdAt: now, kind: .review,
                                       reviewUrl: "https://apps.apple.com/app/id1", buttonLabel: "Leave a review"))
        await h.service.inject(Message(id: "r3", seq: 3, sender: .agent, text: "no link", createdAt: now, kind: .review))
        await h.service.inject(Message(id: "p1", seq: 4, sender: .agent, text: "", createdAt: now, kind: .paywall,
                                       paywallId: "pro", buttonLabel: "  "))
        await h.service.inject(Message(id: "t1", seq: 5, sender: .agent, text: "plain", createdAt: now))
        await h.open()
        #expect(await eventually { await h.snapshot.messages.count == 5 })
        let titles = await h.snapshot.messages.map(\.buttonTitle)
        #expect(titles == ["Rate on the App Store", "Leave a review", nil, "View offer", nil])
    }
}
