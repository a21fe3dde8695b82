import Foundation
import ReceptionCore
import ReceptionEmulator
import ReceptionTesting
import Testing
import Transport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real client (`ReceptionAPIClient` over `URLSessionTransport`) against the real emulator over loopback.
@Suite("EmulatorIntegrationTests")
struct EmulatorIntegrationTests {
    @Test func registrationUpdateSendAndHistory() async throws {
        let e = try LiveEmulator()
        let client = e.client()
        try await client.updateDevice(probe: false, allowRegistration: true)
        let sent = try await client.send(clientId: "CLIENT-1", text: "Hello from support verification.",
                                         attachmentIds: [], probe: false, allowRegistration: true)
        #expect(sent.message.clientId == "CLIENT-1" && sent.message.seq >= 1)
        // The same client ID again is the same message (spec 3.8 idempotency).
        let again = try await client.send(clientId: "CLIENT-1", text: "Hello from support verification.",
                                          attachmentIds: [], probe: false, allowRegistration: true)
        #expect(again.message.id == sent.message.id)
        let history = try await client.history(limits: false)
        #expect(history.messages.map(\.text) == ["Hello from support verification."])
        #expect(try await e.admin("GET", "devices")["devices"].count == 1)
        #expect(e.transport.count("POST /v1/devices") == 1)
    }

    @Test func anExpiredAccessTokenIsRenewedWithoutReRegistering() async throws {
        let e = try LiveEmulator()
        let client = e.client()
        _ = try await client.send(clientId: "C1", text: "hi", attachmentIds: [], probe: false, allowRegistration: true)
        e.clock.advance(by: 7200)
        _ = try await client.unread(probe: false)
        #expect(e.transport.count("POST /v1/devices/me/token") == 1)
        #expect(e.transport.count("POST /v1/devices") == 1)
        #expect(e.transport.statuses("GET /v1/conversation/unread") == [401, 200])
    }

    /// The request each limited scope stops (spec 6.3.2).
    static func limitedCall(_ scope: RetryScope, _ client: ReceptionAPIClient, _ n: Int) async throws(ReceptionError) {
        switch scope {
        case .uploads:
            _ = try await client.reserveUpload(
                jpeg: Data([0xFF, 0xD8, 0xFF, 0xD9]), width: 1, height: 1, clientId: "C\(n)", index: 0, probe: false)
        case .stream:
            _ = try await client.events()
        default:
            _ = try await client.send(
                clientId: "C\(n)", text: "message \(n)", attachmentIds: [], probe: false, allowRegistration: true)
        }
    }

    @Test(arguments: RetryScope.allCases)
    func aLimitedScopeBecomesALocalCooldown(scope: RetryScope) async throws {
        let e = try LiveEmulator()
        let client = e.client()
        _ = try await client.send(clientId: "C1", text: "one", attachmentIds: [], probe: false, allowRegistration: true)
        _ = try await e.admin("PUT", "rate-limits", [scope.rawValue: ["limit": 0, "windowSeconds": 120]])
        if scope == .session {
            // Token renewal is what the session scope limits: expire the token first.
            e.clock.advance(by: 7200)
        }
        do {
            try await Self.limitedCall(scope, client, 2)
            Issue.record("a limited \(scope) request went through")
        } catch {
            #expect(error.status == 429)
        }
        let wait = try #require(e.cooldowns.wait(for: [scope], now: Date()))
        #expect(wait.scope == scope && wait.remainingSeconds > 60 && !wait.automatic)
        let before = e.transport.requests.count
        await #expect(throws: ReceptionError(code: "cooldown")) { try await Self.limitedCall(scope, client, 3) }
        #expect(e.transport.requests.count == before, "a held request never reaches the network")
    }

