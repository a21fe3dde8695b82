import Foundation
import ReceptionEmulator
import Testing

/// The developer console's request log (issue 19): every `/v1/` request and attachment download (issue 39) with its
/// status, error code and device, newest first, filtered by device and status, and never a token or secret.
@Suite("RequestLogTests")
struct RequestLogTests {
    static func entries(_ harness: EmulatorHarness, _ query: String = "") async throws -> [[String: Any]] {
        let reply = try await harness.raw(
            "GET", "/admin/requests" + query, headers: ["Authorization": "Bearer \(harness.adminToken)"])
        try #require(reply.status == 200, "GET /admin/requests\(query) answered \(reply.status)")
        return try #require(reply.json["requests"] as? [[String: Any]])
    }

    @Test func theLogShowsRegistrationAndErrorsWithTheirDevicesAndNoSecrets() async throws {
        let harness = try EmulatorHarness()
        let identity = try IdentityTokenMinter.mint(
            ["user_id": "user-7", "exp": Int(harness.clock.now) + 86_400], secret: harness.identitySecret)
        let first = try await harness.register(["identityToken": identity])
        let second = try await harness.register()
        try await harness.send(first, "hello")
        _ = try await harness.api("GET", "conversation/messages?after=0", token: second.token)
        let refused = try await harness.api("GET", "conversation", token: "at_not_a_token")
        #expect(refused.status == 401)
        let renewed = try await harness.api("POST", "devices/me/token", json: ["sessionSecret": second.sessionSecret])
        #expect(renewed.status == 200)

        let reply = try await harness.raw(
            "GET", "/admin/requests", headers: ["Authorization": "Bearer \(harness.adminToken)"])
        let text = String(decoding: reply.body, as: UTF8.self)
        for secret in [first.token, second.token, first.sessionSecret, second.sessionSecret, harness.adminToken, identity,
            harness.identitySecret, "at_not_a_token"] {
            #expect(!text.contains(secret), "the log holds a secret: \(secret.prefix(8))…")
        }
        let all = try await Self.entries(harness)
        // Newest first: the renewal, the refused request, the fetch, the send, two registrations.
        #expect(all.map { $0["path"] as? String } == [
            "/v1/devices/me/token", "/v1/conversation", "/v1/conversation/messages", "/v1/conversation/messages",
            "/v1/devices", "/v1/devices",
        ])
        let registrations = all.filter { $0["path"] as? String == "/v1/devices" }
        #expect(registrations.map { $0["status"] as? Int } == [201, 201])
        #expect(Set(registrations.compactMap { $0["deviceId"] as? String }) == [first.id, second.id])
        #expect(registrations.last?["method"] as? String == "POST")
        let body = try #require(registrations.last?["body"] as? [String: Any])
        #expect((body["keys"] as? [String])?.contains("identityToken") == true)
        #expect((body["bytes"] as? Int ?? 0) > 100)
        #expect(all[0]["deviceId"] as? String == second.id)
        #expect(all[1]["status"] as? Int == 401)
        #expect(all[1]["errorCode"] as? String == "unauthorized")
        #expect(all[1]["deviceId"] is NSNull)
        #expect(all[2]["query"] as? [String: String] == ["after": "0"])
        #expect(all.allSatisfy { ($0["durationMs"] as? Double ?? -1) >= 0 && $0["at"] is String })
        let ids = all.compactMap { $0["id"] as? Int }
        #expect(ids == ids.sorted(by: >))

        // Filters: by device, by exact status, by class, and a limit.
        let ofFirst = try await Self.entries(harness, "?device=\(first.id)")
        #expect(ofFirst.map { $0["path"] as? String } == ["/v1/conversation/messages", "/v1/devices"])
        #expect(try await Self.entries(harness, "?status=401").map { $0["path"] as? String } == ["/v1/conversation"])
        #expect(try await Self.entries(harness, "?status=4xx").count == 1)
        #expect(try await Self.entries(harness, "?status=2xx").count == 5)
        #expect(try await Self.entries(harness, "?limit=2").map { $0["id"] as? Int } == Array(ids.prefix(2)))
        #expect(try await Self.entries(harness, "?after=\(ids[1])").count == 1)
        // Admin requests are not logged.
        #expect(try await Self.entries(harness).count == 6)
        for bad in ["?limit=0", "?limit=5001", "?limit=-1", "?limit=1e3", "?status=6xx", "?status=abc", "?after=-2"] {
            let answer = try await harness.raw(
                "GET", "/admin/requests" + bad, headers: ["Authorization": "Bearer \(harness.adminToken)"])
            #expect(answer.status == 400, "\(bad)")
        }
    }

    @Test func attachmentDownloadsAreLoggedWithoutTheirSignatureAndTeamPhotosAreNot() async throws {
        let harness = try EmulatorHarness()
        let download = try await harness.raw("GET", "/files/att_logged?expires=99&sig=secretsig")
        #expect(download.status == 403)
        _ = try await harness.raw("GET", "/team-photos/ph_1?expires=99&sig=secretsig")
        let entries = try await Self.entries(harness)
        #expect(entries.map { $0["path"] as? String } == ["/files/att_logged"], "only the attachment download")
        let entry = try #require(entries.first)
        #expect(entry["method"] as? String == "GET" && entry["status"] as? Int == 403)
        #expect(entry["query"] as? [String: String] == ["expires": "…", "sig": "…"])
        #expect(entry["deviceId"] is NSNull)
        #expect(entry["errorCode"] as? String == "expired_link")
    }

    @Test func aDroppedAnswerIsLoggedAsZeroWithTheCommittedStatusBesideIt() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        _ = try await harness.admin("POST", "faults", json: ["path": "/v1/conversation/messages", "kind": "drop"])
        let connection = try harness.sendOnRawConnection(device, "never answered", clientId: "DROPPED")
        #expect(!connection.text.contains("HTTP/1.1"), "the client got no answer")
        try await harness.send(device, "answered")

        let all = try await Self.entries(harness)
        let sends = all.filter { $0["path"] as? String == "/v1/conversation/messages" }
        try #require(sends.count == 2)
        // Newest first: the answered send, then the dropped one.
        #expect(sends[1]["fault"] as? String == "drop")
        #expect(sends[1]["status"] as? Int == 0, "the client got nothing")
        #expect(sends[1]["committedStatus"] as? Int == 201, "the emulator stored the message")
        #expect(sends[1]["deviceId"] as? String == device.id)
        #expect(sends[0]["status"] as? Int == 201)
        #expect(sends[0]["committedStatus"] is NSNull)
        #expect(sends[0]["fault"] is NSNull)
        #expect(try await Self.entries(harness, "?status=0").map { $0["fault"] as? String } == ["drop"])
    }

    @Test func signedQueryValuesAreNotKept() {
        let kept = RequestLog.redacted(["sig": "abc", "after": "3", "accessToken": "at_x", "expires": "9"])
        #expect(kept == ["sig": "…", "after": "3", "accessToken": "…", "expires": "…"])
    }

    @Test func theRingKeepsTheNewest5000() {
        let log = RequestLog()
        for index in 0..<(RequestLog.capacity + 7) {
            log.record(RequestLog.Entry(method: "GET", path: "/v1/\(index)", status: 200))
        }
        let all = log.newest(limit: RequestLog.capacity + 100)
        #expect(all.count == RequestLog.capacity)
        #expect(all.first?.path == "/v1/\(RequestLog.capacity + 6)")
        #expect(all.last?.path == "/v1/7")
        log.clear()
        #expect(log.newest(limit: 10).isEmpty)
    }
}
