import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

@Suite("LimitReleaseTests")
struct LimitReleaseTests {
    @Test("a real 429 marks the message for release; timer expiry alone does not resend; the next opening does")
    func releaseOnOpening() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.open()
        await h.service.fail("send", with: rateLimited(300))
        let a = try #require(await h.send("A"))
        #expect(await eventually { await h.message(a)?.status == .notDelivered })
        let flags = try #require(try h.store.unsentMessages().first?.delivery)
        #expect(flags.contains(.retryAfterLimitRelease))
        #expect(flags.contains(.awaitsManualRetry))
        await h.elapse(seconds: 301)
        await settle()
        #expect(await h.service.count("send") == 1)
        await h.engine.setVisible(false)
        await h.open()
        #expect(await eventually { await h.message(a)?.status == .sent })
        #expect(await h.service.count("send") == 2)
    }

    @Test("a local cooldown rejection is not a release candidate")
    func localGateIsNotRelease() async throws {
        let h = await EngineHarness(conversationExists: true)
        h.cooldowns.record(scope: .requests, seconds: 300, now: h.clock.now)
        await h.service.fail("send", with: .connectionFailed())
        await h.engine.setDraft("A")
        #expect(await h.engine.send() == nil, "new sends are refused during the wait")
    }

    @Test("spec 6.3.6: the opening load rechecks a long wait once per minute and a 0 releases it")
    func recheck() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.open()
        await h.service.fail("send", with: rateLimited(3600))
        let a = try #require(await h.send("A"))
        #expect(await eventually { await h.message(a)?.status == .notDelivered })
        await h.service.setLimits(LimitValues(messages: 0))
        await h.elapse(seconds: 61)
        await h.engine.setVisible(false)
        await h.open()
        #expect(await eventually { await h.message(a)?.status == .sent })
        #expect(await h.service.count("history:limits") == 1)
        await h.engine.setVisible(false)
        await h.open()
        await settle()
        #expect(await h.service.count("history:limits") == 1)
    }

    @Test("the release never overrides a blocked device")
    func blockedWins() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.open()
        await h.service.fail("send", with: rateLimited(120))
        let a = try #require(await h.send("A"))
        #expect(await eventually { await h.message(a)?.status == .notDelivered })
        await h.engine.haltChanged(.blocked)
        await h.elapse(seconds: 121)
        await h.engine.setVisible(false)
        await h.open()
        await settle()
        #expect(await h.service.count("send") == 1)
        #expect(await h.snapshot.composer.availability == .sendingDisabled)
    }
}
