import Foundation
import Identity
import ReceptionCore
import ReceptionTesting
import Testing
import Transport

/// The stager wired into the real API client through `SessionHooks`, the way the facade does it, over the scripted
/// transport: the token travels with the registration, a rejection drops it with one `identityRejected` event, and
/// the update is re-sent without it (spec 3.1, 3.2, 7.14.3 steps 8–9).
@Suite struct IdentityWiringTests {
    static let appID = "app_AbCdEfGhIjKlMnOpQrStUv"
    static let registered = #"{"token":"at_1","sessionSecret":"ss_1","verifiedUserId":null}"#

    /// A facade in miniature: one stager, one client whose hooks report to it, and the events it would emit.
    struct Wiring {
        let transport = ScriptedHTTPTransport()
        let secureStore = InMemorySecureStore()
        let logs = RecordingLogHandler()
        let events = EventRecorder()
        let stager: IdentityStager
        let client: ReceptionAPIClient

        init(registered: Bool) throws {
            let scope = StagerFixture.scope
            if registered {
                let credentials = try ReceptionJSON.encode(SessionCredentials(sessionSecret: "ss_0", verifiedUserId: nil))
                try secureStore.write(credentials, for: .session(scope: scope))
            }
            let stager = IdentityStager(
                store: .inMemory(),
                verifiedUserId: IdentityStager.verifiedUserIdReader(secureStore: secureStore, scope: { scope }),
                logger: logs.logger(category: "Identity"))
            self.stager = stager
            let session = stager.session
            let events = self.events
            let endpoint = try ServiceEndpoint(
                appID: IdentityWiringTests.appID, root: try #require(URL(string: "https://reception.test")))
            let clock = ManualClock()
            client = ReceptionAPIClient(
                .init(endpoint: endpoint, transport: transport, secureStore: secureStore, scope: scope,
                      cooldowns: CooldownBook(now: clock.now) { _ in }, clock: clock, random: FixedRandomSource(),
                      logger: logs.logger(category: "Transport")),
                hooks: SessionHooks(
                    devicePayload: { () throws(ReceptionError) -> DevicePayload in
                        // The transport strips the push pair from registrations itself; a token accepted in this
                        // session can only follow a registration, so update semantics serve both requests.
                        stager.devicePayload(.update, builder: testBuilder, preferences: DevicePreferences())
                    },
                    deviceSynchronised: { payload, _ in stager.deviceSynchronised(payload, session: session) },
                    identityRejected: { error, token in
                        if case .rejected(let event) = stager.identityRejected(error, token: token, session: session) {
                            events.record(event)
                        }
                    }))
        }

        var emitted: [ReceptionEvent] { events.all }
    }

    @Test func theTokenTravelsWithTheRegistrationAndIsThenAccepted() async throws {
        let w = try Wiring(registered: false)
        w.stager.identify(userId: "u1", name: "Ada", email: nil)
        w.stager.setPushToken([0xAB, 0xCD], environment: .sandbox)
        let token = try Tokens.forUser("u1")
        #expect(w.stager.identify(token: token) == .staged)
        w.transport.on("POST /v1/devices", .json(201, Self.registered))
        w.transport.on("PATCH /v1/devices/me", .json(200, #"{"verifiedUserId":"u1"}"#))
        try await w.client.updateDevice(allowRegistration: true)

        let registration = try #require(w.transport.requests(to: "POST /v1/devices").first?.json)
        #expect(registration["identityToken"] as? String == token)
        #expect(registration["externalUserId"] as? String == "u1")
        #expect(registration["pushToken"] == nil, "never push fields in a registration")
        let update = try #require(w.transport.requests(to: "PATCH /v1/devices/me").first?.json)
        #expect(update["identityToken"] == nil, "accepted with the registration")
        #expect(update["pushToken"] as? String == "abcd")
        #expect(w.stager.stagedToken?.state == .accepted)
        #expect(w.emitted.isEmpty)
        #expect(!w.logs.contains(token))
    }

    @Test func anExpiredTokenIsDroppedWithOneEventAndTheUpdateIsResentWithoutIt() async throws {
        let w = try Wiring(registered: true)
        let token = try Tokens.forUser("u1")
        #expect(w.stager.identify(token: token) == .staged)
        w.transport.on("POST /v1/devices/me/token", .json(200, #"{"token":"at_2"}"#))
        w.transport.on("PATCH /v1/devices/me", .error(401, code: "identity_token_expired"), .json(200, "{}"))
        try await w.client.updateDevice()

        let updates = w.transport.requests(to: "PATCH /v1/devices/me")
        #expect(updates.count == 2)
        #expect(updates[0].json?["identityToken"] as? String == token)
        #expect(updates[1].json?["identityToken"] == nil)
        #expect(w.emitted == [.identityRejected(ReceptionError(code: "identity_token_expired", status: 401))])
        #expect(w.stager.stagedToken == nil)
        #expect(w.stager.session.number == 1)
        #expect(!w.logs.contains(token))
        #expect(!w.logs.contains("u1"))
    }

    @Test func aRejectedRegistrationDropsTheTokenAndTheNextRegistrationGoesWithoutIt() async throws {
        let w = try Wiring(registered: false)
        let token = try Tokens.forUser("u1")
        _ = w.stager.identify(token: token)
        w.transport.on("POST /v1/devices", .error(401, code: "identity_token_invalid"), .json(201, Self.registered))
        w.transport.on("PATCH /v1/devices/me", .json(200, "{}"))
        await #expect(throws: ReceptionError(code: "identity_token_invalid", status: 401)) {
            try await w.client.updateDevice(allowRegistration: true)
        }
        #expect(w.emitted == [.identityRejected(ReceptionError(code: "identity_token_invalid", status: 401))])
        try await w.client.updateDevice(allowRegistration: true)
        let registrations = w.transport.requests(to: "POST /v1/devices")
        #expect(registrations.count == 2)
        #expect(registrations[0].json?["identityToken"] as? String == token)
        #expect(registrations[1].json?["identityToken"] == nil)
        #expect(w.emitted.count == 1)
    }

    @Test func identityMismatchSwitchesUserWithoutAnEventOrAResend() async throws {
        let w = try Wiring(registered: true)
        w.stager.identify(userId: "u1", name: "Ada", email: nil)
        let token = try Tokens.forUser("u1")
        _ = w.stager.identify(token: token)
        w.transport.on("POST /v1/devices/me/token", .json(200, #"{"token":"at_2"}"#))
        w.transport.on("PATCH /v1/devices/me", .error(409, code: "identity_mismatch"))
        await #expect(throws: ReceptionError(code: "identity_mismatch", status: 409)) {
            try await w.client.updateDevice()
        }
        #expect(w.transport.requests(to: "PATCH /v1/devices/me").count == 1)
        #expect(w.emitted.isEmpty, "no identityRejected for a mismatch")
        #expect(w.stager.session.number == 2)
        #expect(w.stager.stagedToken == StagedToken(value: token, userId: "u1", state: .unsent))
        #expect(w.stager.pendingIdentity == PendingIdentity())
    }
}

/// The events the facade would hand to the host's `onEvent`.
final class EventRecorder: Sendable {
    private let events = Locked<[ReceptionEvent]>([])
    func record(_ event: ReceptionEvent) { events.withLock { $0.append(event) } }
    var all: [ReceptionEvent] { events.withLock { $0 } }
}
