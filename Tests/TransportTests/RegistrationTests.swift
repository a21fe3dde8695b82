import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
import Transport

/// Spec 2 rule 1, 3.1, 3.2, 7.14.3 steps 8–10.
@Suite("RegistrationTests")
struct RegistrationTests {
    let registered = #"{"token":"at_reg","sessionSecret":"ss_new","verifiedUserId":null}"#

    @Test func withoutPermissionNoDeviceIsRegistered() async {
        let h = Harness(registered: false)
        await #expect(throws: ReceptionError(code: "chat_not_started")) { try await h.client.updateDevice() }
        #expect(h.transport.requests.isEmpty)
    }

    @Test func aFirstSendRegistersStoresTheSecretThenUpdates() async throws {
        let h = Harness(registered: false)
        h.transport.on("POST /v1/devices", .json(201, registered))
        h.transport.on("PATCH /v1/devices/me", .json(200, #"{"verifiedUserId":null}"#))
        try await h.client.updateDevice(allowRegistration: true)
        #expect(h.transport.requests.map(\.route) == ["POST /v1/devices", "PATCH /v1/devices/me"])
        let registration = try #require(h.transport.requests.first)
        #expect(registration.headers["Authorization"] == nil)
        #expect(registration.json?["pushToken"] == nil)
        #expect(registration.json?["platform"] as? String == "ios")
        #expect(h.transport.requests[1].headers["Authorization"] == "Bearer at_reg")
        let stored = try #require(try h.store.read(.session(scope: Harness.scope)).value())
        let credentials = try ReceptionJSON.makeDecoder().decode(SessionCredentials.self, from: stored)
        #expect(credentials == SessionCredentials(sessionSecret: "ss_new", verifiedUserId: nil))
        #expect(try await h.client.isRegistered())
    }

    /// A logout can run while the registration's answer is being applied: the secret must already be stored then
    /// (so the logout finds it and queues its revocation), and a client ended by that logout stores nothing more.
    @Test func theSecretIsStoredBeforeTheSessionHearsOfItAndAnEndedClientStoresNothing() async throws {
        let transport = ScriptedHTTPTransport()
        let store = InMemorySecureStore()
        let clock = ManualClock()
        transport.on("POST /v1/devices", .json(201, registered))
        transport.on("PATCH /v1/devices/me", .json(200, "{}"))
        let seenByLogout = Locked<Bool?>(nil)
        let clientBox = Locked<ReceptionAPIClient?>(nil)
        let endpoint = try ServiceEndpoint(appID: Harness.appID, root: try #require(URL(string: "https://reception.test")))
        let client = ReceptionAPIClient(
            .init(endpoint: endpoint, transport: transport, secureStore: store, scope: Harness.scope,
                  cooldowns: CooldownBook(now: clock.now), clock: clock, random: FixedRandomSource(), logger: .silent),
            hooks: SessionHooks(
                hasStartedChat: { true },
                devicePayload: { () throws(ReceptionError) -> DevicePayload in Harness.payload(identityToken: nil) },
                deviceSynchronised: { _, _ in
                    // The host logs out now: the facade reads the secret, erases the scope and ends the client.
                    seenByLogout.withLock { $0 = store.read(.session(scope: Harness.scope)) != .missing }
                    try? store.deleteAll(namespace: Harness.scope)
                    await clientBox.withLock { $0 }?.invalidate()
                }))
        clientBox.withLock { $0 = client }
        await #expect(throws: ReceptionError.cancelled) { try await client.updateDevice(allowRegistration: true) }
        #expect(seenByLogout.withLock { $0 } == true, "the logout found no secret to revoke")
        #expect(store.read(.session(scope: Harness.scope)) == .missing, "an ended client wrote a secret back")
        #expect(transport.requests(to: "PATCH /v1/devices/me").isEmpty)
    }

    @Test func aFailedCredentialSaveFailsTheRequestAndIsRetriedBeforeTheTokenIsUsed() async throws {
        let h = Harness(registered: false)
        h.transport.on("POST /v1/devices", .json(201, registered))
        h.transport.on("PATCH /v1/devices/me", .json(200, "{}"))
        h.store.writesFail = true
        await #expect(throws: ReceptionError.secureStorageUnavailable) {
            try await h.client.updateDevice(allowRegistration: true)
        }
        #expect(h.transport.requests(to: "PATCH /v1/devices/me").isEmpty)
        await #expect(throws: ReceptionError.secureStorageUnavailable) { try await h.client.updateDevice() }
        h.store.writesFail = false
        try await h.client.updateDevice()
        #expect(h.transport.requests(to: "POST /v1/devices").count == 1, "the registration is not repeated")
        #expect(h.store.read(.session(scope: Harness.scope)) != .missing)
    }

    @Test func aRejectedTokenIsReportedAndTheUpdateResentWithoutIt() async throws {
        let h = Harness()
        h.tokenBox.value = "tok.en.one"
        h.scriptRefresh()
        h.transport.on("PATCH /v1/devices/me", .error(401, code: "identity_token_expired"), .json(200, "{}"))
        try await h.client.updateDevice()
        let updates = h.transport.requests(to: "PATCH /v1/devices/me")
        #expect(updates.count == 2)
        #expect(updates[0].json?["identityToken"] as? String == "tok.en.one")
        #expect(updates[1].json?["identityToken"] == nil)
        #expect(h.log.all == ["rejected identity_token_expired 401 tok.en.one", "synchronised token=- verified=-"])
    }

    @Test func aRegistrationRejectingTheTokenFailsAndTheNextAttemptGoesWithoutIt() async throws {
        let h = Harness(registered: false)
        h.tokenBox.value = "bad.token.x"
        h.transport.on("POST /v1/devices", .error(401, code: "identity_token_invalid"), .json(201, registered))
        h.transport.on("PATCH /v1/devices/me", .json(200, "{}"))
        await #expect(throws: ReceptionError(code: "identity_token_invalid", status: 401)) {
            try await h.client.updateDevice(allowRegistration: true)
        }
        try await h.client.updateDevice(allowRegistration: true)
        let registrations = h.transport.requests(to: "POST /v1/devices")
        #expect(registrations[0].json?["identityToken"] as? String == "bad.token.x")
        #expect(registrations[1].json?["identityToken"] == nil)
    }

    @Test func theVerifiedUserIdIsStoredAndAnUnchangedOneCausesNoWrite() async throws {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("PATCH /v1/devices/me", .json(200, #"{"verifiedUserId":"42"}"#))
        try await h.client.updateDevice()
        #expect(try await h.client.verifiedUserId() == "42")
        let writes = h.store.writeCount
        try await h.client.updateDevice()
        #expect(h.store.writeCount == writes)
    }

    // Byte-wise comparison: "é" precomposed and decomposed are different users (spec 7.14.3 step 5).
    @Test func verifiedUserIdsCompareByteWise() async throws {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("PATCH /v1/devices/me", .json(200, #"{"verifiedUserId":"Ren\u00e9"}"#),
                       .json(200, #"{"verifiedUserId":"Rene\u0301"}"#))
        try await h.client.updateDevice()
        let writes = h.store.writeCount
        try await h.client.updateDevice()
        #expect(h.store.writeCount == writes + 1)
        #expect(Array(try await h.client.verifiedUserId()!.utf8) == Array("Rene\u{301}".utf8))
    }

    @Test func updatesRequestedDuringAFlightAreCoalescedIntoOneMore() async throws {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("PATCH /v1/devices/me", .json(200, "{}"))
        h.transport.hold("PATCH /v1/devices/me")
        let first = Task { try await h.client.updateDevice() }
        while h.transport.heldCount("PATCH /v1/devices/me") < 1 { await Task.yield() }
        let joiners = (0..<3).map { _ in Task { try await h.client.updateDevice() } }
        for _ in 0..<50 { await Task.yield() }
        h.transport.release("PATCH /v1/devices/me")
        try await first.value
        for joiner in joiners { try await joiner.value }
        #expect(h.transport.requests(to: "PATCH /v1/devices/me").count == 2)
    }
}
