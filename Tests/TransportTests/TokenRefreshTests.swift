import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
import Transport

/// Spec 2, 7.4, 6.2 (token refresh backoff), 7.5.
@Suite("TokenRefreshTests")
struct TokenRefreshTests {
    @Test func everyRequestCarriesTheReceptionHeaders() async throws {
        let h = Harness(revision: 3)
        h.scriptRefresh("at_1")
        h.transport.on("GET /v1/conversation/unread", .json(200, unreadBody))
        _ = try await h.client.unread()
        let refresh = try #require(h.transport.requests(to: "POST /v1/devices/me/token").first)
        #expect(refresh.headers["Authorization"] == nil)
        #expect(refresh.json?["sessionSecret"] as? String == "ss_secret")
        #expect(refresh.headers["X-App-Id"] == Harness.appID)
        let unread = try #require(h.transport.requests(to: "GET /v1/conversation/unread").first)
        #expect(unread.headers == [
            "X-App-Id": Harness.appID, "X-Reception-Revision": "3", "Content-Type": "application/json",
            "Authorization": "Bearer at_1",
        ])
    }

    @Test func aChatNeverStartedMakesNoRequest() async {
        let h = Harness(started: false)
        await #expect(throws: ReceptionError(code: "chat_not_started")) { try await h.client.unread() }
        #expect(h.transport.requests.isEmpty)
    }

    @Test func concurrentRequestsWithoutATokenShareOneRefresh() async throws {
        let h = Harness()
        h.scriptRefresh("at_shared")
        h.transport.hold("POST /v1/devices/me/token")
        h.transport.on("GET /v1/conversation/unread", .json(200, unreadBody))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<5 { group.addTask { _ = try await h.client.unread() } }
            while h.transport.heldCount("POST /v1/devices/me/token") < 1 { await Task.yield() }
            h.transport.release("POST /v1/devices/me/token")
            try await group.waitForAll()
        }
        #expect(h.transport.requests(to: "POST /v1/devices/me/token").count == 1)
        #expect(h.transport.requests(to: "GET /v1/conversation/unread").allSatisfy {
            $0.headers["Authorization"] == "Bearer at_shared"
        })
    }

    @Test func aRejectedTokenIsRenewedOnceAndTheRequestRepeatedIdentically() async throws {
        let h = Harness()
        h.transport.on("POST /v1/devices/me/token", .json(200, #"{"token":"at_old"}"#), .json(200, #"{"token":"at_new"}"#))
        h.transport.on("POST /v1/conversation/action-click",
                       .error(401, code: "unauthorized"), .json(200, "{}"))
        try await h.client.actionClick(messageId: "m1")
        let clicks = h.transport.requests(to: "POST /v1/conversation/action-click")
        #expect(clicks.map { $0.headers["Authorization"] } == ["Bearer at_old", "Bearer at_new"])
        #expect(clicks[0].body == clicks[1].body)
        #expect(h.transport.requests(to: "POST /v1/devices").isEmpty, "renewal must not re-register")
    }

    @Test func aSecondRejectionReachesTheCaller() async {
        let h = Harness()
        h.transport.on("POST /v1/devices/me/token", .json(200, #"{"token":"at_a"}"#), .json(200, #"{"token":"at_b"}"#))
        h.transport.on("GET /v1/conversation/unread", .error(401, code: "unauthorized"))
        await #expect(throws: ReceptionError(code: "unauthorized", status: 401)) { try await h.client.unread() }
        #expect(h.transport.requests(to: "GET /v1/conversation/unread").count == 2)
        #expect(h.transport.requests(to: "POST /v1/devices/me/token").count == 2)
    }

    @Test func onlyUnauthorizedTriggersRenewal() async {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("GET /v1/conversation/unread", .error(401, code: "invalid_token_shape"))
        await #expect(throws: ReceptionError(code: "invalid_token_shape", status: 401)) { try await h.client.unread() }
        #expect(h.transport.requests(to: "POST /v1/devices/me/token").count == 1)
    }

    @Test func sessionRevokedForgetsTheCredentials() async {
        let h = Harness()
        h.transport.on("POST /v1/devices/me/token", .error(401, code: "session_revoked"))
        await #expect(throws: ReceptionError(code: "session_revoked", status: 401)) { try await h.client.unread() }
        #expect(h.store.read(.session(scope: Harness.scope)) == .missing)
        #expect(h.log.all == ["sessionRevoked"])
        #expect(h.transport.requests(to: "GET /v1/conversation/unread").isEmpty)
    }

    @Test func appDisabledOnRefreshHaltsButKeepsCredentials() async {
        let h = Harness()
        h.transport.on("POST /v1/devices/me/token", .error(403, code: "app_disabled"))
        await #expect(throws: ReceptionError(code: "app_disabled", status: 403)) { try await h.client.unread() }
        #expect(await h.client.halt == .appUnavailable)
        #expect(h.store.read(.session(scope: Harness.scope)) != .missing)
        await #expect(throws: ReceptionError(code: "session_halted")) { try await h.client.unread() }
        #expect(h.transport.requests.count == 1)
    }

    // Spec 6.2 / TokenRefreshBackoffTests: a renewal 429 is a stored session wait; callers fail at once.
    @Test func aRefreshLimitedBy429IsASessionCooldown() async throws {
        let h = Harness()
        h.transport.on("POST /v1/devices/me/token", .error(429, code: "rate_limited", retryAfter: "40"),
                       .json(200, #"{"token":"at_after"}"#))
        h.transport.on("GET /v1/conversation/unread", .json(200, unreadBody))
        await #expect(throws: ReceptionError(code: "rate_limited", status: 429)) { try await h.client.unread() }
        let wait = h.cooldowns.wait(for: [.session], now: h.clock.now)
        #expect(wait?.scope == .session && wait?.remainingSeconds == 40 && wait?.automatic == true)
        await #expect(throws: ReceptionError(code: "cooldown")) { try await h.client.unread() }
        #expect(h.transport.requests.count == 1)
        await h.clock.advance(by: .seconds(41))
        _ = try await h.client.unread()
        #expect(h.transport.requests(to: "GET /v1/conversation/unread").count == 1)
    }

    // After a transient refresh failure every caller first waits delay(counter): 2 s, then 4 s; success resets.
    @Test func transientRefreshFailuresShareOneBackoff() async throws {
        let h = Harness()
        h.transport.on("POST /v1/devices/me/token",
                       .error(503, code: "unavailable"), .failure(.connectionFailed(transportCode: -1004)),
                       .json(200, #"{"token":"at_ok"}"#))
        h.transport.on("GET /v1/conversation/unread", .json(200, unreadBody))
        await #expect(throws: ReceptionError(code: "unavailable", status: 503)) { try await h.client.unread() }

        let second = Task { try await h.client.unread() }
        await h.clock.waitForSleepers(atLeast: 1)
        #expect(h.clock.nextWake == .seconds(2))
        #expect(h.transport.requests(to: "POST /v1/devices/me/token").count == 1)
        await h.clock.advance(by: .seconds(2))
        await #expect(throws: ReceptionError(code: "connection_failed")) { try await second.value }

        let third = Task { try await h.client.unread() }
        await h.clock.waitForSleepers(atLeast: 1)
        #expect(h.clock.nextWake == .seconds(4))
        await h.clock.advance(by: .seconds(4))
        _ = try await third.value
        #expect(h.transport.requests(to: "POST /v1/devices/me/token").count == 3)
    }

    @Test func aRefreshFinishingAfterInvalidationIsDiscarded() async {
        let h = Harness()
        h.scriptRefresh("at_late")
        h.transport.hold("POST /v1/devices/me/token")
        h.transport.on("GET /v1/conversation/unread", .json(200, unreadBody))
        let request = Task { try await h.client.unread() }
        while h.transport.heldCount("POST /v1/devices/me/token") < 1 { await Task.yield() }
        await h.client.invalidate()
        h.transport.release("POST /v1/devices/me/token")
        await #expect(throws: ReceptionError.cancelled) { try await request.value }
        #expect(h.transport.requests(to: "GET /v1/conversation/unread").isEmpty)
    }

    @Test func anUnreadableSecureStoreIsSecureStorageUnavailableNeverARegistration() async {
        let h = Harness()
        h.store.readsUnavailable = true
        await #expect(throws: ReceptionError.secureStorageUnavailable) {
            try await h.client.send(clientId: "C1", text: "hi", attachmentIds: [], allowRegistration: true)
        }
        #expect(h.transport.requests.isEmpty)
    }
}
