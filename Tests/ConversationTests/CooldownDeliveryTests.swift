import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

func rateLimited(_ seconds: Int, _ scope: RetryScope = .messages) -> ReceptionError {
    ReceptionError(code: "rate_limited", status: 429, retryAfter: seconds, retryScope: scope)
}

@Suite("CooldownDeliveryTests")
struct CooldownDeliveryTests {
    @Test("a short messages wait resends queued messages once each, oldest first, same client IDs")
    func shortWaitResendsInOrder() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.open()
        await h.service.hold("send")
        let a = try #require(await h.send("A"))
        let b = try #require(await h.send("B"))
        #expect(await eventually { await h.service.waitingCount("send") == 2 })
        await h.service.fail("send", with: rateLimited(30), rateLimited(30))
        await h.service.release("send")
        #expect(await eventually { await h.message(b)?.status == .notDelivered })
        #expect(await h.message(a)?.retry == .automaticResend(secondsLeft: 30))
        #expect(await h.snapshot.composer.canSend == false)
        await h.elapse(seconds: 30)
        #expect(await eventually { await h.message(b)?.status == .sent })
        #expect(await h.message(a)?.status == .sent)
        let sends = await h.service.calls.filter { $0.hasPrefix("send") }
        // The two first attempts run side by side (their arrival order is the scheduler's); the resends are the
        // driver's, strictly serial and oldest first (spec 7.8.5).
        #expect(Set(sends.prefix(2)) == ["send:\(a)", "send:\(b)"])
        #expect(Array(sends.dropFirst(2)) == ["send:\(a)", "send:\(b)"])
        #expect(await h.service.server.map(\.clientId) == [a, b])
    }

    @Test("a long wait needs a manual retry; Retry is refused while it lasts; the manual flag persists")
    func longWaitIsManual() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.open()
        await h.service.fail("send", with: rateLimited(600))
        let a = try #require(await h.send("A"))
        #expect(await eventually { await h.message(a)?.status == .notDelivered })
        #expect(await h.message(a)?.retry == .disabledFor(secondsLeft: 600))
        #expect(try h.store.unsentMessages().first?.delivery.contains(.awaitsManualRetry) == true)
        #expect(await h.engine.retry(a) == false)
        await h.elapse(seconds: 601)
        await settle()
        #expect(await h.service.count("send") == 1, "a long wait is never resent by timer")
        #expect(await h.message(a)?.retry == .available)
        #expect(await h.engine.retry(a))
        #expect(await eventually { await h.message(a)?.status == .sent })
    }

    @Test("Cancel keeps the message until a retry and also holds later messages")
    func cancelHoldsLater() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.open()
        await h.service.hold("send")
        let a = try #require(await h.send("A"))
        let b = try #require(await h.send("B"))
        #expect(await eventually { await h.service.waitingCount("send") == 2 })
        await h.service.fail("send", with: rateLimited(20), rateLimited(20))
        await h.service.release("send")
        #expect(await eventually { await h.message(b)?.status == .notDelivered })
        await h.engine.cancelAutomaticResend(a)
        await h.elapse(seconds: 25)
        await settle()
        #expect(await h.service.count("send") == 2)
        #expect(await h.message(a)?.retry == .available)
        #expect(await h.message(b)?.retry == .available)
    }

    @Test("closing the chat turns a short wait manual")
    func closingTurnsManual() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.open()
        await h.service.fail("send", with: rateLimited(10))
        let a = try #require(await h.send("A"))
        #expect(await eventually { await h.message(a)?.status == .notDelivered })
        await h.engine.setVisible(false)
        await h.elapse(seconds: 11)
        await h.open()
        await h.elapse(seconds: 5)
        await settle()
        #expect(await h.service.count("send") == 1)
        #expect(await h.message(a)?.status == .notDelivered)
    }

    @Test("an uploads wait disables photos but lets text through; its notice says so")
    func uploadsWait() async throws {
        let h = await EngineHarness(conversationExists: true)
        h.cooldowns.record(scope: .uploads, seconds: 600, now: h.clock.now)
        await h.engine.setDraft("text works")
        let composer = await h.snapshot.composer
        #expect(composer.canAddPhotos == false)
        #expect(composer.canSend)
        #expect(composer.notices.contains(.cooldown(CooldownNotice(scope: .uploads, secondsLeft: 600))))
        #expect(CooldownNotice(scope: .uploads, secondsLeft: 600).text
            == "Photos can be sent again in 10 minutes, text still works.")
        let id = try #require(await h.engine.send())
        #expect(await eventually { await h.message(id)?.status == .sent })
    }

    @Test("a known messages wait spends no upload or device-update requests")
    func admissionBeforeNetwork() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.fail("send", with: rateLimited(600))
        await h.engine.addPhoto(Data([1]))
        let a = try #require(await h.engine.send())
        #expect(await eventually { await h.message(a)?.status == .notDelivered })
        let before = await h.service.calls.count
        await h.elapse(seconds: 1)
        #expect(await h.engine.retry(a) == false)
        #expect(await h.service.calls.count == before)
    }

    @Test("a longer wait arriving while a short one is waited out turns the resend manual")
    func longerWaitTurnsManual() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.open()
        await h.service.fail("send", with: rateLimited(20))
        let a = try #require(await h.send("A"))
        #expect(await eventually { await h.message(a)?.retry == .automaticResend(secondsLeft: 20) })
        h.cooldowns.record(scope: .requests, seconds: 900, now: h.clock.now)
        await h.elapse(seconds: 21)
        #expect(await eventually {
            (try? h.store.unsentMessages().first?.delivery.contains(.awaitsManualRetry)) == true
        })
        #expect(await h.service.count("send") == 1)
    }

    @Test("spec 6.3.5: relative times round up in the largest unit", arguments: [
        (0.2, "in 1 second"), (59.5, "in 1 minute"), (61, "in 2 minutes"), (3600, "in 1 hour"), (3601, "in 2 hours"),
    ])
    func relativeTime(seconds: Double, text: String) {
        #expect(CooldownNotice.relativeTime(seconds: seconds) == text)
    }

    @Test("notice wording per scope")
    func wording() {
        #expect(CooldownNotice(scope: .messages, secondsLeft: 125).text == "Message limit reached, send again in 3 minutes.")
        #expect(CooldownNotice(scope: .requests, secondsLeft: 5).text == "Too many attempts, try again in 5 seconds.")
        #expect(CooldownNotice(scope: .session, secondsLeft: 1).text == "Can't connect right now, try again in 1 second.")
    }
}
