import Foundation
import ReceptionEmulator
import Testing

/// Settings → Apple Push Notifications through the admin API (seed 002 "Configure APNs in the dashboard"): Connect
/// checks the key and identifiers, saving sends nothing, Replace key is optional, Disconnect keeps the identifiers
/// and notification settings, and the key never leaves the emulator unless a snapshot asks for it.
@Suite("APNsConnectionTests")
struct APNsConnectionTests {
    static func body(_ key: String?, keyId: String = "KEY1234567", teamId: String = "TEAM123456") -> [String: Any] {
        var body: [String: Any] = ["keyId": keyId, "teamId": teamId, "bundleId": "com.example.reception"]
        if let key { body["key"] = key }
        return body
    }

    @Test func connectShowsTheIdentifiersAndNeverTheKey() async throws {
        let harness = try EmulatorHarness()
        let key = try TestKey.generate()
        let before = try await harness.admin("GET", "app")
        #expect((before.json["apns"] as? [String: Any])?["connected"] as? Bool == false)
        let saved = try await harness.admin("PUT", "apns", json: Self.body(key.privatePEM))
        #expect(saved.status == 200)
        let app = try await harness.admin("GET", "app")
        let apns = try #require(app.json["apns"] as? [String: Any])
        #expect(apns["connected"] as? Bool == true)
        #expect(apns["keyId"] as? String == "KEY1234567")
        #expect(apns["teamId"] as? String == "TEAM123456")
        #expect(apns["bundleId"] as? String == "com.example.reception")
        #expect(apns["keySavedAt"] is String)
        let keyLine = String(key.privatePEM.split(separator: "\n")[1])
        for reply in [saved, app, try await harness.admin("GET", "requests"), try await harness.admin("GET", "push-outbox")] {
            let text = String(decoding: reply.body, as: UTF8.self)
            #expect(!text.contains(keyLine) && !text.contains("PRIVATE KEY"))
        }
        // Saving sends nothing: no outbox entry, no job for the provider.
        harness.emulator.waitForPushDeliveries()
        #expect((try await harness.admin("GET", "push-outbox").json["pushes"] as? [Any])?.isEmpty == true)
    }

    @Test(arguments: [
        ("keyId", "KEY123456", "invalid_request"), ("keyId", "KEY12345678", "invalid_request"),
        ("keyId", "KEY-234567", "invalid_request"), ("teamId", "TEAM", "invalid_request"),
        ("bundleId", "com.example/evil", "invalid_request"), ("bundleId", "", "invalid_request"),
        ("bundleId", "com.example\r\nx-evil: 1", "invalid_request"),
        ("bundleId", String(repeating: "a", count: 156), "invalid_request"), ("keyId", "#number", "invalid_request"),
        ("key", "-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----", "invalid_apns_key"),
    ])
    func badFieldsAreRefusedWithStableCodes(field: String, value: String, code: String) async throws {
        let harness = try EmulatorHarness()
        var body = Self.body(try TestKey.generate().privatePEM)
        body[field] = value == "#number" ? 1_234_567_890 : value
        let reply = try await harness.admin("PUT", "apns", json: body)
        #expect(reply.status == 400)
        #expect(reply.errorCode == code)
        #expect((try await harness.admin("GET", "app").json["apns"] as? [String: Any])?["connected"] as? Bool == false)
    }

    @Test func aKeyOnAnotherCurveIsRefusedAndNoKeyAtAllIsRequired() async throws {
        let harness = try EmulatorHarness()
        let p384 = try TestKey.generate(curve: 715)  // NID_secp384r1
        #expect(try await harness.admin("PUT", "apns", json: Self.body(p384.privatePEM)).errorCode == "invalid_apns_key")
        #expect(try await harness.admin("PUT", "apns", json: Self.body(nil)).errorCode == "apns_key_required")
    }

    @Test func aBodyOverTheLimitIsRefusedFromItsHead() async throws {
        let harness = try EmulatorHarness()
        let reply = try await harness.raw(
            "PUT", "/admin/apns",
            headers: ["Authorization": "Bearer \(harness.adminToken)", "Content-Type": "application/json"],
            body: Data(repeating: 0x20, count: BodyLimits.apns + 1))
        #expect(reply.status == 413)
    }

