import Foundation
import ReceptionEmulator
import Testing

/// The dashboard signals of the product documents in the admin API, over loopback: delivered and read receipts of
/// agent replies (seed 001 "delivery and read status"), "In chat" and "Last active in chat" (seed 001, seed 004:
/// unread requests count as neither), marking one chat unverified (seed 000) and "Send test" (seed 002).
@Suite("DashboardSignalsTests")
struct DashboardSignalsTests {
    /// Seconds since 1970 of a date the admin API shows, read with Foundation's parser; nil for null or absent.
    static func seconds(_ value: Any?) -> Double? {
        guard let text = value as? String else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)?.timeIntervalSince1970
    }

    /// The device's whole history as the admin API lists it.
    static func history(_ harness: EmulatorHarness, _ device: Device) async throws -> [[String: Any]] {
        let reply = try await harness.admin("GET", "devices/\(device.id)/messages")
        try #require(reply.status == 200)
        return try #require(reply.json["messages"] as? [[String: Any]])
    }

    /// `(deliveredAt, readAt)` in seconds of the message with `seq`.
    static func receipts(_ harness: EmulatorHarness, _ device: Device, seq: Int) async throws -> (Double?, Double?) {
        let message = try #require(try await history(harness, device).first { $0["seq"] as? Int == seq })
        return (seconds(message["deliveredAt"]), seconds(message["readAt"]))
    }

    /// The device as `GET /admin/devices/<id>` shows it.
    static func shown(_ harness: EmulatorHarness, _ device: Device) async throws -> [String: Any] {
        let reply = try await harness.admin("GET", "devices/\(device.id)")
        try #require(reply.status == 200)
        return reply.json
    }

    /// Posts an agent reply and returns its `seq`.
    @discardableResult
    static func reply(_ harness: EmulatorHarness, _ device: Device, _ text: String) async throws -> Int {
        let reply = try await harness.admin("POST", "devices/\(device.id)/messages", json: ["text": text])
        try #require(reply.status == 201)
        return try #require((reply.json["message"] as? [String: Any])?["seq"] as? Int)
    }

    /// Whether the device leaves "In chat" within ten seconds (the emulator notices a vanished client when its next
    /// ping cannot be written).
    static func leavesTheChat(_ harness: EmulatorHarness, _ device: Device) async throws -> Bool {
        for _ in 0..<100 {
            if try await shown(harness, device)["inChat"] as? Bool == false { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    // MARK: Delivered and read receipts

    @Test func theWindowAndPagesDeliverTheAgentRepliesTheyCarry() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        try await harness.send(device, "hi")
        let first = try await Self.reply(harness, device, "first")
        var history = try await Self.history(harness, device)
        // Only agent replies carry receipts.
        #expect(history.first?.keys.contains("deliveredAt") == false)
        #expect(history.first?.keys.contains("readAt") == false)
        #expect(history.last?["deliveredAt"] is NSNull)
        #expect(history.last?["readAt"] is NSNull)

        harness.clock.advance(by: 10)
        let windowTime = harness.clock.now
        #expect(try await harness.api("GET", "conversation", token: device.token).status == 200)
        #expect(try await Self.receipts(harness, device, seq: first) == (windowTime, nil))

        let second = try await Self.reply(harness, device, "second")
        harness.clock.advance(by: 10)
        // A page that does not carry the reply does not deliver it.
        #expect(try await harness.api("GET", "conversation/messages?after=\(second)", token: device.token).status == 200)
        #expect(try await Self.receipts(harness, device, seq: second) == (nil, nil))
        #expect(try await harness.api("GET", "conversation/messages?after=\(first)", token: device.token).status == 200)
        let pageTime = harness.clock.now
        #expect(try await Self.receipts(harness, device, seq: second) == (pageTime, nil))
        // The first delivery stays; fetching again does not move it.
        #expect(try await Self.receipts(harness, device, seq: first) == (windowTime, nil))
        history = try await Self.history(harness, device)
        #expect(history.count == 3)
    }

    @Test func readingCoversTheAgentRepliesUpToTheReadSequence() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        try await harness.send(device, "hi")
        let first = try await Self.reply(harness, device, "a")
        let second = try await Self.reply(harness, device, "b")
        let window = try await harness.api("GET", "conversation", token: device.token)
        let fetched = harness.clock.now
        let conversationId = try #require((window.json["conversation"] as? [String: Any])?["id"] as? String)

        harness.clock.advance(by: 10)
        let firstRead = harness.clock.now
        let read = try await harness.api(
            "POST", "conversation/read", token: device.token, json: ["conversationId": conversationId, "throughSeq": first])
        #expect(read.json["unreadCount"] as? Int == 1)
        #expect(try await Self.receipts(harness, device, seq: first) == (fetched, firstRead))
        #expect(try await Self.receipts(harness, device, seq: second) == (fetched, nil))

        harness.clock.advance(by: 10)
        _ = try await harness.api(
            "POST", "conversation/read", token: device.token, json: ["conversationId": conversationId, "throughSeq": second])
        #expect(try await Self.receipts(harness, device, seq: first) == (fetched, firstRead))
        #expect(try await Self.receipts(harness, device, seq: second) == (fetched, harness.clock.now))
    }

    @Test func aReplyBelowTheReadPositionArrivesRead() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        try await harness.send(device, "hi")
        let conversationId = try #require(try await Self.shown(harness, device)["conversationId"] as? String)
        // A client that reads ahead of the last message (spec 3.9 keeps max(current, throughSeq)).
        let read = try await harness.api(
            "POST", "conversation/read", token: device.token, json: ["conversationId": conversationId, "throughSeq": 10])
        #expect(read.json["readSeq"] as? Int == 10)
        harness.clock.advance(by: 10)
        let reply = try await Self.reply(harness, device, "already covered")
        #expect(try await harness.api("GET", "conversation/unread", token: device.token).json["unreadCount"] as? Int == 0)
        #expect(try await Self.receipts(harness, device, seq: reply) == (harness.clock.now, harness.clock.now))
    }

    @Test func aLegacyReadReadsEveryReplyAndAReadReplyCountsAsDelivered() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        try await harness.send(device, "hi")
        let reply = try await Self.reply(harness, device, "never fetched")
        harness.clock.advance(by: 10)
        let read = try await harness.api("POST", "conversation/read", token: device.token)
        #expect(read.status == 200)
        #expect(try await Self.receipts(harness, device, seq: reply) == (harness.clock.now, harness.clock.now))
    }

    @Test func anUnreadRequestChangesNeitherReceiptsNorLastActiveInChat() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        try await harness.send(device, "hi")
        let sentAt = harness.clock.now
        let reply = try await Self.reply(harness, device, "are you there?")
        harness.clock.advance(by: 60)
        let unread = try await harness.api("GET", "conversation/unread", token: device.token)
        #expect(unread.status == 200)
        #expect(unread.json["unreadCount"] as? Int == 1)
        #expect(try await Self.receipts(harness, device, seq: reply) == (nil, nil))
        #expect(Self.seconds(try await Self.shown(harness, device)["lastActiveInChatAt"]) == sentAt)
    }

    // MARK: In chat and Last active in chat

    /// Each case: a request one minute after the device's first send, and whether it is chat activity.
    @Test(arguments: [
        ("history", true), ("page", true), ("send", true), ("read", true), ("typing", true),
        ("unread", false), ("device update", false), ("token refresh", false),
    ])
    func lastActiveInChatFollowsChatRequestsOnly(request: String, isChatActivity: Bool) async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        // Registration is not chat activity.
        #expect(try await Self.shown(harness, device)["lastActiveInChatAt"] is NSNull)
        try await harness.send(device, "hi")
        let sentAt = harness.clock.now
        let conversationId = try #require(try await Self.shown(harness, device)["conversationId"] as? String)
        harness.clock.advance(by: 60)
        let reply: Reply
        switch request {
        case "history": reply = try await harness.api("GET", "conversation", token: device.token)
        case "page": reply = try await harness.api("GET", "conversation/messages?after=0", token: device.token)
        case "send": reply = try await harness.send(device, "again")
        case "read":
            reply = try await harness.api(
                "POST", "conversation/read", token: device.token, json: ["conversationId": conversationId, "throughSeq": 1])
        case "typing": reply = try await harness.api("POST", "conversation/typing", token: device.token, json: ["typing": true])
        case "unread": reply = try await harness.api("GET", "conversation/unread", token: device.token)
        case "device update":
            reply = try await harness.api(
                "PATCH", "devices/me", token: device.token, json: EmulatorHarness.payload(["metadata": ["plan": "pro"]]))
        default: reply = try await harness.api("POST", "devices/me/token", json: ["sessionSecret": device.sessionSecret])
        }
        #expect((200...201).contains(reply.status))
        let expected = isChatActivity ? harness.clock.now : sentAt
        #expect(Self.seconds(try await Self.shown(harness, device)["lastActiveInChatAt"]) == expected)
    }

    @Test func aStreamPutsTheDeviceInChatAndDeliversTheRepliesItAnnounces() async throws {
        let harness = try EmulatorHarness(pingInterval: 0.1)
        let device = try await harness.register()
        try await harness.send(device, "hi")
        #expect(try await Self.shown(harness, device)["inChat"] as? Bool == false)
        harness.clock.advance(by: 30)
        let stream = try EventStreamTests.open(harness, device)
        #expect(stream.read(until: ": ping\n"))
        var shown = try await Self.shown(harness, device)
        #expect(shown["inChat"] as? Bool == true)
        #expect(Self.seconds(shown["lastActiveInChatAt"]) == harness.clock.now)

        harness.clock.advance(by: 30)
        let reply = try await Self.reply(harness, device, "while you are here")
        #expect(stream.read(until: "data: changed\n"))
        // Announced on the stream, with no fetch: delivered, not read.
        #expect(try await Self.receipts(harness, device, seq: reply) == (harness.clock.now, nil))
        // A stream carrying replies is not itself new chat activity.
        shown = try await Self.shown(harness, device)
        #expect(Self.seconds(shown["lastActiveInChatAt"]) == harness.clock.now - 30)
    }

    @Test func inChatEndsWhenTheClientLeavesOrTheServerEndsTheStream() async throws {
        let harness = try EmulatorHarness(pingInterval: 0.1)
        let device = try await harness.register()
        try await harness.send(device, "hi")
        let leaving = try EventStreamTests.open(harness, device)
        #expect(leaving.read(until: ": ping\n"))
        #expect(try await Self.shown(harness, device)["inChat"] as? Bool == true)
        leaving.disconnect()
        #expect(try await Self.leavesTheChat(harness, device))

        let ended = try EventStreamTests.open(harness, device)
        #expect(ended.read(until: ": ping\n"))
        #expect(try await Self.shown(harness, device)["inChat"] as? Bool == true)
        _ = try await harness.admin("POST", "devices/\(device.id)/reset")
        #expect(ended.read(until: "data: reconnect\n"))
        #expect(try await Self.leavesTheChat(harness, device))
    }

    // MARK: Mark unverified

    @Test func unverifyClearsOnlyThatDeviceAndAFreshTokenVerifiesItAgain() async throws {
        let harness = try EmulatorHarness()
        let claims = IdentityVerificationTests.claims(["name": "Ada"], clock: harness.clock)
        let ada = try await harness.register(["identityToken": try IdentityTokenMinter.mint(claims, secret: harness.identitySecret)])
        let other = try await harness.register([
            "identityToken": try IdentityTokenMinter.mint(
                IdentityVerificationTests.claims(["user_id": "user-7"], clock: harness.clock), secret: harness.identitySecret)
        ])
        let unverified = try await harness.admin("POST", "devices/\(ada.id)/unverify")
        #expect(unverified.status == 200)
        #expect(unverified.json["verifiedUserId"] is NSNull)
        #expect(unverified.json["verifiedName"] is NSNull)
        #expect(try await Self.shown(harness, ada)["verifiedUserId"] is NSNull)
        #expect(try await Self.shown(harness, other)["verifiedUserId"] as? String == "user-7")

        // With only verified users, the unverified chat may read but not send; the other one still sends.
        _ = try await harness.admin("PATCH", "app", json: ["onlyVerifiedUsers": true])
        #expect(try await harness.send(ada, "refused").errorCode == "verification_required")
        #expect(try await harness.send(other, "still verified").status == 201)
        let load = try await harness.api("GET", "conversation", token: ada.token)
        #expect((load.json["device"] as? [String: Any])?["verificationRequired"] as? Bool == true)

        let fresh = try IdentityTokenMinter.mint(claims, secret: harness.identitySecret)
        let update = try await harness.api(
            "PATCH", "devices/me", token: ada.token, json: EmulatorHarness.payload(["identityToken": fresh]))
        #expect(update.json["verifiedUserId"] as? String == "user-42")
        #expect(try await harness.send(ada, "verified again").status == 201)

        let unknown = try await harness.admin("POST", "devices/dev_unknown/unverify")
        #expect(unknown.status == 404)
        #expect(unknown.errorCode == "device_not_found")
    }

    // MARK: Send test

    @Test func sendTestWritesATestPushWithTheSavedContentSettingsAndNoMessage() async throws {
        let harness = try EmulatorHarness()
        let device = try await PushOutboxTests.pushDevice(harness)
        try await Self.reply(harness, device, "a real reply")
        _ = try await harness.admin("PATCH", "app", json: ["push": ["senderName": "Mia", "sound": false]])
        let conversationId = try #require(try await Self.shown(harness, device)["conversationId"] as? String)
        let messagesBefore = try await Self.history(harness, device).count

        let sent = try await harness.admin("POST", "devices/\(device.id)/test-push")
        #expect(sent.status == 201)
        let pushes = try #require(try await harness.admin("GET", "push-outbox").json["pushes"] as? [[String: Any]])
        #expect(pushes.map { $0["test"] as? Bool } == [false, true])
        let push = try #require(pushes.last)
        #expect(push["id"] as? Int == sent.json["id"] as? Int)
        #expect(push["deviceId"] as? String == device.id)
        #expect(push["pushToken"] as? String == "a1b2")
        #expect(push["pushEnvironment"] as? String == "SANDBOX")
        let payload = try #require(push["payload"] as? [String: Any])
        let aps = try #require(payload["aps"] as? [String: Any])
        #expect(aps["alert"] as? [String: String] == ["title": "New message from Mia", "body": "This is a test notification."])
        #expect(aps["badge"] as? Int == 1)
        #expect(aps["sound"] == nil)
        #expect(aps["thread-id"] as? String == conversationId)
        #expect((payload["reception"] as? [String: Any])?["conversationId"] as? String == conversationId)
        // A test creates no chat message.
        #expect(try await Self.history(harness, device).count == messagesBefore)
    }

    @Test func sendTestNeedsCredentialsAPushTokenAndAConversation() async throws {
        let harness = try EmulatorHarness()
        let withoutToken = try await harness.register()
        try await harness.send(withoutToken, "hi")
        let withoutConversation = try await harness.register(["pushToken": "c3d4", "pushEnvironment": "PRODUCTION"])
        let ready = try await PushOutboxTests.pushDevice(harness)
        _ = try await harness.admin("PATCH", "app", json: ["push": ["configured": false]])
        let unconfigured = try await harness.admin("POST", "devices/\(ready.id)/test-push")
        #expect(unconfigured.status == 409)
        #expect(unconfigured.errorCode == "push_not_configured")
        _ = try await harness.admin("PATCH", "app", json: ["push": ["configured": true]])
        for (device, code) in [(withoutToken, "no_push_token"), (withoutConversation, "no_conversation")] {
            let reply = try await harness.admin("POST", "devices/\(device.id)/test-push")
            #expect(reply.status == 409)
            #expect(reply.errorCode == code)
        }
        #expect((try await harness.admin("GET", "push-outbox").json["pushes"] as? [Any])?.isEmpty == true)
        #expect(try await harness.admin("POST", "devices/\(ready.id)/test-push").status == 201)
    }

    // MARK: Older data

    @Test func aDataFolderFromBeforeDashboardSignalsStillOpens() async throws {
        let clock = TestClock()
        // The schema as it was before 004_dashboard_signals, with a device that has a session, an access token, a
        // conversation with an agent reply, and an outbox entry.
        let directory = try OlderDataFolder.make(before: "004_dashboard_signals") { db in
            try db.query(
                "INSERT INTO devices (id, created_at, push_token, push_environment) VALUES ('dev_old', ?, 'ab12', 'SANDBOX')",
                [.double(clock.now)])
            try db.query("INSERT INTO sessions (secret, device_id, created_at) VALUES ('ses_old', 'dev_old', ?)", [.double(clock.now)])
            try db.query(
                "INSERT INTO access_tokens (token, device_id, session_secret, expires_at) VALUES ('at_old', 'dev_old', 'ses_old', ?)",
                [.double(clock.now + 3600)])
            try db.query(
                "INSERT INTO conversations (id, device_id, status, created_at, last_message_at, last_seq) VALUES ('conv_old', 'dev_old', 'OPEN', ?, ?, 2)",
                [.double(clock.now), .double(clock.now)])
            for (seq, sender) in [(1, "USER"), (2, "AGENT")] {
                try db.query(
                    "INSERT INTO messages (id, conversation_id, seq, sender, text, created_at) VALUES (?, 'conv_old', ?, ?, 'old', ?)",
                    [.text("msg_old\(seq)"), .int(Int64(seq)), .text(sender), .double(clock.now)])
            }
            try db.query(
                "INSERT INTO push_outbox (device_id, push_token, payload, created_at) VALUES ('dev_old', 'ab12', '{}', ?)",
                [.double(clock.now)])
        }
        let harness = try EmulatorHarness(clock: clock, directory: directory)
        let device = Device(token: "at_old", sessionSecret: "ses_old", verifiedUserId: nil, id: "dev_old")
        let shown = try await Self.shown(harness, device)
        #expect(shown["inChat"] as? Bool == false)
        #expect(shown["lastActiveInChatAt"] is NSNull)
        #expect(try await Self.receipts(harness, device, seq: 2) == (nil, nil))
        #expect((try await harness.admin("GET", "push-outbox").json["pushes"] as? [[String: Any]])?.map { $0["test"] as? Bool } == [false])

        // The old chat goes on recording the new signals.
        harness.clock.advance(by: 10)
        #expect(try await harness.api("GET", "conversation", token: device.token).status == 200)
        #expect(try await Self.receipts(harness, device, seq: 2) == (harness.clock.now, nil))
        #expect(Self.seconds(try await Self.shown(harness, device)["lastActiveInChatAt"]) == harness.clock.now)
        #expect(try await harness.admin("POST", "devices/dev_old/test-push").status == 201)
    }
}

