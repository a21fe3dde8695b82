import Foundation
import ReceptionEmulator
import Testing

/// The APNs provider against `scripts/fake-apns` (HTTP/2 over TLS on loopback, provider tokens verified with the
/// public half of a key made here): a delivery per environment, dead tokens dropped, the provider token renewed on
/// 403, backoff on 429, and a device's rejection shown until a delivery succeeds (issue 30, seed 002).
@Suite("APNsDeliveryTests")
struct APNsDeliveryTests {
    static let keyId = "KEY1234567"
    static let teamId = "TEAM123456"
    static let bundleId = "com.example.reception"

    /// An emulator pointed at a fake APNs, with a key the fake knows; the emulator's backoff waits are recorded
    /// instead of slept.
    final class Rig {
        let fake: FakeAPNs
        let harness: EmulatorHarness
        let key: TestKey
        let sleeps = EmulatorLock<[Double]>([])

        /// `givenCA: false`: the emulator is not told the fake's certificate authority (`--apns-host` alone).
        init(clock: TestClock = TestClock(), givenCA: Bool = true) async throws {
            let fake = try FakeAPNs()
            let sleeps = sleeps
            harness = try EmulatorHarness(clock: clock) { configuration in
                fake.configure(&configuration)
                if !givenCA { configuration.apnsCAFile = nil }
                configuration.sleep = { seconds in sleeps.withLock { $0.append(seconds) } }
            }
            self.fake = fake
            key = try TestKey.generate()
            try await fake.register(key, keyId: APNsDeliveryTests.keyId, teamId: APNsDeliveryTests.teamId, topic: APNsDeliveryTests.bundleId)
        }

        /// `PUT /admin/apns` with the rig's key (Connect).
        @discardableResult
        func connect() async throws -> Reply {
            let reply = try await harness.admin(
                "PUT", "apns",
                json: ["key": key.privatePEM, "keyId": APNsDeliveryTests.keyId, "teamId": APNsDeliveryTests.teamId,
                       "bundleId": APNsDeliveryTests.bundleId])
            #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
            return reply
        }

        /// A device with a push token in `environment` and a conversation.
        func device(token: String, environment: String) async throws -> Device {
            let device = try await harness.register()
            let update = try await harness.api(
                "PATCH", "devices/me", token: device.token,
                json: EmulatorHarness.payload(["pushToken": token, "pushEnvironment": environment]))
            try #require(update.status == 200)
            try await harness.send(device, "help")
            return device
        }

        /// An agent reply to `device`, then waits until the provider is done with it; returns its outbox entry.
        func reply(to device: Device, _ text: String = "Your reply is ready.") async throws -> [String: Any] {
            let sent = try await harness.admin("POST", "devices/\(device.id)/messages", json: ["text": text])
            try #require(sent.status == 201)
            harness.emulator.waitForPushDeliveries()
            return try #require(try await outbox().last)
        }

        func outbox() async throws -> [[String: Any]] {
            try await harness.admin("GET", "push-outbox").json["pushes"] as? [[String: Any]] ?? []
        }

        func adminDevice(_ device: Device) async throws -> [String: Any] {
            let devices = try await harness.admin("GET", "devices").json["devices"] as? [[String: Any]] ?? []
            return try #require(devices.first { $0["id"] as? String == device.id })
        }
    }

    static func statuses(_ entry: [String: Any]) -> [Int] {
        (entry["attempts"] as? [[String: Any]] ?? []).compactMap { $0["status"] as? Int }
    }

