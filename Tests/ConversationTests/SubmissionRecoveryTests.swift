import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

@Suite("SubmissionRecoveryTests")
struct SubmissionRecoveryTests {
    @Test("spec 7.8.7: a message found sending at launch becomes failed and recoverable")
    func rescue() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.hold("send")
        let a = try #require(await h.send("A"))
        #expect(await eventually { await h.service.waitingCount("send") == 1 })
        let relaunched = await h.relaunched()
        #expect(await relaunched.message(a)?.status == .notDelivered)
        #expect(try relaunched.store.unsentMessages().first?.delivery == [.failed, .retryAfterTransientFailure])
    }

    @Test("after a transport failure and restart the client ID is resent once; the draft is untouched")
    func resendAfterRestart() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.fail("send", with: .connectionFailed())
        let a = try #require(await h.send("A"))
        #expect(await eventually { await h.message(a)?.status == .notDelivered })
        await h.engine.setDraft("unsent draft")
        let r = await h.relaunched()
        #expect(await r.snapshot.composer.text == "unsent draft")
        await r.open()
        #expect(await eventually { await r.message(a)?.status == .sent })
        #expect(await h.service.calls.filter { $0 == "send:\(a)" }.count == 2)
        #expect(await h.service.serverCount(clientId: a) == 1)
        #expect(await r.snapshot.composer.text == "unsent draft")
        #expect(await h.service.server.count == 1, "the draft is never sent automatically")
    }

    @Test("a lost response is merged from history before any retry")
    func lostResponseMerged() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.dropNextSends(1)
        let a = try #require(await h.send("A"))
        #expect(await eventually { await h.message(a)?.status == .notDelivered })
        let r = await h.relaunched()
        await r.open()
        #expect(await eventually { await r.message(a)?.status == .sent })
        await settle()
        #expect(await h.service.calls.filter { $0 == "send:\(a)" }.count == 1)
        #expect(try r.store.loadWindow().map(\.id) == [a])
    }

    @Test("permanent and cancelled failures never resume; Cancel survives restart")
    func permanentAndCancelled() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.fail("send", with: ReceptionError(code: "invalid_request", status: 400), .connectionFailed())
        let a = try #require(await h.send("A"))
        #expect(await eventually { await h.message(a)?.status == .notDelivered })
        let b = try #require(await h.send("B"))
        #expect(await eventually { await h.message(b)?.status == .notDelivered })
        await h.engine.cancelAutomaticResend(b)
        let r = await h.relaunched()
        await r.open()
        await r.elapse(seconds: 10)
        await settle()
        #expect(await h.service.count("send") == 2)
        #expect(try r.store.unsentMessages().first { $0.id == b }?.delivery.contains(.awaitsManualRetry) == true)
    }

    @Test("a first-ever offline submission registers after restart without a history GET")
    func firstOfflineSubmission() async throws {
        let h = await EngineHarness(registered: false, startedChat: false)
        await h.service.fail("updateDevice", with: .connectionFailed())
        let a = try #require(await h.send("A"))
        #expect(await eventually { await h.message(a)?.status == .notDelivered })
        let r = await h.relaunched()
        await r.open()
        #expect(await eventually { await r.message(a)?.status == .sent })
        let calls = await h.service.calls
        #expect(!calls.contains { $0.hasPrefix("history") })
        #expect(calls.filter { $0 == "updateDevice:register" }.count == 2)
    }

    @Test("reopening does not renew a spent budget")
    func spentBudgetStaysSpent() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.open()
        for _ in 0..<10 { await h.service.fail("send", with: .connectionFailed()) }
        let a = try #require(await h.send("A"))
        for _ in 0..<12 { await h.elapse(seconds: 75) }
        await settle()
        #expect(await h.service.count("send") == 8)
        await h.engine.setVisible(false)
        await h.open()
        await h.elapse(seconds: 75)
        await settle()
        #expect(await h.service.count("send") == 8)
        #expect(await h.message(a)?.status == .notDelivered)
    }

    @Test("blocked and long cooldowns prevent recovery")
    func blockedPreventsRecovery() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.fail("send", with: .connectionFailed())
        let a = try #require(await h.send("A"))
        #expect(await eventually { await h.message(a)?.status == .notDelivered })
        h.cooldowns.record(scope: .messages, seconds: 3600, now: h.clock.now)
        let r = await h.relaunched()
        await r.open()
        await r.elapse(seconds: 30)
        await settle()
        #expect(await h.service.count("send") == 1)
    }
}
