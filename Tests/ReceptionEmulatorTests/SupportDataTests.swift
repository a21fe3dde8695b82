import Foundation
import ReceptionEmulator
import Testing

/// Seed 000's tables of what deletion (`DELETE /v1/devices/me`, "Delete support data") and the dashboard's **Reset
/// support** keep and remove, one test case per field, over a device that has every field: a verified identity,
/// labels, metadata, a push token, a block, chat activity, a review card with its click receipt (the review-request
/// state), a customer photo, an agent photo and an unfinished upload, and a resolved conversation.
@Suite("SupportDataTests")
struct SupportDataTests {
    struct Fixture {
        let harness: EmulatorHarness
        let device: Device
        let before: [String: Any]
    }

    static let pushToken = "ab" * 32

    static func fixture() async throws -> Fixture {
        let harness = try EmulatorHarness()
        let token = try IdentityTokenMinter.mint(
            ["user_id": "user-7", "name": "Ada", "email": "ada@example.com", "exp": harness.clock.now + 3600],
            secret: harness.identitySecret)
        let device = try await harness.register([
            "externalUserId": "user-7", "name": "Ada L.", "email": "ada@example.com", "metadata": ["plan": "pro-plan"],
            "pushToken": pushToken, "pushEnvironment": "SANDBOX", "identityToken": token,
        ])
        try #require(try await harness.send(device, "hello").status == 201)
        // Chat activity: an authenticated chat request.
        try #require(try await harness.api("GET", "conversation", token: device.token).status == 200)
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 7, count: 64)).base64EncodedString()
        let photo = try await harness.admin("POST", "devices/\(device.id)/messages", json: ["text": "see", "photos": [["data": jpeg]]])
        try #require(photo.status == 201)
        try #require(try await harness.admin("PATCH", "app", json: ["appStoreId": "1"]).status == 200)
        let review = try await harness.admin(
            "POST", "devices/\(device.id)/messages", json: ["kind": "REVIEW", "reviewUrl": "https://apps.apple.com/app/id1"])
        let reviewId = try #require((review.json["message"] as? [String: Any])?["id"] as? String)
        try #require(
            try await harness.api("POST", "conversation/action-click", token: device.token, json: ["messageId": reviewId])
                .status == 200)
        // An unfinished upload: reserved, never sent.
        let upload = try await harness.api(
            "POST", "uploads", token: device.token,
            json: ["requestId": "r1", "contentType": "image/jpeg", "checksum": Data(repeating: 1, count: 32).base64EncodedString(),
                   "bytes": 10, "width": 1, "height": 1])
        try #require((200...201).contains(upload.status))
        try #require(try await harness.admin("POST", "devices/\(device.id)/status", json: ["status": "RESOLVED"]).status == 200)
        try #require(try await harness.admin("POST", "devices/\(device.id)/block").status == 200)
        let before = try #require(try await harness.admin("GET", "devices/\(device.id)").json as [String: Any]?)
        try #require(before["reviewRequestedAt"] is String && before["lastActiveInChatAt"] is String)
        return Fixture(harness: harness, device: device, before: before)
    }

    /// The snapshot's rows of `table` that name `deviceId` in any column.
    static func rows(_ harness: EmulatorHarness, _ table: String, naming deviceId: String) async throws -> [[Any]] {
        let snapshot = try JSONSerialization.jsonObject(with: try await harness.admin("GET", "snapshot").body) as? [String: Any]
        let content = (snapshot?["tables"] as? [String: Any])?[table] as? [String: Any]
        let rows = content?["rows"] as? [[Any]] ?? []
        return rows.filter { row in row.contains { "\($0)" == deviceId } || table == "messages" || table == "attachments" }
    }

    // MARK: Reset support

    /// What Reset support keeps (the device, its session, identity, metadata, push token, review-request timestamp)
    /// and clears (block, chat activity).
    enum ResetField: String, CaseIterable, Sendable {
        case device, session, identity, metadata, pushToken, reviewRequestTimestamp
        case blockCleared, lastActiveInChatCleared, inChatCleared, conversationsDeleted, imagesDeleted
    }

    @Test(arguments: ResetField.allCases)
    func resetSupportKeepsOrClearsEachFieldAsSeed000Says(_ field: ResetField) async throws {
        let fixture = try await Self.fixture()
        let harness = fixture.harness, device = fixture.device
        try #require(try await harness.admin("POST", "devices/\(device.id)/reset").status == 200)
        let after = try #require(try await harness.admin("GET", "devices/\(device.id)").json as [String: Any]?)
        let before = fixture.before
        switch field {
        case .device:
            #expect(after["id"] as? String == device.id && after["createdAt"] as? String == before["createdAt"] as? String)
        case .session:
            // The same session renews its access token (a new one at the new revision works).
            let renewed = try await harness.api("POST", "devices/me/token", json: ["sessionSecret": device.sessionSecret])
            #expect(renewed.status == 200)
        case .identity:
            for key in ["externalUserId", "name", "email", "verifiedUserId", "verifiedName", "verifiedEmail"] {
                #expect(after[key] as? String == before[key] as? String && after[key] is String, "\(key)")
            }
        case .metadata:
            #expect(after["metadata"] as? [String: String] == ["plan": "pro-plan"])
        case .pushToken:
            #expect(after["pushToken"] as? String == Self.pushToken && after["pushEnvironment"] as? String == "SANDBOX")
        case .reviewRequestTimestamp:
            #expect(after["reviewRequestedAt"] as? String == before["reviewRequestedAt"] as? String)
        case .blockCleared:
            #expect(before["blocked"] as? Bool == true && after["blocked"] as? Bool == false)
        case .lastActiveInChatCleared:
            #expect(after["lastActiveInChatAt"] is NSNull)
        case .inChatCleared:
            #expect(after["inChat"] as? Bool == false && after["openStreams"] as? Int == 0)
        case .conversationsDeleted:
            #expect(after["conversationId"] is NSNull)
            #expect(try await Self.rows(harness, "messages", naming: device.id).isEmpty)
        case .imagesDeleted:
            #expect(try await Self.rows(harness, "attachments", naming: device.id).isEmpty)
        }
    }

    // MARK: Deletion

    /// What deletion removes: the device record with its identity, metadata, push registration and review-request
    /// state; every conversation (closed ones too) with messages and click receipts; every image, agent photos and
    /// unfinished uploads included.
    enum DeletionField: String, CaseIterable, Sendable {
        case deviceRecord, identity, metadata, pushRegistration, reviewRequestState, sessions, conversations, messages
        case actionClickReceipts, customerAndAgentImages, unfinishedUploads
    }

    @Test(arguments: DeletionField.allCases)
    func deletionRemovesEachFieldSeed000Lists(_ field: DeletionField) async throws {
        let fixture = try await Self.fixture()
        let harness = fixture.harness, device = fixture.device
        let other = try await harness.register(["externalUserId": "someone-else"])
        try #require(try await harness.send(other, "other").status == 201)
        let deletion = try await harness.api("DELETE", "devices/me", json: ["sessionSecret": device.sessionSecret])
        try #require(deletion.status == 200)
        let snapshot = String(decoding: try await harness.admin("GET", "snapshot").body, as: UTF8.self)
        let tables = ((try JSONSerialization.jsonObject(with: Data(snapshot.utf8)) as? [String: Any])?["tables"] as? [String: Any]) ?? [:]
        func rows(_ table: String) -> [[Any]] { ((tables[table] as? [String: Any])?["rows"] as? [[Any]]) ?? [] }
        func column(_ table: String, _ name: String) -> [String] {
            let columns = ((tables[table] as? [String: Any])?["columns"] as? [String]) ?? []
            guard let index = columns.firstIndex(of: name) else { return [] }
            return rows(table).map { "\($0[index])" }
        }
        switch field {
        case .deviceRecord: #expect(!column("devices", "id").contains(device.id) && column("devices", "id").count == 1)
        case .identity:
            #expect(!snapshot.contains("user-7") && !snapshot.contains("ada@example.com") && !snapshot.contains("Ada L."))
        case .metadata: #expect(!snapshot.contains("pro-plan"))
        case .pushRegistration: #expect(!snapshot.contains(Self.pushToken))
        case .reviewRequestState:
            #expect(column("devices", "review_requested_at").allSatisfy { $0 == "<null>" })
            #expect(!column("messages", "kind").contains("REVIEW"))
        case .sessions:
            #expect(!column("sessions", "device_id").contains(device.id) && !column("access_tokens", "device_id").contains(device.id))
        case .conversations: #expect(!column("conversations", "device_id").contains(device.id) && rows("conversations").count == 1)
        case .messages: #expect(column("messages", "text") == ["other"])
        case .actionClickReceipts: #expect(column("messages", "action_clicked_at").allSatisfy { $0 == "<null>" })
        case .customerAndAgentImages, .unfinishedUploads:
            #expect(!column("attachments", "device_id").contains(device.id))
        }
    }
}

private func * (text: String, count: Int) -> String { String(repeating: text, count: count) }
