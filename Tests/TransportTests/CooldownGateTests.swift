import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
import Transport

/// Spec 6.1, 6.3.2, 6.4.
@Suite("CooldownGateTests")
struct CooldownGateTests {
    let sent = #"{"conversation":{"id":"c1","status":"OPEN","unreadForUser":0,"createdAt":"2026-09-25T10:00:00Z"},"message":{"id":"m1","seq":1,"sender":"USER","text":"hi","attachments":[],"createdAt":"2026-09-25T10:00:00Z"}}"#

    @Test func aMessagesWaitHoldsSendsButNotOtherRoutes() async throws {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("POST /v1/conversation/messages", .error(429, code: "rate_limited", retryAfter: "30"))
        h.transport.on("GET /v1/conversation/unread", .json(200, unreadBody))
        await #expect(throws: ReceptionError(code: "rate_limited", status: 429)) {
            try await h.client.send(clientId: "C1", text: "hi", attachmentIds: [])
        }
        do {
            _ = try await h.client.send(clientId: "C2", text: "again", attachmentIds: [])
            Issue.record("a held send went out")
        } catch {
            #expect(error.code == "cooldown" && error.retryScope == .messages && error.retryAfter == 30)
        }
        #expect(h.transport.requests(to: "POST /v1/conversation/messages").count == 1)
        _ = try await h.client.unread()
        await h.clock.advance(by: .seconds(30))
        h.transport.on("POST /v1/conversation/messages", .json(201, sent))
        _ = try await h.client.send(clientId: "C2", text: "again", attachmentIds: [])
    }

    @Test func anUploadsWaitLetsTextThroughButHoldsPhotoMessages() async throws {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("POST /v1/uploads", .error(429, code: "rate_limited", retryAfter: "600"))
        h.transport.on("POST /v1/conversation/messages", .json(201, sent))
        await #expect(throws: ReceptionError(code: "rate_limited", status: 429)) {
            try await h.client.reserveUpload(jpeg: Data([1, 2, 3]), width: 1, height: 1, clientId: "C1", index: 0)
        }
        let wait = try #require(h.cooldowns.wait(for: [.uploads], now: h.clock.now))
        #expect(!wait.automatic, "a 600 s wait needs a manual retry")
        _ = try await h.client.send(clientId: "C1", text: "text still works", attachmentIds: [])
        await #expect(throws: ReceptionError(code: "cooldown")) {
            try await h.client.send(clientId: "C2", text: "", attachmentIds: ["att1"])
        }
        #expect(h.transport.requests(to: "POST /v1/conversation/messages").count == 1)
    }

    @Test func aNamedRequestsScopeDuringAnUploadHoldsEverythingButDeletion() async throws {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("POST /v1/uploads", .error(429, code: "rate_limited", retryScope: "requests", retryAfter: "20"))
        h.transport.on("DELETE /v1/devices/me", .json(200, "{}"))
        _ = try? await h.client.reserveUpload(jpeg: Data([1]), width: 1, height: 1, clientId: "C", index: 0)
        #expect(h.cooldowns.wait(for: [.uploads], now: h.clock.now) == nil, "a requests limit is not an uploads wait")
        await #expect(throws: ReceptionError(code: "cooldown")) { try await h.client.unread() }
        await #expect(throws: ReceptionError(code: "cooldown")) {
            try await h.client.send(clientId: "C", text: "t", attachmentIds: [])
        }
        #expect(try await h.client.deleteDevice())
        #expect(h.transport.requests(to: "DELETE /v1/devices/me").first?.json?["sessionSecret"] as? String == "ss_secret")
    }

    @Test func aWaitArrivingWhileTheRequestWaitedForItsTokenStillHoldsIt() async throws {
        let h = Harness()
        h.scriptRefresh()
        h.transport.hold("POST /v1/devices/me/token")
        h.transport.on("GET /v1/conversation/unread", .json(200, unreadBody))
        let request = Task { try await h.client.unread() }
        while h.transport.heldCount("POST /v1/devices/me/token") < 1 { await Task.yield() }
        h.cooldowns.record(scope: .requests, seconds: 10, now: h.clock.now)
        h.transport.release("POST /v1/devices/me/token")
        await #expect(throws: ReceptionError(code: "cooldown")) { try await request.value }
        #expect(h.transport.requests(to: "GET /v1/conversation/unread").isEmpty)
    }

    @Test func localCooldownRejectionsAreNotCountedAsAttempts() {
        var budget = RetryBudget()
        budget.recordFailure(.cooldown(retryAfter: 12, scope: .messages), random: FixedRandomSource())
        #expect(budget.attempts == 0 && budget.nextDelay == .seconds(12) && !budget.isStopped)
    }

    @Test func blockedHaltsAndOnlyAProbeGoesThrough() async throws {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("POST /v1/conversation/messages", .error(403, code: "blocked"), .json(201, sent))
        h.transport.on("GET /v1/conversation/unread", .json(200, unreadBody))
        await #expect(throws: ReceptionError(code: "blocked", status: 403)) {
            try await h.client.send(clientId: "C1", text: "hi", attachmentIds: [])
        }
        #expect(await h.client.halt == .blocked)
        await #expect(throws: ReceptionError(code: "session_halted")) { try await h.client.unread() }
        #expect(h.transport.requests(to: "GET /v1/conversation/unread").isEmpty)
        _ = try await h.client.send(clientId: "C1", text: "hi", attachmentIds: [], probe: true)
        #expect(await h.client.halt == nil)
        #expect(h.log.all == ["halt blocked", "halt none"])
        _ = try await h.client.unread()
    }

    @Test func appUnavailableHaltsTheSession() async {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("GET /v1/conversation/unread", .error(401, code: "invalid_app_id"))
        await #expect(throws: ReceptionError(code: "invalid_app_id", status: 401)) { try await h.client.unread() }
        #expect(await h.client.halt == .appUnavailable)
    }

    @Test func chatResetIsReportedWithItsRevision() async {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("GET /v1/conversation", .error(409, code: "chat_reset", resetRevision: 5))
        await #expect(throws: ReceptionError(code: "chat_reset", status: 409)) { try await h.client.history() }
        #expect(h.log.all == ["chatReset 5"])
    }

    @Test func cooldownsArePersistedAndSurviveANewBook() async {
        let h = Harness()
        h.scriptRefresh()
        let saved = SavedCooldowns()
        let book = CooldownBook(now: h.clock.now) { saved.set($0) }
        book.record(scope: .messages, seconds: 45, now: h.clock.now)
        let reloaded = CooldownBook(stored: saved.value, now: h.clock.now.addingTimeInterval(5))
        #expect(reloaded.wait(for: [.messages], now: h.clock.now.addingTimeInterval(5))?.remainingSeconds == 40)
    }
}