/// Seed 002 "Send test": the selector lists at most ten eligible devices ordered by recent chat activity.
@Suite("SendTestPickerTests")
struct SendTestPickerTests {
    @Test(arguments: [UInt64(7), 41])
    func sendTestListsAtMostTenEligibleDevicesMostRecentChatActivityFirst(seed: UInt64) async throws {
        let harness = try EmulatorHarness()
        var devices: [Device] = []
        for index in 0..<12 {
            let device = try await harness.register(["pushToken": String(format: "%064x", index + 1), "pushEnvironment": "SANDBOX"])
            try #require(try await harness.send(device, "hi \(index)").status == 201)
            devices.append(device)
        }
        // Not eligible: no push token; no conversation.
        let silent = try await harness.register()
        try #require(try await harness.send(silent, "no token").status == 201)
        let quiet = try await harness.register(["pushToken": String(repeating: "e", count: 64)])
        // Chat activity in a seeded random order, a second apart.
        var generator = SeededGenerator(seed: seed)
        let order = devices.shuffled(using: &generator)
        for device in order {
            harness.clock.advance(by: 1)
            try #require(try await harness.api("GET", "conversation", token: device.token).status == 200)
        }
        let listed = try #require(try await harness.admin("GET", "test-push-devices").json["devices"] as? [[String: Any]])
        #expect(listed.compactMap { $0["id"] as? String } == order.reversed().prefix(10).map(\.id))
        #expect(!listed.contains { [silent.id, quiet.id].contains($0["id"] as? String) })
    }
}