    @Test(arguments: [("SANDBOX", "sandbox"), ("PRODUCTION", "production")])
    func aReplyIsDeliveredToTheHostOfTheDevicesEnvironment(environment: String, expected: String) async throws {
        let rig = try await Rig()
        try await rig.connect()
        let token = String(repeating: environment == "SANDBOX" ? "5a" : "9f", count: 32)
        let device = try await rig.device(token: token, environment: environment)
        let entry = try await rig.reply(to: device)
        let requests = try await rig.fake.requests()
        try #require(requests.count == 1)
        let request = requests[0]
        #expect(request["environment"] as? String == expected)
        #expect(request["http2"] as? Bool == true)
        #expect(request["path"] as? String == "/3/device/" + token)
        let jwt = try #require(request["jwt"] as? [String: Any])
        #expect(jwt["valid"] as? Bool == true)
        #expect(jwt["kid"] as? String == Self.keyId)
        #expect(jwt["iss"] as? String == Self.teamId)
        #expect(jwt["header"] as? [String] == ["alg", "kid"])
        #expect(jwt["claims"] as? [String] == ["iat", "iss"])
        let headers = try #require(request["headers"] as? [String: String])
        #expect(headers["apns-topic"] == Self.bundleId)
        #expect(headers["apns-push-type"] == "alert")
        #expect(headers["apns-priority"] == "10")
        #expect(Int(headers["apns-expiration"] ?? "") != nil)
        #expect(headers["apns-collapse-id"] == nil)
        // The payload APNs got is the one the outbox shows (seed 002 "Payload shape").
        let payload = try #require(request["payload"] as? [String: Any])
        #expect(NSDictionary(dictionary: payload).isEqual(to: try #require(entry["payload"] as? [String: Any])))
        #expect(((payload["aps"] as? [String: Any])?["alert"] as? [String: String])?["body"] == "Your reply is ready.")
        let answered = try #require(request["answered"] as? [String: Any])
        #expect(entry["delivery"] as? String == "delivered")
        #expect(entry["apnsId"] as? String == answered["apnsId"] as? String)
        #expect(Self.statuses(entry) == [200])
        // The request log shows the attempt, its status and the apns-id, never the token or the key.
        let log = try await rig.harness.admin("GET", "requests")
        let logged = try #require((log.json["requests"] as? [[String: Any]])?.first { $0["direction"] as? String == "apns" })
        #expect(logged["status"] as? Int == 200)
        #expect(logged["apnsId"] as? String == answered["apnsId"] as? String)
        #expect(logged["deviceId"] as? String == device.id)
        let logText = String(decoding: log.body, as: UTF8.self)
        #expect(!logText.contains(token))
        #expect(!logText.contains("PRIVATE KEY"))
    }

    @Test("a test server on this machine given with --apns-host alone (no CA bundle) is reached, unverified")
    func aLoopbackTestServerWithoutItsCAIsReached() async throws {
        let rig = try await Rig(givenCA: false)
        try await rig.connect()
        let device = try await rig.device(token: String(repeating: "d4", count: 32), environment: "PRODUCTION")
        let entry = try await rig.reply(to: device)
        #expect(entry["delivery"] as? String == "delivered")
        #expect(Self.statuses(entry) == [200])
    }

    @Test(arguments: [(410, "Unregistered"), (400, "BadDeviceToken")])
    func aDeadTokenIsDroppedAndTheRejectionShown(status: Int, reason: String) async throws {
        let rig = try await Rig()
        try await rig.connect()
        let token = String(repeating: "c3", count: 32)
        let device = try await rig.device(token: token, environment: "PRODUCTION")
        try await rig.fake.script(token, [(status, reason)])
        let entry = try await rig.reply(to: device)
        #expect(entry["delivery"] as? String == "token_dropped")
        #expect(Self.statuses(entry) == [status])
        let shown = try await rig.adminDevice(device)
        #expect(shown["pushToken"] is NSNull)
        let rejection = try #require(shown["pushRejection"] as? [String: Any])
        #expect(rejection["reason"] as? String == reason)
        #expect(rejection["status"] as? Int == status)
        #expect(rejection["tokenDropped"] as? Bool == true)
        // Without a token the next reply is not pushed at all.
        _ = try await rig.harness.admin("POST", "devices/\(device.id)/messages", json: ["text": "again"])
        rig.harness.emulator.waitForPushDeliveries()
        #expect(try await rig.outbox().count == 1)
        #expect(try await rig.fake.requests().count == 1)
    }

