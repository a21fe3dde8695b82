import Foundation
import Testing

/// spec 3.6–3.13 over loopback: window, paging, idempotent send, read, unread, typing, action clicks, chat reset.
@Suite("ConversationEndpointTests")
struct ConversationEndpointTests {
    @Test func beforeTheFirstMessageThereIsNoConversation() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        let load = try await harness.api("GET", "conversation", token: device.token)
        #expect(load.status == 200)
        #expect(load.json["conversation"] is NSNull)
        #expect((load.json["messages"] as? [Any])?.isEmpty == true)
        #expect(load.json["boundedRead"] as? Bool == true)
        #expect(load.json["device"] as? [String: Bool] == ["blocked": false, "verificationRequired": false])
        #expect(load.json["limits"] == nil)
        let unread = try await harness.api("GET", "conversation/unread", token: device.token)
        #expect(unread.json["hasConversation"] as? Bool == false)
        #expect(unread.json["unreadCount"] as? Int == 0)
        let stream = try await harness.api("GET", "conversation/events", token: device.token)
        #expect(stream.status == 404)
        #expect(stream.errorCode == "no_conversation")
    }

    @Test func sendAnswers201AndTheSameClientIdIsOneMessage() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        let first = try await harness.send(device, "Hello", clientId: "C1")
        #expect(first.status == 201)
        let conversation = try #require(first.json["conversation"] as? [String: Any])
        #expect(conversation["status"] as? String == "OPEN")
        #expect(conversation["unreadForUser"] as? Int == 0)
        #expect(conversation["id"] is String && conversation["createdAt"] is String)
        let message = try #require(first.json["message"] as? [String: Any])
        #expect(message["seq"] as? Int == 1)
        #expect(message["clientId"] as? String == "C1")
        #expect(message["sender"] as? String == "USER")
        #expect(message["text"] as? String == "Hello")
        #expect((message["attachments"] as? [Any])?.isEmpty == true)
        #expect((message["createdAt"] as? String)?.hasSuffix("Z") == true)
        let again = try await harness.send(device, "Hello", clientId: "C1")
        #expect(again.status == 201)
        #expect((again.json["message"] as? [String: Any])?["id"] as? String == message["id"] as? String)
        let history = try await harness.api("GET", "conversation", token: device.token).json["messages"] as? [Any]
        #expect(history?.count == 1)
    }

    @Test func windowHoldsTheLatest50AndPagesFollowAfter() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        for index in 1...55 { #expect(try await harness.send(device, "m\(index)").status == 201) }
        let window = try await harness.api("GET", "conversation", token: device.token).json["messages"] as? [[String: Any]] ?? []
        #expect(window.count == 50)
        #expect(window.first?["seq"] as? Int == 6)
        #expect(window.last?["seq"] as? Int == 55)
        let page = try await harness.api("GET", "conversation/messages?after=0", token: device.token)
        #expect(page.json["hasMore"] as? Bool == true)
        let firstPage = page.json["messages"] as? [[String: Any]] ?? []
        #expect(firstPage.map { $0["seq"] as? Int } == (1...50).map { $0 })
        let next = try await harness.api("GET", "conversation/messages?after=50", token: device.token)
        #expect(next.json["hasMore"] as? Bool == false)
        #expect((next.json["messages"] as? [[String: Any]])?.map { $0["seq"] as? Int } == [51, 52, 53, 54, 55])
        #expect((next.json["conversation"] as? [String: Any])?["status"] as? String == "OPEN")
        let bad = try await harness.api("GET", "conversation/messages?after=x", token: device.token)
        #expect(bad.status == 400)
        #expect(bad.errorCode == "invalid_request")
    }

    @Test func invalidSendsAre400WithStableCodes() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        let cases: [[String: Any]] = [
            ["clientId": "A", "text": "", "attachmentIds": []],
            ["clientId": "A", "text": String(repeating: "x", count: 4001), "attachmentIds": []],
            ["clientId": "A", "text": "hi"],
            ["clientId": 5, "text": "hi", "attachmentIds": []],
            ["clientId": "A", "text": "hi", "attachmentIds": ["1", "2", "3", "4", "5", "6"]],
        ]
        for body in cases {
            let reply = try await harness.api("POST", "conversation/messages", token: device.token, json: body)
            #expect(reply.status == 400)
            #expect(reply.errorCode == "invalid_request")
        }
        // 4,000 UTF-16 units are allowed; an emoji counts two.
        let limit = try await harness.send(device, String(repeating: "😀", count: 2000))
        #expect(limit.status == 201)
    }

    @Test func boundedReadAndUnreadCountAgentMessages() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        try await harness.send(device, "question")
        for text in ["a1", "a2"] {
            #expect(try await harness.admin("POST", "devices/\(device.id)/messages", json: ["text": text]).status == 201)
        }
        let unread = try await harness.api("GET", "conversation/unread", token: device.token)
        #expect(unread.json["hasConversation"] as? Bool == true)
        #expect(unread.json["unreadCount"] as? Int == 2)
        #expect(unread.json["status"] as? String == "OPEN")
        #expect(unread.json["lastMessageAt"] is String)
        #expect(unread.json["push"] as? Bool == false)
        #expect(unread.json["unreadPolling"] is NSNull)
        let load = try await harness.api("GET", "conversation", token: device.token).json
        let conversationId = try #require((load["conversation"] as? [String: Any])?["id"] as? String)
        let read = try await harness.api(
            "POST", "conversation/read", token: device.token, json: ["conversationId": conversationId, "throughSeq": 2])
        #expect(read.status == 200)
        #expect(read.json["conversationId"] as? String == conversationId)
        #expect(read.json["readSeq"] as? Int == 2)
        #expect(read.json["unreadCount"] as? Int == 1)
        // max(current, throughSeq): an older throughSeq does not move the read position back.
        let older = try await harness.api(
            "POST", "conversation/read", token: device.token, json: ["conversationId": conversationId, "throughSeq": 1])
        #expect(older.json["readSeq"] as? Int == 2)
        let wrong = try await harness.api(
            "POST", "conversation/read", token: device.token, json: ["conversationId": "conv_x", "throughSeq": 1])
        #expect(wrong.status == 404)
        // Legacy read: no body, `{}`, everything read.
        let legacy = try await harness.raw(
            "POST", "/v1/conversation/read",
            headers: ["X-App-Id": harness.appId, "Authorization": "Bearer \(device.token)", "Content-Type": "application/json"])
        #expect(legacy.status == 200)
        #expect(String(decoding: legacy.body, as: UTF8.self) == "{}")
        #expect(try await harness.api("GET", "conversation/unread", token: device.token).json["unreadCount"] as? Int == 0)
    }

    @Test func unreadReportsPushAndPollingStages() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        try await harness.send(device, "hi")
        _ = try await harness.api(
            "PATCH", "devices/me", token: device.token,
            json: EmulatorHarness.payload(["pushToken": "00ff", "pushEnvironment": "SANDBOX"]))
        let stages = [["forMinutes": 5, "everySeconds": 30], ["forMinutes": 60, "everySeconds": 0]]
        #expect(try await harness.admin("PATCH", "app", json: ["unreadPolling": stages]).status == 200)
        let unread = try await harness.api("GET", "conversation/unread", token: device.token)
        #expect(unread.json["push"] as? Bool == true)
        #expect(unread.json["unreadPolling"] as? [[String: Int]] == stages)
    }

    @Test func resolvedConversationReopensOnTheNextCustomerMessage() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        try await harness.send(device, "hi")
        #expect(try await harness.admin("POST", "devices/\(device.id)/status", json: ["status": "RESOLVED"]).status == 200)
        #expect(try await harness.api("GET", "conversation/unread", token: device.token).json["status"] as? String == "RESOLVED")
        let reply = try await harness.send(device, "one more thing")
        #expect((reply.json["conversation"] as? [String: Any])?["status"] as? String == "OPEN")
    }

    @Test func typingAnswersAnEmptyObjectAndTheTeamSeesIt() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        let reply = try await harness.api("POST", "conversation/typing", token: device.token, json: ["typing": true])
        #expect(reply.status == 200)
        #expect(String(decoding: reply.body, as: UTF8.self) == "{}")
        #expect(try await harness.admin("GET", "devices/\(device.id)").json["typing"] as? Bool == true)
        #expect(try await harness.api("POST", "conversation/typing", token: device.token, json: ["typing": "yes"]).status == 400)
    }

    @Test func actionClickRecordsCardsAndOtherwiseIsActionNotFound() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register(["paywalls": [["id": "pro", "title": "Pro"]]])
        try await harness.send(device, "hi")
        try #require(try await harness.admin("PATCH", "app", json: ["appStoreId": "1"]).status == 200)
        let review = try await harness.admin(
            "POST", "devices/\(device.id)/messages",
            json: ["kind": "REVIEW", "text": "Rate us?", "reviewUrl": "https://apps.apple.com/app/id1"])
        let reviewMessage = try #require(review.json["message"] as? [String: Any])
        #expect(reviewMessage["kind"] as? String == "REVIEW")
        #expect(reviewMessage["reviewUrl"] as? String == "https://apps.apple.com/app/id1")
        #expect(reviewMessage["actionClickedAt"] is NSNull)
        let paywall = try await harness.admin(
            "POST", "devices/\(device.id)/messages", json: ["kind": "PAYWALL", "paywallId": "pro", "buttonLabel": "See"])
        #expect((paywall.json["message"] as? [String: Any])?["paywallTitle"] as? String == "Pro")
        let unknownPaywall = try await harness.admin(
            "POST", "devices/\(device.id)/messages", json: ["kind": "PAYWALL", "paywallId": "gone"])
        #expect(unknownPaywall.status == 400)
        let click = try await harness.api(
            "POST", "conversation/action-click", token: device.token, json: ["messageId": reviewMessage["id"] ?? ""])
        #expect(click.status == 200)
        #expect(String(decoding: click.body, as: UTF8.self) == "{}")
        let messages = try await harness.api("GET", "conversation", token: device.token).json["messages"] as? [[String: Any]] ?? []
        #expect(messages.first { $0["id"] as? String == reviewMessage["id"] as? String }?["actionClickedAt"] is String)
        let text = try #require(messages.first?["id"] as? String)
        let notCard = try await harness.api("POST", "conversation/action-click", token: device.token, json: ["messageId": text])
        #expect(notCard.status == 404)
        #expect(notCard.errorCode == "action_not_found")
    }

    /// Seed 001 "Review cards": "An agent sends a review card from the dashboard after an App Store ID has been
    /// configured for the app." Before that, the admin API and an Agent's dashboard session are both refused with
    /// 409 `app_store_id_required`, even with a review URL given; nothing is stored, no push written, no
    /// review-request state. Removing the ID refuses cards again.
    @Test func aReviewCardNeedsTheAppsAppStoreID() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        try await harness.send(device, "hi")
        let card: [String: Any] = ["kind": "REVIEW", "text": "Rate us?", "reviewUrl": "https://apps.apple.com/app/id42"]
        #expect(try await harness.admin("GET", "app").json["appStoreId"] is NSNull, "a new app has no App Store ID")
        let (_, agent) = try await TeamRoleTests.invite(harness, name: "Sam", role: "agent")
        func refused() async throws -> [Reply] {
            [try await harness.admin("POST", "devices/\(device.id)/messages", json: card),
             try await TeamRoleTests.call(harness, agent, "POST", "devices/\(device.id)/messages", json: card)]
        }
        for reply in try await refused() {
            #expect(reply.status == 409 && reply.errorCode == "app_store_id_required", "\(String(decoding: reply.body, as: UTF8.self))")
        }
        let stored = try await harness.api("GET", "conversation", token: device.token).json["messages"] as? [[String: Any]] ?? []
        #expect(stored.map { $0["kind"] as? String } == ["TEXT"], "a refused card was stored")
        #expect(try await harness.admin("GET", "devices/\(device.id)").json["reviewRequestedAt"] is NSNull)

        #expect(try await harness.admin("PATCH", "app", json: ["appStoreId": "42"]).status == 200)
        #expect(try await harness.admin("POST", "devices/\(device.id)/messages", json: card).status == 201)
        #expect(try await TeamRoleTests.call(harness, agent, "POST", "devices/\(device.id)/messages", json: card).status == 201)
        #expect(try await harness.admin("PATCH", "app", json: ["appStoreId": NSNull()]).status == 200)
        for reply in try await refused() { #expect(reply.errorCode == "app_store_id_required") }
    }

    @Test func blockedDeviceCannotSendButStillReadsItsFlag() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        try await harness.send(device, "hi")
        #expect(try await harness.admin("POST", "devices/\(device.id)/block").status == 200)
        let send = try await harness.send(device, "again")
        #expect(send.status == 403)
        #expect(send.errorCode == "blocked")
        let load = try await harness.api("GET", "conversation", token: device.token)
        #expect((load.json["device"] as? [String: Bool])?["blocked"] == true)
        // A blocked device may still refresh its token (spec 3.3).
        #expect(try await harness.api("POST", "devices/me/token", json: ["sessionSecret": device.sessionSecret]).status == 200)
        #expect(try await harness.admin("POST", "devices/\(device.id)/unblock").status == 200)
        #expect(try await harness.send(device, "again").status == 201)
    }

    @Test func resetSupportAnswers409ChatResetUntilTheClientCatchesUp() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        try await harness.send(device, "hi")
        _ = try await harness.admin("POST", "devices/\(device.id)/block")
        let reset = try await harness.admin("POST", "devices/\(device.id)/reset")
        #expect(reset.json["resetRevision"] as? Int == 1)
        #expect(reset.json["blocked"] as? Bool == false)
        for path in ["conversation", "conversation/unread"] {
            let stale = try await harness.api("GET", path, token: device.token, revision: 0)
            #expect(stale.status == 409)
            #expect(stale.errorCode == "chat_reset")
            #expect((stale.json["error"] as? [String: Any])?["resetRevision"] as? Int == 1)
        }
        // Appearance never answers chat_reset (spec 3.16).
        #expect(try await harness.api("GET", "appearance", revision: 0).status == 200)
        let fresh = try await harness.api("GET", "conversation", token: device.token, revision: 1)
        #expect(fresh.status == 200)
        #expect(fresh.json["conversation"] is NSNull)
        let send = try await harness.api(
            "POST", "conversation/messages", token: device.token, json: ["clientId": "N", "text": "new", "attachmentIds": []],
            revision: 1)
        #expect((send.json["message"] as? [String: Any])?["seq"] as? Int == 1)
    }

    @Test func agentRepliesCarryAuthorsAndTheTeamList() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        try await harness.send(device, "hi")
        #expect(try await harness.admin("PUT", "team", json: ["members": [["id": "t1", "name": "Mia"]]]).status == 200)
        #expect(try await harness.admin("POST", "devices/\(device.id)/messages", json: ["text": "Hello!", "authorId": "t1"]).status == 201)
        #expect(try await harness.admin("POST", "devices/\(device.id)/messages", json: ["text": "x", "authorId": "nobody"]).status == 400)
        // The team is listed only while the appearance shows names or photos (TeamPhotoTests).
        #expect(try await harness.admin("PUT", "appearance", json: ["appearance": ["showsTeamNames": true]]).status == 200)
        let load = try await harness.api("GET", "conversation", token: device.token).json
        let agent = (load["messages"] as? [[String: Any]])?.last
        #expect(agent?["sender"] as? String == "AGENT")
        #expect(agent?["authorId"] as? String == "t1")
        let team = load["team"] as? [[String: Any]]
        #expect(team?.first?["name"] as? String == "Mia")
    }
}
