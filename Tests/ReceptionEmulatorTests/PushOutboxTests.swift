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

    /// Seed 002 "Payload": a device that never reported `updatesAppBadge` (older clients) counts as true, so the
    /// badge carries its unread count (issue 52).
    @Test func aDeviceThatNeverReportedItsBadgePreferenceGetsTheUnreadCount() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register(omitting: ["updatesAppBadge"])
        _ = try await harness.api(
            "PATCH", "devices/me", token: device.token,
            json: EmulatorHarness.payload(["pushToken": "a1b2", "pushEnvironment": "SANDBOX"]).filter { $0.key != "updatesAppBadge" })
        try await harness.send(device, "help")
        let record = try await harness.admin("GET", "devices/\(device.id)").json
        #expect(record["updatesAppBadge"] == nil || record["updatesAppBadge"] is NSNull, "the device never reported it: \(record)")
        _ = try await harness.admin("POST", "devices/\(device.id)/messages", json: ["text": "one"])
        _ = try await harness.admin("POST", "devices/\(device.id)/messages", json: ["text": "two"])
        let aps = try #require(try await Self.lastPayload(harness)?["aps"] as? [String: Any])
        #expect(aps["badge"] as? Int == 2)
    }

    /// Seed 002 "Payload": "With false, aps.badge is omitted, including when the count is zero" (a test push to a
    /// device that read everything); with true the same push carries `"badge": 0` (issue 52).
    @Test(arguments: [true, false])
    func aBadgePreferenceAtCountZero(updatesAppBadge: Bool) async throws {
        let harness = try EmulatorHarness()
        let device = try await Self.pushDevice(harness, badge: updatesAppBadge)
        _ = try await harness.admin("PATCH", "app", json: ["push": ["configured": true]])
        let test = try await harness.admin("POST", "devices/\(device.id)/test-push")
        #expect(test.status == 201)
        let aps = try #require(try await Self.lastPayload(harness)?["aps"] as? [String: Any])
        if updatesAppBadge {
            #expect(aps["badge"] as? Int == 0)
        } else {
            #expect(aps["badge"] == nil, "\(aps)")
        }
        #expect(aps["alert"] != nil && aps["sound"] as? String == "default")
    }

    /// Seed 004 "Push notifications": after the server saved false, "new support pushes omit aps.badge entirely
    /// while keeping their alert and configured sound" — sound on and sound off (issue 52).
    @Test(arguments: [true, false])
    func aPushWithoutABadgeKeepsItsAlertAndConfiguredSound(sound: Bool) async throws {
        let harness = try EmulatorHarness()
        let device = try await Self.pushDevice(harness, badge: false)
        _ = try await harness.admin("PATCH", "app", json: ["push": ["sound": sound]])
        _ = try await harness.admin("POST", "devices/\(device.id)/messages", json: ["text": "Your order shipped"])
        let aps = try #require(try await Self.lastPayload(harness)?["aps"] as? [String: Any])
        #expect(aps["badge"] == nil)
        #expect(aps["alert"] as? [String: String] == ["title": "New message", "body": "Your order shipped"])
        #expect(aps["sound"] as? String == (sound ? "default" : nil))
    }

    /// Seed 002 "Offer pushes": "Your notification templates, Show message, and Sound settings also apply. Turning off
    /// Show message replaces the preview with a generic prompt" (issue 52).
    @Test func anOfferPushFollowsShowMessageAndSound() async throws {
        let harness = try EmulatorHarness()
        let device = try await Self.pushDevice(harness, fields: ["paywalls": [["id": "pro", "title": "Pro"]]])
        _ = try await harness.admin("PATCH", "app", json: ["push": ["offerPushes": true]])
        _ = try await harness.admin(
            "POST", "devices/\(device.id)/messages", json: ["kind": "PAYWALL", "paywallId": "pro", "text": "50% off today"])
        var aps = try #require(try await Self.lastPayload(harness)?["aps"] as? [String: Any])
        #expect((aps["alert"] as? [String: String])?["body"] == "50% off today" && aps["sound"] as? String == "default")
        _ = try await harness.admin("PATCH", "app", json: ["push": ["showMessage": false, "sound": false]])
        _ = try await harness.admin(
            "POST", "devices/\(device.id)/messages", json: ["kind": "PAYWALL", "paywallId": "pro", "text": "60% off now"])
        let payload = try #require(try await Self.lastPayload(harness))
        aps = try #require(payload["aps"] as? [String: Any])
        #expect((aps["alert"] as? [String: String])?["body"] == "Open the app to read the reply.")
        #expect(aps["sound"] == nil, "Sound off omits the sound")
        let text = String(decoding: try JSONSerialization.data(withJSONObject: payload), as: UTF8.self)
        #expect(!text.contains("60%"), "the offer's text is nowhere in the payload")
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
