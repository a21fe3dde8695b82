import Foundation
import Testing

/// One device's bearer token never reads or writes another device's data; the admin API and `/v1/` refuse each
/// other's tokens.
@Suite("AuthorizationTests")
struct AuthorizationTests {
    @Test func aDeviceSeesOnlyItsOwnConversation() async throws {
        let harness = try EmulatorHarness()
        let alice = try await harness.register()
        let bob = try await harness.register()
        try await harness.send(alice, "secret of alice", clientId: "same")
        let bobLoad = try await harness.api("GET", "conversation", token: bob.token)
        #expect(bobLoad.json["conversation"] is NSNull)
        #expect((bobLoad.json["messages"] as? [Any])?.isEmpty == true)
        let bobPage = try await harness.api("GET", "conversation/messages?after=0", token: bob.token)
        #expect((bobPage.json["messages"] as? [Any])?.isEmpty == true)
        // The same clientId on another device is another message, not Alice's.
        let bobSend = try await harness.send(bob, "bob", clientId: "same")
        #expect((bobSend.json["message"] as? [String: Any])?["text"] as? String == "bob")
        let aliceMessages = try await harness.api("GET", "conversation", token: alice.token).json["messages"] as? [[String: Any]]
        #expect(aliceMessages?.map { $0["text"] as? String } == ["secret of alice"])
    }

    @Test func aDeviceCannotUseReadOrClickAnotherDevicesData() async throws {
        let harness = try EmulatorHarness()
        let alice = try await harness.register()
        let bob = try await harness.register()
        try await harness.send(bob, "hi")
        let image = UploadEndpointTests.jpeg
        let reserve = try await harness.api("POST", "uploads", token: alice.token, json: UploadEndpointTests.reservation(image))
        _ = try await UploadEndpointTests.put(harness, reserve.json, image)
        let attachmentId = try #require(reserve.json["attachmentId"] as? String)
        let stolen = try await harness.send(bob, "", attachmentIds: [attachmentId])
        #expect(stolen.status == 400)
        #expect(stolen.errorCode == "invalid_attachment")
        #expect(try await harness.api("GET", "attachments/\(attachmentId)", token: bob.token).status == 404)
        try await harness.send(alice, "alice")
        try #require(try await harness.admin("PATCH", "app", json: ["appStoreId": "1"]).status == 200)
        let review = try await harness.admin(
            "POST", "devices/\(alice.id)/messages", json: ["kind": "REVIEW", "reviewUrl": "https://example.com/r"])
        let messageId = try #require((review.json["message"] as? [String: Any])?["id"] as? String)
        let click = try await harness.api("POST", "conversation/action-click", token: bob.token, json: ["messageId": messageId])
        #expect(click.errorCode == "action_not_found")
        let conversationId = try #require((review.json["conversationId"] as? String))
        let read = try await harness.api(
            "POST", "conversation/read", token: bob.token, json: ["conversationId": conversationId, "throughSeq": 5])
        #expect(read.status == 404)
        #expect(try await harness.api("GET", "conversation/unread", token: alice.token).json["unreadCount"] as? Int == 1)
    }

    @Test func theAdminApiRefusesDeviceTokensAndV1RefusesTheAdminToken() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        for token in [device.token, "", harness.adminToken + "x"] {
            let reply = try await harness.raw("GET", "/admin/devices", headers: ["Authorization": "Bearer \(token)"])
            #expect(reply.status == 401)
            #expect(reply.errorCode == "admin_unauthorized")
        }
        let asDevice = try await harness.api("GET", "conversation", token: harness.adminToken)
        #expect(asDevice.status == 401)
        #expect(asDevice.errorCode == "unauthorized")
        #expect(try await harness.admin("GET", "devices").status == 200)
    }

    @Test func aSessionSecretIsNotABearerToken() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        #expect(try await harness.api("GET", "conversation", token: device.sessionSecret).errorCode == "unauthorized")
        #expect(try await harness.api("GET", "conversation").errorCode == "unauthorized")
    }
}