    @Test func aBlockedDeviceHaltsAndAProbeResumesAfterUnblock() async throws {
        let e = try LiveEmulator()
        let client = e.client()
        _ = try await client.send(clientId: "C1", text: "one", attachmentIds: [], probe: false, allowRegistration: true)
        let deviceID = try await e.deviceID()
        _ = try await e.admin("POST", "devices/\(deviceID)/block")
        await #expect(throws: ReceptionError(code: "blocked", status: 403)) {
            try await client.send(clientId: "C2", text: "two", attachmentIds: [], probe: false, allowRegistration: true)
        }
        #expect(await client.halt == .blocked)
        await #expect(throws: ReceptionError(code: "session_halted")) { try await client.unread(probe: false) }
        // Reading stays possible through a probe (the foreground check of a blocked session).
        _ = try await client.unread(probe: true)
        #expect(await client.halt == nil, "a successful probe ends the halt")
        _ = try await e.admin("POST", "devices/\(deviceID)/unblock")
        _ = try await client.send(clientId: "C2", text: "two", attachmentIds: [], probe: true, allowRegistration: true)
        #expect(try await client.history(limits: false).messages.count == 2)
    }

    @Test func onlyVerifiedUsersRejectsAnUnverifiedRegistration() async throws {
        let e = try LiveEmulator()
        _ = try await e.admin("PATCH", "app", ["onlyVerifiedUsers": true])
        let client = e.client()
        await #expect(throws: ReceptionError(code: "verification_required", status: 403)) {
            try await client.updateDevice(probe: false, allowRegistration: true)
        }
        let token = try e.mint(["user_id": "u-1", "exp": Int(e.clock.now) + 3600])
        e.identityToken.set(token)
        try await client.updateDevice(probe: false, allowRegistration: true)
        #expect(try await client.verifiedUserId() == "u-1")
    }

    @Test(arguments: ["identity_token_invalid", "identity_token_expired", "identity_not_configured"])
    func identityRejectionsAreReportedAndTheUpdateGoesOnWithoutTheToken(code: String) async throws {
        let e = try LiveEmulator()
        var token = try e.mint(["user_id": "u-1", "exp": Int(e.clock.now) + 3600])
        switch code {
        case "identity_token_invalid": token = try e.mint(["user_id": "u-1", "exp": Int(e.clock.now) + 3600], secret: "ids_wrong")
        case "identity_token_expired": token = try e.mint(["user_id": "u-1", "exp": Int(e.clock.now) - 10])
        default: _ = try await e.admin("DELETE", "identity-secret")
        }
        let client = e.client()
        _ = try await client.send(clientId: "C1", text: "one", attachmentIds: [], probe: false, allowRegistration: true)
        e.identityToken.set(token)
        try await client.updateDevice(probe: false, allowRegistration: false)
        #expect(e.hooks.all == ["rejected \(code) 401"])
        let updates = e.transport.bodies("PATCH /v1/devices/me")
        #expect(updates.suffix(2).map { $0["identityToken"] as? String } == [token, nil])
    }

    @Test func aTokenForAnotherUserIsAMismatch() async throws {
        let e = try LiveEmulator()
        let client = e.client()
        e.identityToken.set(try e.mint(["user_id": "alice", "exp": Int(e.clock.now) + 3600]))
        try await client.updateDevice(probe: false, allowRegistration: true)
        #expect(try await client.verifiedUserId() == "alice")
        e.identityToken.set(try e.mint(["user_id": "bob", "exp": Int(e.clock.now) + 3600]))
        await #expect(throws: ReceptionError(code: "identity_mismatch", status: 409)) {
            try await client.updateDevice(probe: false, allowRegistration: false)
        }
        #expect(e.hooks.all.last == "rejected identity_mismatch 409")
    }

    @Test func aRevokedSessionIsForgotten() async throws {
        let e = try LiveEmulator()
        let client = e.client()
        _ = try await client.send(clientId: "C1", text: "one", attachmentIds: [], probe: false, allowRegistration: true)
        let secret = try #require(try e.store.read(.session(scope: LiveEmulator.scope)).value())
        let credentials = try ReceptionJSON.makeDecoder().decode(SessionCredentials.self, from: secret)
        // Another client (a logout queue) revokes the session; this client's next renewal learns it.
        let revoked = try await e.raw("POST", "/v1/devices/me/logout", ["sessionSecret": credentials.sessionSecret])
        #expect(revoked == 200)
        e.clock.advance(by: 7200)
        await #expect(throws: ReceptionError(code: "session_revoked", status: 401)) { try await client.unread(probe: false) }
        #expect(e.hooks.all.contains("sessionRevoked"))
        #expect(e.store.read(.session(scope: LiveEmulator.scope)) == .missing)
    }

    @Test func theEventStreamDeliversAnAgentReplyAndTyping() async throws {
        let e = try LiveEmulator(pingInterval: 0.2)
        let client = e.client()
        _ = try await client.send(clientId: "C1", text: "one", attachmentIds: [], probe: false, allowRegistration: true)
        let deviceID = try await e.deviceID()
        let signals = try await client.events()
        var iterator = signals.makeAsyncIterator()
        #expect(try await iterator.next() == .ping)
        _ = try await e.admin("POST", "devices/\(deviceID)/typing", ["typing": true])
        #expect(try await iterator.nextSignal(skippingPings: true) == .typing)
        _ = try await e.admin("POST", "devices/\(deviceID)/messages", ["text": "Hi, how can we help?"])
        #expect(try await iterator.nextSignal(skippingPings: true) == .changed)
        let page = try await client.messages(after: 0)
        #expect(page.flatMap(\.messages).last?.text == "Hi, how can we help?")
        #expect(page.flatMap(\.messages).last?.sender == .agent)
    }

    /// A lost response (the service committed, then closed the connection): the HTTP layer may resend at once on a
    /// fresh connection (the connection was a reused keep-alive one), or the send fails as a transient error and
    /// is resent. Either way the same client ID finds the stored message: one server copy, and no hang.
    @Test func aDroppedResponseIsTransientAndTheResendIsNotADuplicate() async throws {
        let e = try LiveEmulator()
        let client = e.client()
        _ = try await client.send(clientId: "C1", text: "one", attachmentIds: [], probe: false, allowRegistration: true)
        _ = try await e.admin("POST", "faults", ["path": "/v1/conversation/messages", "method": "POST", "kind": "drop"])
        let started = ContinuousClock.now
        do {
            _ = try await client.send(clientId: "C2", text: "two", attachmentIds: [], probe: false, allowRegistration: true)
        } catch {
            #expect(error.code == "connection_failed" && error.isTransient, "\(error)")
        }
        print("dropped emulator response reported after \(ContinuousClock.now - started)")
        _ = try await client.send(clientId: "C2", text: "two", attachmentIds: [], probe: false, allowRegistration: true)
        #expect(try await client.history(limits: false).messages.map(\.text) == ["one", "two"])
    }

    @Test func aDeviceDeletionWorksAndASecondOneIsHarmless() async throws {
        let e = try LiveEmulator()
        let client = e.client()
        _ = try await client.send(clientId: "C1", text: "one", attachmentIds: [], probe: false, allowRegistration: true)
        #expect(try await client.deleteDevice())
        #expect(try await e.admin("GET", "devices")["devices"].count == 0)
        #expect(try await client.deleteDevice(), "an ended session's deletion completes (seed 000)")
    }
}

extension AsyncThrowingStream<StreamSignal, any Error>.AsyncIterator {
    mutating func nextSignal(skippingPings: Bool) async throws -> StreamSignal? {
        while let signal = try await next() {
            if skippingPings, signal == .ping { continue }
            return signal
        }
        return nil
    }
}
