import Foundation
import Testing

/// The upload URL (`/storage/<id>?expires=&sig=`) expires with its reservation after an hour and is checked like
/// the download links: any change to the ID, the expiry or the signature is 403, and a repeated reservation hands
/// out a fresh URL for the same attachment.
@Suite("SignedURLTests")
struct SignedURLTests {
    /// `reservation` with its `uploadUrl` replaced by `transform` of it.
    static func withURL(_ reservation: [String: Any], _ transform: (String) -> String) -> [String: Any] {
        var copy = reservation
        copy["uploadUrl"] = transform(reservation["uploadUrl"] as? String ?? "")
        return copy
    }

    @Test func anUploadURLExpiresWithItsReservationAndARepeatRenewsIt() async throws {
        // Access tokens outlive the reservation here, so only the upload URL expires.
        let harness = try EmulatorHarness(accessTokenLifetime: 86_400)
        let device = try await harness.register()
        let jpeg = UploadEndpointTests.jpeg
        let early = try await harness.api("POST", "uploads", token: device.token, json: UploadEndpointTests.reservation(jpeg))
        let late = try await harness.api("POST", "uploads", token: device.token, json: UploadEndpointTests.reservation(jpeg, requestId: "LATE"))
        #expect((late.json["uploadUrl"] as? String)?.contains("?expires=") == true)
        // One second before the hour ends the URL works; one second after it is 403 invalid_signature.
        harness.clock.advance(by: 3599)
        #expect(try await UploadEndpointTests.put(harness, early.json, jpeg).status == 200)
        harness.clock.advance(by: 2)
        let expired = try await UploadEndpointTests.put(harness, late.json, jpeg)
        #expect(expired.status == 403)
        #expect(expired.errorCode == "invalid_signature")
        // The client repeats the reservation (same requestId): same attachment, a URL that works again.
        let renewed = try await harness.api("POST", "uploads", token: device.token, json: UploadEndpointTests.reservation(jpeg, requestId: "LATE"))
        #expect(renewed.status == 200)
        #expect(renewed.json["attachmentId"] as? String == late.json["attachmentId"] as? String)
        #expect(renewed.json["uploadUrl"] as? String != late.json["uploadUrl"] as? String)
        #expect(try await UploadEndpointTests.put(harness, renewed.json, jpeg).status == 200)
        let sent = try await harness.send(device, "", attachmentIds: [try #require(renewed.json["attachmentId"] as? String)])
        #expect(sent.status == 201)
    }

    @Test func aTamperedUploadURLIs403() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        let jpeg = UploadEndpointTests.jpeg
        let reserve = try await harness.api("POST", "uploads", token: device.token, json: UploadEndpointTests.reservation(jpeg))
        let other = try await harness.api("POST", "uploads", token: device.token, json: UploadEndpointTests.reservation(jpeg))
        let url = try #require(reserve.json["uploadUrl"] as? String)
        let otherURL = try #require(other.json["uploadUrl"] as? String)
        let query = try #require(URLComponents(string: url)?.queryItems)
        let expires = try #require(query.first { $0.name == "expires" }?.value)
        let sig = try #require(query.first { $0.name == "sig" }?.value)
        let flipped = String(sig.dropLast()) + (sig.hasSuffix("0") ? "1" : "0")
        let tampered: [(String, String)] = [
            ("flipped signature", url.replacingOccurrences(of: sig, with: flipped)),
            ("longer signature", url + "00"),
            ("shorter signature", String(url.dropLast())),
            ("upper-case signature", url.replacingOccurrences(of: sig, with: sig.uppercased())),
            ("later expiry", url.replacingOccurrences(of: "expires=\(expires)", with: "expires=\((Int64(expires) ?? 0) + 1)")),
            ("padded expiry", url.replacingOccurrences(of: "expires=\(expires)", with: "expires=0\(expires)")),
            ("no expiry", url.replacingOccurrences(of: "expires=\(expires)&", with: "")),
            ("no signature", url.replacingOccurrences(of: "&sig=\(sig)", with: "")),
            // The other reservation's query on this attachment: signed for another ID.
            ("another attachment's signature", url.components(separatedBy: "?")[0] + "?" + otherURL.components(separatedBy: "?")[1]),
        ]
        for (name, tamperedURL) in tampered {
            let reply = try await UploadEndpointTests.put(harness, Self.withURL(reserve.json) { _ in tamperedURL }, jpeg)
            #expect(reply.status == 403, "\(name)")
            #expect(reply.errorCode == "invalid_signature", "\(name)")
        }
        #expect(try await UploadEndpointTests.put(harness, reserve.json, jpeg).status == 200)
    }

    @Test func aDownloadLinkSignedForAnotherAttachmentIs403() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        var urls: [String] = []
        for _ in 0..<2 {
            let reply = try await harness.admin(
                "POST", "devices/\(device.id)/messages",
                json: ["photos": [["data": HostileNumberTests.photo]]])
            let attachment = try #require(((reply.json["message"] as? [String: Any])?["attachments"] as? [[String: Any]])?.first)
            urls.append(try #require(attachment["url"] as? String))
        }
        #expect(try await harness.download(urls[0]).status == 200)
        let swapped = urls[0].components(separatedBy: "?")[0] + "?" + urls[1].components(separatedBy: "?")[1]
        let reply = try await harness.download(swapped)
        #expect(reply.status == 403)
        #expect(reply.errorCode == "expired_link")
    }

    @Test func anAdminTokenOfTheRightLengthButWrongIs401() async throws {
        let harness = try EmulatorHarness()
        let token = harness.adminToken
        let wrong = String(token.dropLast()) + (token.hasSuffix("A") ? "B" : "A")
        for header in ["Bearer \(wrong)", "Bearer \(token)x", "bearer \(token)", "Bearer", token] {
            let reply = try await harness.raw("GET", "/admin/app", headers: ["Authorization": header])
            #expect(reply.status == 401, "Authorization: \(header)")
            #expect(reply.errorCode == "admin_unauthorized")
        }
        #expect(try await harness.admin("GET", "app").status == 200)
    }
}