    @Test func editKeepsTheKeyReplaceSwapsItDisconnectKeepsIdentifiersAndContent() async throws {
        let harness = try EmulatorHarness()
        _ = try await harness.admin("PATCH", "app", json: ["push": ["senderName": "Mia", "offerPushes": true]])
        let first = try TestKey.generate()
        _ = try await harness.admin("PUT", "apns", json: Self.body(first.privatePEM))
        let savedAt = (try await harness.admin("GET", "app").json["apns"] as? [String: Any])?["keySavedAt"] as? String
        // Save changes without Replace key: the key stays.
        let edited = try await harness.admin("PUT", "apns", json: Self.body(nil, teamId: "TEAM654321"))
        #expect(edited.json["connected"] as? Bool == true)
        #expect(edited.json["teamId"] as? String == "TEAM654321")
        #expect(edited.json["keySavedAt"] as? String == savedAt)
        let snapshotWithKey = try await harness.admin("GET", "snapshot?includeKey=true")
        #expect(String(decoding: snapshotWithKey.body, as: UTF8.self).contains(String(first.privatePEM.split(separator: "\n")[1])))
        // Disconnect: the key goes, identifiers and notification content stay.
        let disconnected = try await harness.admin("DELETE", "apns")
        #expect(disconnected.json["connected"] as? Bool == false)
        let app = try await harness.admin("GET", "app").json
        let apns = try #require(app["apns"] as? [String: Any])
        #expect(apns["keyId"] as? String == "KEY1234567" && apns["teamId"] as? String == "TEAM654321")
        #expect(apns["keySavedAt"] is NSNull)
        let push = try #require(app["push"] as? [String: Any])
        #expect(push["senderName"] as? String == "Mia" && push["offerPushes"] as? Bool == true)
        // Reconnecting after Disconnect needs a key again.
        #expect(try await harness.admin("PUT", "apns", json: Self.body(nil)).errorCode == "apns_key_required")
    }

    @Test func snapshotsLeaveTheKeyOutUnlessAskedAndImportFollowsThem() async throws {
        let harness = try EmulatorHarness()
        let key = try TestKey.generate()
        _ = try await harness.admin("PUT", "apns", json: Self.body(key.privatePEM))
        let keyLine = String(key.privatePEM.split(separator: "\n")[1])
        let plain = try await harness.admin("GET", "snapshot")
        #expect(!String(decoding: plain.body, as: UTF8.self).contains(keyLine))
        let withKey = try await harness.admin("GET", "snapshot?includeKey=true")
        #expect(String(decoding: withKey.body, as: UTF8.self).contains(keyLine))
        // A snapshot without the key leaves the imported state disconnected, identifiers kept; one with it connects.
        let other = try EmulatorHarness()
        #expect(try await other.raw("PUT", "/admin/snapshot", headers: ["Authorization": "Bearer \(other.adminToken)"], body: plain.body).status == 200)
        let imported = try #require(try await other.raw("GET", "/admin/app", headers: ["Authorization": "Bearer \(harness.adminToken)"]).json["apns"] as? [String: Any])
        #expect(imported["connected"] as? Bool == false && imported["keyId"] as? String == "KEY1234567")
        #expect(try await other.raw("PUT", "/admin/snapshot", headers: ["Authorization": "Bearer \(harness.adminToken)"], body: withKey.body).status == 200)
        let reconnected = try #require(try await other.raw("GET", "/admin/app", headers: ["Authorization": "Bearer \(harness.adminToken)"]).json["apns"] as? [String: Any])
        #expect(reconnected["connected"] as? Bool == true)
    }

    @Test func withoutAKeySimulatedCredentialsStillWriteTheOutboxOnly() async throws {
        let harness = try EmulatorHarness()
        let device = try await PushOutboxTests.pushDevice(harness)
        _ = try await harness.admin("POST", "devices/\(device.id)/messages", json: ["text": "hi"])
        let pushes = try await harness.admin("GET", "push-outbox").json["pushes"] as? [[String: Any]] ?? []
        #expect(pushes.last?["delivery"] as? String == "outbox")
        #expect((pushes.last?["attempts"] as? [Any])?.isEmpty == true)
    }
}
