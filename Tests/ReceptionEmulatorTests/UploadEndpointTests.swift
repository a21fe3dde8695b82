import Digest
import Foundation
import Testing

/// spec 3.14–3.15, 3.18 over loopback: reservation, storage PUT with checksum and If-Match/412, photo sends,
/// attachment resolution and expiring download links.
@Suite("UploadEndpointTests")
struct UploadEndpointTests {
    /// A tiny byte string that starts like a JPEG (the emulator checks the SOI marker, not the whole image).
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array("emulator test image".utf8) + [0xFF, 0xD9]

    static func reservation(_ bytes: [UInt8], requestId: String = UUID().uuidString) -> [String: Any] {
        [
            "requestId": requestId, "contentType": "image/jpeg", "bytes": bytes.count, "width": 4, "height": 3,
            "checksum": Base64.encode(SHA256.hash(bytes)),
        ]
    }

    /// PUTs `bytes` to a reservation's URL with exactly its headers.
    static func put(_ harness: EmulatorHarness, _ reservation: [String: Any], _ bytes: [UInt8]) async throws -> Reply {
        let text = try #require(reservation["uploadUrl"] as? String)
        let url = try #require(URL(string: text))
        let path = url.path + "?" + (url.query ?? "")
        return try await harness.raw("PUT", path, headers: reservation["headers"] as? [String: String] ?? [:], body: Data(bytes))
    }

    @Test func photoMessageGoesThroughReservePutAndSend() async throws {
        // Access tokens outlive the one-hour download links here, so only the link expires.
        let harness = try EmulatorHarness(accessTokenLifetime: 86_400)
        let device = try await harness.register()
        let reserve = try await harness.api("POST", "uploads", token: device.token, json: Self.reservation(Self.jpeg, requestId: "R1"))
        #expect(reserve.status == 201)
        let attachmentId = try #require(reserve.json["attachmentId"] as? String)
        #expect((reserve.json["uploadUrl"] as? String)?.hasPrefix("http://127.0.0.1:") == true)
        let headers = try #require(reserve.json["headers"] as? [String: String])
        #expect(headers["If-Match"] != nil)
        // The same requestId is the same reservation.
        let repeated = try await harness.api("POST", "uploads", token: device.token, json: Self.reservation(Self.jpeg, requestId: "R1"))
        #expect(repeated.json["attachmentId"] as? String == attachmentId)
        // Before the PUT the message POST is upload_incomplete.
        let early = try await harness.send(device, "", attachmentIds: [attachmentId])
        #expect(early.status == 409)
        #expect(early.errorCode == "upload_incomplete")
        #expect(try await Self.put(harness, reserve.json, Self.jpeg).status == 200)
        // A repeated PUT with the reservation's If-Match finds the object written: 412 (spec 3.14).
        #expect(try await Self.put(harness, reserve.json, Self.jpeg).status == 412)
        let send = try await harness.send(device, "look", attachmentIds: [attachmentId])
        #expect(send.status == 201)
        let attachment = try #require(((send.json["message"] as? [String: Any])?["attachments"] as? [[String: Any]])?.first)
        #expect(attachment["id"] as? String == attachmentId)
        #expect(attachment["contentType"] as? String == "image/jpeg")
        #expect(attachment["width"] as? Int == 4 && attachment["height"] as? Int == 3)
        let downloadText = try #require(attachment["url"] as? String)
        let download = try #require(URL(string: downloadText))
        let file = try await harness.raw("GET", download.path + "?" + (download.query ?? ""))
        #expect(file.status == 200)
        #expect(Array(file.body) == Self.jpeg)
        let resolved = try await harness.api("GET", "attachments/\(attachmentId)", token: device.token)
        #expect(resolved.json["id"] as? String == attachmentId)
        // Expired links answer 403; resolving gives a fresh one.
        harness.clock.advance(by: 7200)
        #expect(try await harness.raw("GET", download.path + "?" + (download.query ?? "")).status == 403)
        let fresh = try await harness.api("GET", "attachments/\(attachmentId)", token: device.token)
        let freshText = try #require(fresh.json["url"] as? String)
        let freshURL = try #require(URL(string: freshText))
        #expect(try await harness.raw("GET", freshURL.path + "?" + (freshURL.query ?? "")).status == 200)
    }

    @Test func storageChecksTheChecksumTheSizeAndTheSignature() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        let reserve = try await harness.api("POST", "uploads", token: device.token, json: Self.reservation(Self.jpeg))
        var tampered = Self.jpeg
        tampered[5] ^= 1
        let wrongChecksum = try await Self.put(harness, reserve.json, tampered)
        #expect(wrongChecksum.status == 400)
        #expect(wrongChecksum.errorCode == "checksum_mismatch")
        #expect(try await Self.put(harness, reserve.json, Self.jpeg + [0]).errorCode == "size_mismatch")
        var unsigned = reserve.json
        unsigned["uploadUrl"] = (reserve.json["uploadUrl"] as? String ?? "") + "00"
        #expect(try await Self.put(harness, unsigned, Self.jpeg).status == 403)
        #expect(try await Self.put(harness, reserve.json, Self.jpeg).status == 200)
    }

    @Test func aNonJpegUploadIsInvalidAttachment() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 1, 2, 3]
        let reserve = try await harness.api("POST", "uploads", token: device.token, json: Self.reservation(png))
        #expect(try await Self.put(harness, reserve.json, png).status == 200)
        let send = try await harness.send(device, "", attachmentIds: [reserve.json["attachmentId"] as? String ?? ""])
        #expect(send.status == 400)
        #expect(send.errorCode == "invalid_attachment")
    }

    @Test func invalidReservationsAre400() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        for change: [String: Any] in [
            ["contentType": "image/png"], ["bytes": 1_048_577], ["checksum": "abc"], ["width": 0], ["requestId": ""],
        ] {
            let body = Self.reservation(Self.jpeg).merging(change) { $1 }
            let reply = try await harness.api("POST", "uploads", token: device.token, json: body)
            #expect(reply.status == 400)
            #expect(reply.errorCode == "invalid_request")
        }
    }

    @Test func agentPhotosAreAttachedAndDownloadable() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        try await harness.send(device, "hi")
        let reply = try await harness.admin(
            "POST", "devices/\(device.id)/messages",
            json: ["photos": [["data": Base64.encode(Self.jpeg), "width": 2, "height": 2]]])
        #expect(reply.status == 201)
        let attachment = try #require(((reply.json["message"] as? [String: Any])?["attachments"] as? [[String: Any]])?.first)
        let id = try #require(attachment["id"] as? String)
        #expect(try await harness.api("GET", "attachments/\(id)", token: device.token).status == 200)
    }
}
