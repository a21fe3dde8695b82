import Digest
import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
import Transport

/// The typed endpoints of spec 3 and the bad input each must survive.
@Suite("EndpointTests")
struct EndpointTests {
    func message(_ seq: Int) -> String {
        #"{"id":"m\#(seq)","seq":\#(seq),"sender":"AGENT","text":"t","attachments":[],"createdAt":"2026-09-25T10:00:00Z"}"#
    }

    @Test func pagingFollowsHasMoreFromTheLastSeq() async throws {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("GET /v1/conversation/messages", handler: { request in
            switch request.url.query {
            case "after=0": .json(200, #"{"messages":[\#(message(1)),\#(message(2))],"hasMore":true,"conversation":{"status":"OPEN"}}"#)
            case "after=2": .json(200, #"{"messages":[\#(message(3))],"hasMore":false}"#)
            default: .error(500, code: "unexpected")
            }
        })
        let pages = try await h.client.messages(after: 0)
        #expect(pages.flatMap(\.messages).map(\.seq) == [1, 2, 3])
        #expect(pages.first?.conversation?.status == .open)
    }

    @Test func aPageWithoutProgressIsInvalidResponse() async {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("GET /v1/conversation/messages", .json(200, #"{"messages":[],"hasMore":true}"#))
        await #expect(throws: ReceptionError.invalidResponse(status: 200)) { try await h.client.messages(after: 7) }
        #expect(h.transport.requests.count == 2)
    }

    @Test func aSendWithoutEchoedClientIdGetsTheOneSent() async throws {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("POST /v1/conversation/messages", .json(201, #"{"conversation":{"id":"c1","status":"OPEN","unreadForUser":0,"createdAt":"2026-09-25T10:00:00Z"},"message":\#(message(9).replacingOccurrences(of: "AGENT", with: "USER"))}"#))
        let sent = try await h.client.send(clientId: "CLIENT-1", text: "hello", attachmentIds: ["a1", "a2"])
        #expect(sent.message.clientId == "CLIENT-1")
        let body = try #require(h.transport.requests(to: "POST /v1/conversation/messages").first?.json)
        #expect(body["clientId"] as? String == "CLIENT-1")
        #expect(body["attachmentIds"] as? [String] == ["a1", "a2"])
        #expect(body["text"] as? String == "hello")
    }

    @Test(arguments: [
        #"{"conversationId":"other","readSeq":5,"unreadCount":0}"#,
        #"{"conversationId":"c1","readSeq":4,"unreadCount":0}"#,
        #"{"conversationId":"c1","readSeq":9007199254740992,"unreadCount":0}"#,
        #"{"conversationId":"c1","readSeq":5,"unreadCount":-1}"#,
        #"{"conversationId":"c1","readSeq":5}"#,
    ])
    func aBoundedReadAnswerThatDoesNotAddUpIsInvalid(body: String) async {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("POST /v1/conversation/read", .json(200, body))
        await #expect(throws: ReceptionError.invalidResponse(status: 200)) {
            try await h.client.markRead(conversationId: "c1", throughSeq: 5)
        }
    }

    @Test func aBoundedReadSendsConversationAndThroughSeq() async throws {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("POST /v1/conversation/read", .json(200, #"{"conversationId":"c1","readSeq":7,"unreadCount":1}"#))
        let read = try await h.client.markRead(conversationId: "c1", throughSeq: 5)
        #expect(read.readSeq == 7 && read.unreadCount == 1)
        let body = try #require(h.transport.requests(to: "POST /v1/conversation/read").first?.json)
        #expect(body["conversationId"] as? String == "c1" && body["throughSeq"] as? Int == 5)
    }

    // Spec 1.6: bodies that carry no data must still be JSON objects.
    @Test(arguments: ["", "[]", "null", "ok", "<html></html>"])
    func anEmptyOrNonObjectSuccessBodyIsInvalidResponse(body: String) async {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("POST /v1/conversation/typing", .json(200, body))
        await #expect(throws: ReceptionError.invalidResponse(status: 200)) { try await h.client.typing(true) }
    }

    @Test(arguments: [
        #"{"conversation":null"#, #"{"conversation":null}"#, #"{"messages":{}}"#,
        #"{"messages":[{"id":"m","seq":1,"sender":"AGENT","text":"t","attachments":[],"createdAt":"later"}]}"#,
    ])
    func truncatedOrMisshapenHistoryIsInvalidResponse(body: String) async {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("GET /v1/conversation", .json(200, body))
        await #expect(throws: ReceptionError.invalidResponse(status: 200)) { try await h.client.history() }
    }

    @Test func limitsAreReadPerKeyAndNeverFailTheHistory() async throws {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("GET /v1/conversation", .json(200, #"{"messages":[],"limits":{"messages":0,"uploads":-4}}"#),
                       .json(200, #"{"messages":[],"limits":"soon"}"#))
        let first = try await h.client.history(limits: true)
        #expect(first.limits == LimitValues(messages: 0, uploads: nil))
        #expect(h.transport.requests.last?.query == "limits=1")
        let second = try await h.client.history()
        #expect(second.limits == nil)
    }

    @Test func anAttachmentWithAnotherIDIsInvalid() async throws {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("GET /v1/attachments/a%2Fb", .json(200, #"{"id":"x","url":"https://s/x","contentType":"image/jpeg"}"#))
        await #expect(throws: ReceptionError.invalidResponse(status: 200)) { try await h.client.attachment(id: "a/b") }
    }

    // Spec 3.14, checked against an independent SHA-256 (Python's hashlib).
    @Test func uploadReservationCarriesTheChecksumAndTheDeterministicRequestID() async throws {
        let jpeg = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        let checksum = UploadChecksum.checksum(of: jpeg)
        let script = """
            import base64, hashlib, sys, uuid
            data = bytes((i * 13) & 0xFF for i in range(1000))
            c = base64.b64encode(hashlib.sha256(data).digest()).decode()
            b = bytearray(hashlib.sha256(f"CLIENT-7:2:{c}".encode()).digest()[:16])
            b[6] = (b[6] & 0x0F) | 0x50
            b[8] = (b[8] & 0x3F) | 0x80
            print(c); print(str(uuid.UUID(bytes=bytes(b))).upper())
            """
        let expected = try Python.run(script).split(separator: "\n").map(String.init)
        #expect(checksum == expected[0])
        let requestID = UploadChecksum.requestID(clientId: "CLIENT-7", index: 2, checksum: checksum)
        #expect(requestID == expected[1])

        let h = Harness()
        h.scriptRefresh()
        h.transport.on("POST /v1/uploads", .json(201, #"{"attachmentId":"att1","uploadUrl":"https://storage.test/put/1","headers":{"If-Match":"*","X-Sig":"abc"}}"#))
        let reservation = try await h.client.reserveUpload(jpeg: jpeg, width: 640, height: 480, clientId: "CLIENT-7", index: 2)
        let body = try #require(h.transport.requests(to: "POST /v1/uploads").first?.json)
        #expect(body["requestId"] as? String == requestID)
        #expect(body["checksum"] as? String == checksum)
        #expect(body["contentType"] as? String == "image/jpeg")
        #expect(body["bytes"] as? Int == 1000 && body["width"] as? Int == 640 && body["height"] as? Int == 480)
        #expect(reservation.attachmentId == "att1")
    }

    @Test func theStoragePutCarriesExactlyTheReturnedHeadersAnd412WithIfMatchIsSuccess() async throws {
        let h = Harness()
        let reservation = UploadReservationFixture.make(headers: ["If-Match": "*", "X-Sig": "abc"])
        h.transport.on("PUT /put/1", .json(412, ""))
        try await h.client.upload(jpeg: Data([0xFF, 0xD8]), to: reservation)
        let put = try #require(h.transport.requests(to: "PUT /put/1").first)
        #expect(put.headers == ["If-Match": "*", "X-Sig": "abc"])
        #expect(put.body == Data([0xFF, 0xD8]))
    }

    @Test func storageFailuresAreUploadFailedAndNeverCooldowns() async {
        let h = Harness()
        let reservation = UploadReservationFixture.make(headers: [:])
        h.transport.on("PUT /put/1", .json(412, ""), .json(429, "", headers: ["Retry-After": "900"]),
                       .failure(.connectionFailed(transportCode: -1009)))
        await #expect(throws: ReceptionError(code: "upload_failed", status: 412)) {
            try await h.client.upload(jpeg: Data([1]), to: reservation)
        }
        do {
            try await h.client.upload(jpeg: Data([1]), to: reservation)
        } catch {
            #expect(error == ReceptionError(code: "upload_failed", status: 429) && error.retryAfter == 300)
        }
        do {
            try await h.client.upload(jpeg: Data([1]), to: reservation)
        } catch {
            #expect(error == ReceptionError(code: "upload_failed", status: 0) && error.isTransient)
        }
        #expect(h.cooldowns.active(now: h.clock.now).isEmpty)
    }

    @Test func aNonHTTPUploadURLIsRefused() async {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("POST /v1/uploads", .json(201, #"{"attachmentId":"a","uploadUrl":"ftp://s/x","headers":{}}"#))
        await #expect(throws: ReceptionError(code: "invalid_upload_url")) {
            try await h.client.reserveUpload(jpeg: Data([1]), width: 1, height: 1, clientId: "C", index: 0)
        }
    }

    @Test func revocationSendsTheSecretWithRevisionZeroAndIgnoresCooldowns() async throws {
        let h = Harness(started: false, registered: false, revision: 4)
        h.cooldowns.record(scope: .requests, seconds: 600, now: h.clock.now)
        h.cooldowns.record(scope: .session, seconds: 600, now: h.clock.now)
        h.transport.on("POST /v1/devices/me/logout", .error(429, code: "rate_limited", retryAfter: "9"), .json(200, "{}"))
        do {
            try await h.client.revokeSession(secret: "ss_old")
            Issue.record("a 429 passed")
        } catch {
            #expect(error.status == 429 && error.retryAfter == 9)
        }
        try await h.client.revokeSession(secret: "ss_old")
        let requests = h.transport.requests(to: "POST /v1/devices/me/logout")
        #expect(requests.count == 2)
        #expect(requests[0].json?["sessionSecret"] as? String == "ss_old")
        #expect(requests[0].headers["X-Reception-Revision"] == "0" && requests[0].headers["Authorization"] == nil)
        #expect(h.cooldowns.active(now: h.clock.now).count == 2, "no new cooldown from an exempt route")
    }

    @Test func deletionWithoutASecretMakesNoRequest() async throws {
        let h = Harness(registered: false)
        #expect(try await h.client.deleteDevice() == false)
        #expect(h.transport.requests.isEmpty)
    }

    @Test func deletionTreatsAnUnavailableAppIDAsDoneAndPassesOtherErrorsThrough() async throws {
        let h = Harness()
        h.transport.on("DELETE /v1/devices/me", .error(401, code: "invalid_app_id"), .error(403, code: "app_disabled"),
                       .error(503, code: "delete_failed"), .json(204, ""))
        #expect(try await h.client.deleteDevice())
        #expect(try await h.client.deleteDevice(), "403 app_disabled: the App ID is unavailable (seed 000)")
        await #expect(throws: ReceptionError(code: "delete_failed", status: 503)) { try await h.client.deleteDevice() }
        await #expect(throws: ReceptionError(code: "http_error", status: 204)) { try await h.client.deleteDevice() }
        #expect(h.cooldowns.active(now: h.clock.now).isEmpty)
    }

    @Test func aTeamPhotoIsAPlainGetWithinItsLimit() async throws {
        let h = Harness(revision: 9)
        let photo = Data([0xFF, 0xD8, 0x07, 0xFF, 0xD9])
        h.transport.on("GET /team/anna", .response(HTTPResponse(status: 200, headers: [:], body: photo)),
                       .json(403, ""), .response(HTTPResponse(status: 200, headers: [:], body: Data(count: 512 * 1024 + 1))))
        let url = try #require(URL(string: "https://files.test/team/anna?sig=1"))
        #expect(try await h.client.teamPhoto(url: url) == photo)
        let request = try #require(h.transport.requests.last)
        #expect(request.method == "GET" && request.headers.isEmpty, "no Reception headers, no credential")
        await #expect(throws: ReceptionError(code: "http_error", status: 403)) { try await h.client.teamPhoto(url: url) }
        await #expect(throws: ReceptionError(code: "image_too_large", status: 200)) { try await h.client.teamPhoto(url: url) }
        await #expect(throws: ReceptionError(code: "invalid_response")) {
            try await h.client.teamPhoto(url: try #require(URL(string: "file:///etc/passwd")))
        }
        #expect(h.cooldowns.active(now: h.clock.now).isEmpty)
    }

    @Test func appearanceUsesTheETagAndValidatesTheEnvelope() async throws {
        let h = Harness(revision: 9)
        h.transport.on("GET /v1/appearance",
                       .json(200, #"{"schemaVersion":1,"revision":7,"appearance":{"tint":"red"}}"#, headers: ["ETag": "\"v7\""]),
                       .json(304, "", headers: ["ETag": "\"v8\""]), .json(304, ""), .json(200, #"{"schemaVersion":2,"revision":7,"appearance":{}}"#),
                       .json(200, "{\"schemaVersion\":1,\"revision\":1,\"appearance\":{\"x\":\"" + String(repeating: "a", count: 70_000) + "\"}}"),
                       .json(429, "", headers: ["Retry-After": "45"]))
        guard case .updated(let appearance, 7, let etag) = try await h.client.appearance(etag: nil) else {
            Issue.record("expected an update")
            return
        }
        #expect(String(decoding: appearance, as: UTF8.self) == #"{"tint":"red"}"#)
        #expect(etag == "\"v7\"")
        #expect(try await h.client.appearance(etag: etag) == .unchanged(etag: "\"v8\""))
        #expect(h.transport.requests.last?.headers["If-None-Match"] == "\"v7\"")
        // A 304 to an unconditional request is not an answer.
        await #expect(throws: ReceptionError(code: "appearance_unavailable", status: 304)) {
            try await h.client.appearance(etag: nil)
        }
        #expect(h.transport.requests.allSatisfy { $0.headers["X-Reception-Revision"] == "0" && $0.headers["Authorization"] == nil })
        await #expect(throws: ReceptionError(code: "invalid_appearance", status: 200)) { try await h.client.appearance(etag: nil) }
        await #expect(throws: ReceptionError(code: "appearance_too_large", status: 200)) { try await h.client.appearance(etag: nil) }
        // Spec 3.16: a 429's Retry-After paces the appearance loop; appearance has no cooldown scope of its own.
        await #expect(throws: ReceptionError(code: "appearance_unavailable", status: 429, retryAfter: 45)) {
            try await h.client.appearance(etag: nil)
        }
        #expect(h.cooldowns.active(now: h.clock.now).isEmpty)
    }
}

enum UploadReservationFixture {
    static func make(headers: [String: String]) -> UploadReservation {
        let json = try! JSONSerialization.data(withJSONObject: [
            "attachmentId": "att1", "uploadUrl": "https://storage.test/put/1", "headers": headers,
        ])
        return try! JSONDecoder().decode(UploadReservation.self, from: json)
    }
}

enum Python {
    /// Runs a Python 3 script and returns its standard output.
    static func run(_ script: String) throws -> String { try ChildProcess.python(script) }
}
