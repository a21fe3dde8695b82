import Foundation
import Testing

/// Seed 002 push payloads, read back from the outbox through the admin API.
@Suite("PushOutboxTests")
struct PushOutboxTests {
    /// A device with a push token and a conversation, reporting `fields` (language, locale, …) besides.
    static func pushDevice(_ harness: EmulatorHarness, badge: Bool? = true, fields: [String: Any] = [:]) async throws
        -> Device
    {
        var extra: [String: Any] = fields
        if let badge { extra["updatesAppBadge"] = badge } else { extra["updatesAppBadge"] = NSNull() }
        let device = try await harness.register(extra)
        _ = try await harness.api(
            "PATCH", "devices/me", token: device.token,
            json: EmulatorHarness.payload(extra.merging(["pushToken": "a1b2", "pushEnvironment": "SANDBOX"]) { $1 }))
        try await harness.send(device, "help")
        return device
    }

    static func lastPayload(_ harness: EmulatorHarness) async throws -> [String: Any]? {
        let pushes = try await harness.admin("GET", "push-outbox").json["pushes"] as? [[String: Any]]
        return pushes?.last?["payload"] as? [String: Any]
    }

    @Test func agentReplyWritesTheDocumentedPayload() async throws {
        let harness = try EmulatorHarness()
        let device = try await Self.pushDevice(harness)
        _ = try await harness.admin("POST", "devices/\(device.id)/messages", json: ["text": "Your reply is ready."])
        let payload = try #require(try await Self.lastPayload(harness))
        let aps = try #require(payload["aps"] as? [String: Any])
        let conversationId = try #require((payload["reception"] as? [String: Any])?["conversationId"] as? String)
        #expect(aps["alert"] as? [String: String] == ["title": "New message", "body": "Your reply is ready."])
        #expect(aps["badge"] as? Int == 1)
        #expect(aps["sound"] as? String == "default")
        #expect(aps["thread-id"] as? String == conversationId)
    }

    @Test func badgeIsOmittedWhenTheDeviceSavedUpdatesAppBadgeFalse() async throws {
        let harness = try EmulatorHarness()
        let device = try await Self.pushDevice(harness, badge: false)
        _ = try await harness.admin("POST", "devices/\(device.id)/messages", json: ["text": "x"])
        let aps = try #require(try await Self.lastPayload(harness)?["aps"] as? [String: Any])
        #expect(aps["badge"] == nil)
        #expect(aps["alert"] != nil)
    }

    @Test func templatesSenderNameSoundAndShowMessage() async throws {
        let harness = try EmulatorHarness()
        let device = try await Self.pushDevice(harness)
        let settings = try await harness.admin(
            "PATCH", "app",
            json: ["push": ["senderName": "  Mia  ", "sound": false, "bodyTemplate": "{agent} wrote: {message}"]])
        #expect(settings.status == 200)
        _ = try await harness.admin("POST", "devices/\(device.id)/messages", json: ["text": "Hi"])
        var aps = try #require(try await Self.lastPayload(harness)?["aps"] as? [String: Any])
        #expect(aps["alert"] as? [String: String] == ["title": "New message from Mia", "body": "Mia wrote: Hi"])
        #expect(aps["sound"] == nil)
        _ = try await harness.admin("PATCH", "app", json: ["push": ["showMessage": false, "bodyTemplate": NSNull()]])
        _ = try await harness.admin("POST", "devices/\(device.id)/messages", json: ["text": "private"])
        aps = try #require(try await Self.lastPayload(harness)?["aps"] as? [String: Any])
        #expect((aps["alert"] as? [String: String])?["body"] == "Open the app to read the reply.")
        let tooLong = try await harness.admin("PATCH", "app", json: ["push": ["titleTemplate": String(repeating: "t", count: 121)]])
        #expect(tooLong.status == 400)
    }

    @Test func renderedTextsAreCappedAndEmptyTitlesFallBackToTheAppName() async throws {
        let harness = try EmulatorHarness()
        let device = try await Self.pushDevice(harness)
        _ = try await harness.admin(
            "PATCH", "app", json: ["push": ["appName": "Acme", "titleTemplate": "{message}{message}", "bodyTemplate": "{message}"]])
        _ = try await harness.admin("POST", "devices/\(device.id)/messages", json: ["text": String(repeating: "a", count: 600)])
        var alert = try #require((try await Self.lastPayload(harness)?["aps"] as? [String: Any])?["alert"] as? [String: String])
        #expect(alert["title"]?.count == 100)
        #expect(alert["body"]?.count == 500)
        _ = try await harness.admin("PATCH", "app", json: ["push": ["titleTemplate": "{agent}", "senderName": NSNull()]])
        _ = try await harness.admin("POST", "devices/\(device.id)/messages", json: ["photos": [["data": "/9j/4AAQ"]]])
        alert = try #require((try await Self.lastPayload(harness)?["aps"] as? [String: Any])?["alert"] as? [String: String])
        #expect(alert["title"] == "Support")
        #expect(alert["body"] == "📷 Photo")
    }

    @Test func offerCardsPushOnlyWithOfferPushesOn() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register(["paywalls": [["id": "pro", "title": "Pro"]]])
        _ = try await harness.api(
            "PATCH", "devices/me", token: device.token,
            json: EmulatorHarness.payload(["paywalls": [["id": "pro", "title": "Pro"]], "pushToken": "ab", "pushEnvironment": "SANDBOX"]))
        _ = try await harness.admin("POST", "devices/\(device.id)/messages", json: ["kind": "PAYWALL", "paywallId": "pro"])
        #expect((try await harness.admin("GET", "push-outbox").json["pushes"] as? [Any])?.isEmpty == true)
        _ = try await harness.admin("PATCH", "app", json: ["push": ["offerPushes": true]])
        _ = try await harness.admin("POST", "devices/\(device.id)/messages", json: ["kind": "PAYWALL", "paywallId": "pro"])
        let alert = (try await Self.lastPayload(harness)?["aps"] as? [String: Any])?["alert"] as? [String: String]
        #expect(alert?["body"] == "See your discount")
    }

    @Test func afterLogoutRepliesNoLongerPush() async throws {
        let harness = try EmulatorHarness()
        let device = try await Self.pushDevice(harness)
        _ = try await harness.api("POST", "devices/me/logout", json: ["sessionSecret": device.sessionSecret])
        _ = try await harness.admin("POST", "devices/\(device.id)/messages", json: ["text": "x"])
        #expect((try await harness.admin("GET", "push-outbox").json["pushes"] as? [Any])?.isEmpty == true)
    }
}
