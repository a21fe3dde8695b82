import Foundation
import Testing

/// The team's reads of the admin API (issue 23): `GET /admin/app` reveals the identity secret (the dashboard's
/// "Reveal", seed 000), and `GET /admin/conversations` lists each conversation with the unread count of its replies,
/// as the team sees it.
@Suite("AdminReadTests")
struct AdminReadTests {
    @Test func theAppSettingsRevealTheCurrentIdentitySecret() async throws {
        let harness = try EmulatorHarness()
        let app = try await harness.admin("GET", "app")
        #expect(app.status == 200)
        let secret = try #require(app.json["identitySecret"] as? String)
        #expect(secret == harness.identitySecret && secret.hasPrefix("ids_"), "the revealed secret is not the one tokens are signed with")
        #expect(app.json["appId"] as? String == harness.appId)
        // After a regeneration the read reveals the new secret; after removal it says there is none.
        let regenerated = try await harness.admin("POST", "identity-secret", json: [:])
        let newSecret = try #require(regenerated.json["identitySecret"] as? String)
        #expect(newSecret != secret)
        #expect(try await harness.admin("GET", "app").json["identitySecret"] as? String == newSecret)
        _ = try await harness.admin("DELETE", "identity-secret")
        #expect(try await harness.admin("GET", "app").json["identitySecret"] is NSNull)
        // Only the admin token reads it.
        let anonymous = try await harness.raw("GET", "/admin/app")
        #expect(anonymous.status == 401)
        #expect(String(decoding: anonymous.body, as: UTF8.self).contains(newSecret) == false)
    }

    @Test func theConversationListShowsEachConversationsUnreadReplies() async throws {
        let harness = try EmulatorHarness()
        let alice = try await harness.register()
        let bob = try await harness.register()
        let idle = try await harness.register()
        try await harness.send(alice, "hello from alice")
        try await harness.send(bob, "hello from bob")
        for text in ["one", "two"] {
            _ = try await harness.admin("POST", "devices/\(alice.id)/messages", json: ["text": text])
        }
        _ = try await harness.admin("POST", "devices/\(bob.id)/messages", json: ["text": "one"])
        func listed() async throws -> [String: [String: Any]] {
            let list = try await harness.admin("GET", "conversations").json["conversations"] as? [[String: Any]] ?? []
            return Dictionary(list.compactMap { entry in (entry["deviceId"] as? String).map { ($0, entry) } }) { first, _ in first }
        }
        var conversations = try await listed()
        #expect(Set(conversations.keys) == [alice.id, bob.id], "a device without a conversation is not listed")
        #expect(conversations[idle.id] == nil)
        #expect(conversations[alice.id]?["unreadForUser"] as? Int == 2)
        #expect(conversations[bob.id]?["unreadForUser"] as? Int == 1)
        // Unread for the team: the customer's messages the team has not read (one each), until it has seen them.
        #expect(conversations[alice.id]?["unreadForTeam"] as? Int == 1)
        #expect(conversations[bob.id]?["unreadForTeam"] as? Int == 1)
        #expect(try await harness.admin("POST", "devices/\(alice.id)/seen").status == 200)
        try await harness.send(bob, "another from bob")
        conversations = try await listed()
        #expect(conversations[alice.id]?["unreadForTeam"] as? Int == 0)
        #expect(conversations[bob.id]?["unreadForTeam"] as? Int == 2)
        #expect(conversations[alice.id]?["status"] as? String == "OPEN")
        #expect(conversations[alice.id]?["lastSeq"] as? Int == 3)
        // Alice reads through her first reply: one stays unread; Bob's count is untouched.
        let conversationId = try #require(conversations[alice.id]?["id"] as? String)
        let read = try await harness.api(
            "POST", "conversation/read", token: alice.token, json: ["conversationId": conversationId, "throughSeq": 2])
        #expect(read.status == 200)
        conversations = try await listed()
        #expect(conversations[alice.id]?["unreadForUser"] as? Int == 1)
        #expect(conversations[bob.id]?["unreadForUser"] as? Int == 1)
        // The list agrees with what the device itself is told (spec 3.10).
        let unread = try await harness.api("GET", "conversation/unread", token: alice.token)
        #expect(unread.json["unreadCount"] as? Int == 1)
    }
}