    @Test(arguments: ["ExpiredProviderToken", "InvalidProviderToken"])
    func aProviderTokenRefusedWith403IsRenewedOnce(reason: String) async throws {
        let rig = try await Rig()
        try await rig.connect()
        let token = String(repeating: "d4", count: 32)
        let device = try await rig.device(token: token, environment: "SANDBOX")
        try await rig.fake.script(token, [(403, reason)])
        let entry = try await rig.reply(to: device)
        #expect(entry["delivery"] as? String == "delivered")
        #expect(Self.statuses(entry) == [403, 200])
        let jwts = try await rig.fake.requests().compactMap { $0["jwt"] as? [String: Any] }
        #expect(jwts.count == 2)
        #expect(jwts.allSatisfy { $0["valid"] as? Bool == true })
        #expect(jwts[0]["sha256"] as? String != jwts[1]["sha256"] as? String)
        // A second 403 in a row is not renewed again: the push is rejected and the rejection shown.
        try await rig.fake.script(token, [(403, reason), (403, reason)])
        let second = try await rig.reply(to: device, "again")
        #expect(second["delivery"] as? String == "rejected")
        #expect(Self.statuses(second) == [403, 403])
        #expect((try await rig.adminDevice(device)["pushRejection"] as? [String: Any])?["reason"] as? String == reason)
    }

    @Test func aProviderTokenIsReusedThenRenewedByTheEmulatorsClock() async throws {
        let clock = TestClock()
        let rig = try await Rig(clock: clock)
        try await rig.connect()
        let device = try await rig.device(token: String(repeating: "e5", count: 32), environment: "PRODUCTION")
        _ = try await rig.reply(to: device, "one")
        clock.advance(by: 25 * 60)
        _ = try await rig.reply(to: device, "two")
        clock.advance(by: 30 * 60)
        _ = try await rig.reply(to: device, "three")
        let jwts = try await rig.fake.requests().compactMap { $0["jwt"] as? [String: Any] }
        try #require(jwts.count == 3)
        #expect(jwts[0]["sha256"] as? String == jwts[1]["sha256"] as? String)
        #expect(jwts[2]["sha256"] as? String != jwts[1]["sha256"] as? String)
        #expect(jwts[2]["valid"] as? Bool == true)
    }

    @Test func status429IsRetriedWithABoundedBackoff() async throws {
        let rig = try await Rig()
        try await rig.connect()
        let token = String(repeating: "f6", count: 32)
        let device = try await rig.device(token: token, environment: "PRODUCTION")
        try await rig.fake.script(token, [(429, "TooManyRequests"), (503, "ServiceUnavailable")])
        let entry = try await rig.reply(to: device)
        #expect(Self.statuses(entry) == [429, 503, 200])
        #expect(entry["delivery"] as? String == "delivered")
        #expect(rig.sleeps.withLock { $0 } == [1, 2])
        // 429 every time: four attempts, then the push is given up and the rejection shown.
        rig.sleeps.withLock { $0 = [] }
        try await rig.fake.script(token, Array(repeating: (429, "TooManyRequests"), count: 6))
        let refused = try await rig.reply(to: device, "again")
        #expect(Self.statuses(refused) == [429, 429, 429, 429])
        #expect(refused["delivery"] as? String == "rejected")
        #expect(rig.sleeps.withLock { $0 } == [1, 2, 4])
        #expect((try await rig.adminDevice(device)["pushRejection"] as? [String: Any])?["status"] as? Int == 429)
    }

    @Test func aRejectionStaysShownUntilADeliverySucceeds() async throws {
        let rig = try await Rig()
        try await rig.connect()
        let token = String(repeating: "a7", count: 32)
        let device = try await rig.device(token: token, environment: "SANDBOX")
        try await rig.fake.script(token, [(400, "DeviceTokenNotForTopic")])
        let refused = try await rig.reply(to: device)
        #expect(refused["delivery"] as? String == "rejected")
        let shown = try await rig.adminDevice(device)
        #expect((shown["pushRejection"] as? [String: Any])?["reason"] as? String == "DeviceTokenNotForTopic")
        #expect(shown["pushToken"] as? String == token)
        // Send test delivers for real once connected, and a delivery clears the rejection.
        let test = try await rig.harness.admin("POST", "devices/\(device.id)/test-push")
        #expect(test.status == 201)
        #expect(test.json["delivery"] as? String == "queued")
        rig.harness.emulator.waitForPushDeliveries()
        let id = try #require(test.json["id"] as? Int)
        let followed = try await rig.harness.admin("GET", "push-outbox/\(id)")
        #expect(followed.json["delivery"] as? String == "delivered")
        #expect(try await rig.fake.requests().last?["headers"].flatMap { $0 as? [String: String] }?["apns-collapse-id"] == "reception-test")
        #expect(try await rig.adminDevice(device)["pushRejection"] is NSNull)
    }
}
