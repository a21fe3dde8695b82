import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

@Suite("ResendDriverTests")
struct ResendDriverTests {
    @Test("spec 7.8.5: transient failures are retried with backoff while the chat is watched")
    func backoff() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.open()
        await h.service.fail("send", with: .connectionFailed(), .connectionFailed())
        let a = try #require(await h.send("A"))
                #expect(await eventually { await h.message(a)?.status == .notDelivered })
        await h.elapse(seconds: 2)
        #expect(await eventually { await h.service.count("send") == 2 })
        await h.elapse(seconds: 4)
        #expect(await eventually { await h.message(a)?.status == .sent })
        #expect(await h.service.serverCount(clientId: a) == 1)
    }

    @Test("the budget stops after 8 counted attempts; Retry starts a fresh one")
    func budgetStops() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.open()
        for _ in 0..<9 { await h.service.fail("send", with: ReceptionError(code: "http_error", status: 503)) }
        let a = try #require(await h.send("A"))
        for _ in 0..<12 { await h.elapse(seconds: 75) }
        await settle()
        #expect(await h.service.count("send") == 8)
        #expect(await h.message(a)?.retry == .available)
        #expect(await h.engine.retry(a))
        #expect(await eventually { await h.service.count("send") == 9 })
    }

    @Test("a permanent failure is not retried automatically")
    func permanent() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.open()
        await h.service.fail("send", with: ReceptionError(code: "invalid_request", status: 400))
        let a = try #require(await h.send("A"))
        #expect(await eventually { await h.message(a)?.status == .notDelivered })
        await h.elapse(seconds: 120)
        await settle()
        #expect(await h.service.count("send") == 1)
        #expect(try h.store.unsentMessages().first?.delivery == [.failed])
    }

    @Test("a manual Retry never duplicates an automatic resend already in flight")
    func retryDoesNotDuplicate() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.open()
        await h.service.fail("send", with: .connectionFailed())
        let a = try #require(await h.send("A"))
        #expect(await eventually { await h.message(a)?.status == .notDelivered })
        await h.service.hold("send")
        await h.elapse(seconds: 2)
        #expect(await eventually { await h.service.waitingCount("send") == 1 })
        #expect(await h.engine.retry(a) == false)
        await h.service.release("send")
        #expect(await eventually { await h.message(a)?.status == .sent })
        #expect(await h.service.count("send") == 2)
        #expect(await h.service.serverCount(clientId: a) == 1)
    }

    @Test("no automatic resend while the chat is hidden or the app inactive")
    func pausedWhenNotWatched() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.fail("send", with: .connectionFailed())
        let a = try #require(await h.send("A"))
        #expect(await eventually { await h.message(a)?.status == .notDelivered })
        await h.elapse(seconds: 10)
        await settle()
        #expect(await h.service.count("send") == 1)
        await h.open()
        await h.engine.setAppState(.background)
        await h.elapse(seconds: 10)
        await settle()
        #expect(await h.service.count("send") == 1)
        await h.engine.setAppState(.active)
        await h.elapse(seconds: 2)
        #expect(await eventually { await h.message(a)?.status == .sent })
    }
}
