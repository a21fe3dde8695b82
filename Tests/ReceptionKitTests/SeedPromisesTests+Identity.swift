import Foundation
@testable import ReceptionCore
@testable import ReceptionKit
import ReceptionTesting
import Testing

/// Seed 000 "Verified users" and seed 001 "Restrictions and reset behavior", end to end: tokens minted by PyJWT,
/// the SDK through its public API, the real emulator over loopback. What a `name` claim over 200 characters does,
/// the remote sign-out a token for another user queues, one verified user on two devices, what logout leaves on the
/// service, and an expired token against an existing verification.
@Suite("SeedPromisesTests+Identity", .serialized)
@MainActor
struct SeedPromisesIdentityTests {
    /// Whether `app` has heard `identityRejected` with `code`.
    static func rejected(_ app: App, _ code: String) -> Bool {
        app.events.contains { if case .identityRejected(let error) = $0 { error.code == code } else { false } }
    }

    static func anyRejection(_ app: App) -> Bool {
        app.events.contains { if case .identityRejected = $0 { true } else { false } }
    }

    /// The service's record of `device`.
    static func record(_ service: Service, _ device: String) async throws -> [String: Any] {
        try await service.admin("GET", "devices/\(device)")
    }

    /// A device update carrying the staged token: the chat opens (spec 7.14.3 step 8), and closes again.
    static func carryTheToken(_ app: App, until signal: @MainActor () async -> Bool) async -> Bool {
        app.reception.openChat()
        let seen = await until(signal)
        app.reception.closeChat()
        return seen
    }

    /// Claims for `userId`, valid for an hour of real time.
    static func claims(_ userId: String, _ extra: [String: Any] = [:]) -> [String: Any] {
        ["user_id": userId, "exp": Int(Date().timeIntervalSince1970) + 3600].merging(extra) { $1 }
    }

    // MARK: Row: a `name` claim over 200 characters

    /// Names at the limit and one unit over it, in UTF-16 units as seed 000 counts ("some emoji count as two").
    enum Name: String, CaseIterable, Sendable {
        case ascii200, emoji200, ascii201, emoji201

        var text: String {
            switch self {
            case .ascii200: String(repeating: "n", count: 200)
            case .emoji200: String(repeating: "n", count: 198) + "😀"
            case .ascii201: String(repeating: "n", count: 201)
            case .emoji201: String(repeating: "n", count: 199) + "😀"
            }
        }

        var accepted: Bool { text.utf16.count <= 200 }
    }

    /// Seed 000 "Create a token on your server": `name` is "up to 200 characters", and a claim "with the wrong type
    /// or length" is `identity_token_invalid`. So a longer name is neither truncated nor dropped: the whole token is
    /// refused, the chat stays unverified and goes on; at the limit the name is shown exactly as sent.
    @Test(arguments: Name.allCases)
    func aNameClaimOver200CharactersRejectsTheToken(_ name: Name) async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("before the token")
        let device = try #require(try await service.devices().first?["id"] as? String)
        app.reception.identify(token: try service.token(claims: Self.claims("alice", ["name": name.text, "email": "a@example.com"])))
        let answered = await Self.carryTheToken(app) {
            Self.anyRejection(app) || app.reception.identityState == .verified(userId: "alice")
        }
        try #require(answered, "the token never reached the service")
        let record = try await Self.record(service, device)
        if name.accepted {
            #expect(app.reception.identityState == .verified(userId: "alice"))
            #expect(record["verifiedName"] as? String == name.text, "the name is not shown exactly as sent")
            #expect(!Self.anyRejection(app), "events: \(app.events)")
        } else {
            #expect(app.events.contains(.identityRejected(ReceptionError(code: "identity_token_invalid", status: 401))),
                    "events: \(app.events)")
            #expect(app.reception.identityState != .verified(userId: "alice"))
            // Not truncated to 200, not verified without the name: nothing of the token was taken.
            #expect(record["verifiedUserId"] is NSNull && record["verifiedName"] is NSNull && record["verifiedEmail"] is NSNull,
                    "\(record)")
        }
        // Either way the chat goes on (the app does not require verified users).
        try await app.send("after the token")
        #expect(try await service.messages(device: device) == ["before the token", "after the token"])
    }

    // MARK: Row: a token for another user queues the remote sign-out of the previous one

    /// The session secrets waiting in the install's revocation queue (spec 7.15, secure store
    /// `pendingSessionRevocations`).
    static func queuedRevocations(_ app: App) -> [String] {
        guard let data = try? app.configuration.secureStore.read(.pendingSessionRevocations).value(),
              let list = try? JSONDecoder().decode([PendingRevocation].self, from: data)
        else { return [] }
        return list.map(\.sessionSecret)
    }

    /// An install whose chat is verified as alice after sending "alice's message", with its session secret.
    static func verifiedAlice(_ service: Service) async throws -> (App, String) {
        let app = App(service)
        await app.launch()
        app.reception.identify(token: try service.token(userId: "alice"))
        try await app.send("alice's message")
        try #require(await until { app.reception.identityState == .verified(userId: "alice") })
        return (app, try #require(app.sessionSecret()))
    }

    /// Seed 000 "Pass the token": "switching users also requests remote sign-out of the old session"; spec 7.14.3
    /// step 6: a different user is a full logout (revocation queued, local reset), the new token staged for the next
    /// send. Offline, the old session's secret waits in the queue; online again, the service ends it before the new
    /// user sent anything. No `identityRejected`: a switch is not a rejection.
    @Test func aTokenForAnotherUserQueuesTheRemoteSignOutOfThePreviousSession() async throws {
        let service = try Service()
        let (app, aliceSecret) = try await Self.verifiedAlice(service)
        let aliceDevice = try #require(try await service.devices().first?["id"] as? String)
        try #require(try await service.refreshStatus(secret: aliceSecret) == 200)

        app.transport.isOffline = true
        app.reception.identify(token: try service.token(userId: "bob"))
        #expect(app.texts.isEmpty, "alice's chat is still shown")
        #expect(app.sessionSecret() == nil, "alice's session is still the current one")
        // The drain tried while offline (its request was refused): the entry stays queued.
        #expect(await until { app.transport.refused.contains { $0.url.path == "/v1/devices/me/logout" } },
                "no remote sign-out was attempted")
        #expect(Self.queuedRevocations(app) == [aliceSecret], "the sign-out of alice's session is not queued")
        #expect(try await service.refreshStatus(secret: aliceSecret) == 200)

        app.transport.isOffline = false
        app.reception.appDidEnterBackground()
        app.reception.appDidBecomeActive()
        #expect(await until { (try? await service.refreshStatus(secret: aliceSecret)) == 401 }, "alice's session was not ended")
        #expect(await until { Self.queuedRevocations(app).isEmpty }, "the entry was not dequeued")
        // Before bob sent anything: the sign-out did not wait for the next send, and registered nobody.
        #expect(try await service.devices().map { $0["id"] as? String } == [aliceDevice])

        try await app.send("bob's message")
        let devices = try await service.devices()
        #expect(devices.count == 2)
        #expect(devices.last?["verifiedUserId"] as? String == "bob", "the staged token went with the next send")
        #expect(try await service.messages(device: aliceDevice) == ["alice's message"], "alice's history stays")
        #expect(!Self.anyRejection(app), "a switch emitted identityRejected: \(app.events)")
    }

    /// The same rule when the service finds the other user (seed 000: "This switch, including one caused by
    /// `identity_mismatch`, does not emit `identityRejected`"). The SDK cannot reach a real mismatch with the
    /// emulator (it knows the verified user and switches locally first), so the emulator's fault injection answers
    /// the device update with the documented 409 `identity_mismatch`.
    @Test func identityMismatchQueuesTheRemoteSignOutToo() async throws {
        let service = try Service()
        let (app, aliceSecret) = try await Self.verifiedAlice(service)
        try await service.admin("POST", "faults", [
            "path": "/v1/devices/me", "method": "PATCH", "kind": "status", "status": 409, "code": "identity_mismatch",
        ])
        app.reception.identify(token: try service.token(claims: Self.claims("alice", ["name": "Alice"])))
        let switched = await Self.carryTheToken(app) { app.sessionSecret() != aliceSecret }
        try #require(switched, "the mismatch did not switch the session")
        #expect(await until { (try? await service.refreshStatus(secret: aliceSecret)) == 401 }, "the old session was not ended")
        #expect(app.texts.isEmpty)
        #expect(!Self.anyRejection(app), "events: \(app.events)")
        try await app.send("on a new session")
        let devices = try await service.devices()
        #expect(devices.count == 2, "the next send starts a new chat")
        #expect(devices.last?["verifiedName"] as? String == "Alice", "the token stayed staged for the next send")
    }

    // MARK: Rows: one verified user on two devices; logout keeps the historical verified identity

    /// Seed 000: "Verification does not merge chats across devices", "Each device session has its own history, even
    /// when two devices use the same user ID", "Logout does not end sessions on other devices"; and "Logout ends
    /// access through the old SDK session without removing its historical identity": the phone's device record keeps
    /// its verified user, name and email and its history; only its session and push registration end.
    @Test func oneVerifiedUserOnTwoDevicesKeepsTwoHistoriesAndLogoutEndsOnlyOne() async throws {
        let service = try Service()
        let phone = App(service)
        let tablet = App(service)
        for app in [phone, tablet] {
            await app.launch()
            app.reception.identify(token: try service.token(claims: Self.claims("alice", ["name": "Alice", "email": "alice@example.com"])))
            app.reception.setPushToken(Data(repeating: app === phone ? 0xA1 : 0xB2, count: 32), environment: .sandbox)
        }
        try await phone.send("from the phone")
        try await tablet.send("from the tablet")
        for app in [phone, tablet] {
            #expect(await until { app.reception.identityState == .verified(userId: "alice") })
        }
        let devices = try await service.devices()
        try #require(devices.count == 2, "one verified user merged into one device")
        #expect(devices.allSatisfy { $0["verifiedUserId"] as? String == "alice" })
        let phoneDevice = try #require(devices.first?["id"] as? String)
        let tabletDevice = try #require(devices.last?["id"] as? String)
        #expect(try await service.messages(device: phoneDevice) == ["from the phone"])
        #expect(try await service.messages(device: tabletDevice) == ["from the tablet"])
        // A reply to each device, both chats open (they follow the live stream): each shows its own reply only. The
        // tablet's reply goes second, so once the tablet shows it, a merged reply to the phone would be there too.
        phone.reception.openChat()
        tablet.reception.openChat()
        for (app, device, text) in [(phone, phoneDevice, "reply to the phone"), (tablet, tabletDevice, "reply to the tablet")] {
            try await service.admin("POST", "devices/\(device)/messages", ["kind": "TEXT", "text": text])
            #expect(await until { await app.reception.chat?.refresh(); return app.texts.contains(text) }, "\(text) never arrived")
        }
        await phone.reception.chat?.refresh()
        #expect(phone.texts == ["from the phone", "reply to the phone"], "the histories merged: \(phone.texts)")
        #expect(tablet.texts == ["from the tablet", "reply to the tablet"], "the histories merged: \(tablet.texts)")
        phone.reception.closeChat()
        tablet.reception.closeChat()
        // The push token travels with a device update (spec 3.1: never with the registration): a return to the
        // foreground makes one. Wait until it reached the phone's record, so its removal below is logout's doing.
        phone.reception.appDidEnterBackground()
        phone.reception.appDidBecomeActive()
        #expect(await until { (try? await Self.record(service, phoneDevice)["pushToken"] as? String) != nil },
                "the phone's push token never reached the service")

        let phoneSecret = try #require(phone.sessionSecret())
        let tabletSecret = try #require(tablet.sessionSecret())
        phone.reception.logout()
        #expect(await until { (try? await service.refreshStatus(secret: phoneSecret)) == 401 }, "the phone's sign-out never ran")
        #expect(try await service.refreshStatus(secret: tabletSecret) == 200, "logout on the phone ended the tablet's session")
        #expect(tablet.reception.identityState == .verified(userId: "alice"))
        try await tablet.send("the tablet goes on")
        #expect(try await service.messages(device: tabletDevice) == ["from the tablet", "reply to the tablet", "the tablet goes on"])

        // The phone's record on the service: the historical verified identity and the history stay.
        let record = try await Self.record(service, phoneDevice)
        #expect(record["verifiedUserId"] as? String == "alice", "\(record)")
        #expect(record["verifiedName"] as? String == "Alice" && record["verifiedEmail"] as? String == "alice@example.com")
        #expect(record["pushToken"] is NSNull, "logout removes the push registration")
        #expect(try await service.messages(device: phoneDevice) == ["from the phone", "reply to the phone"])
        #expect(try await service.devices().count == 2, "logout removed a device")
    }

    // MARK: Row: an expired token does not undo verification

    /// Seed 001: "Token expiry alone does not undo existing verification"; seed 000: rejections "do not remove an
    /// already verified identity". With only verified users allowed, the accepted token's `exp` passes on the
    /// service's clock, then an expired token arrives and is rejected with `identity_token_expired`: the chat stays
    /// verified on both sides and keeps sending.
    @Test func anExpiredTokenDoesNotUndoVerification() async throws {
        let clock = ManualClock(now: Date())
        let service = try Service(clock: clock)
        try await service.admin("PATCH", "app", ["onlyVerifiedUsers": true])
        let app = App(service)
        await app.launch()
        let issued = Int(clock.now.timeIntervalSince1970)
        app.reception.identify(token: try service.token(claims: ["user_id": "alice", "name": "Alice", "exp": issued + 600]))
        try await app.send("verified hello")
        try #require(await until { app.reception.identityState == .verified(userId: "alice") })
        let device = try #require(try await service.devices().first?["id"] as? String)

        // The accepted token has expired on the service's clock: sending still works.
        clock.setWallClock(to: clock.now.addingTimeInterval(3600))
        try await app.send("after the token expired")

        // An expired token is rejected, and only the token is dropped.
        let now = Int(clock.now.timeIntervalSince1970)
        app.reception.identify(token: try service.token(claims: ["user_id": "alice", "name": "Renamed", "exp": now - 60]))
        let rejected = await Self.carryTheToken(app) { Self.rejected(app, "identity_token_expired") }
        #expect(rejected, "events: \(app.events)")
        #expect(app.events.contains(.identityRejected(ReceptionError(code: "identity_token_expired", status: 401))))
        #expect(app.reception.identityState == .verified(userId: "alice"), "the rejection undid the verification")
        let record = try await Self.record(service, device)
        #expect(record["verifiedUserId"] as? String == "alice" && record["verifiedName"] as? String == "Alice", "\(record)")
        try await app.send("still verified")
        #expect(try await service.messages(device: device) == ["verified hello", "after the token expired", "still verified"])
    }
}
