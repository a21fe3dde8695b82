import Digest
import Foundation
import ReceptionEmulator
import Testing

/// spec 3.6–3.7, 3.18, 4.5 and 7.20 over loopback: team names and photos in conversation responses only as the
/// published appearance allows, signed photo URLs that serve the bytes to a plain GET, expire and are re-signed
/// under a stable `photoId`, and the photo rules of `PUT /admin/team`.
@Suite("TeamPhotoTests")
struct TeamPhotoTests {
    /// Bytes that start like a JPEG / a PNG (the emulator checks the signature, not the whole image).
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array("team photo of Mia".utf8) + [0xFF, 0xD9]
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("team photo of Noor".utf8)

    /// spec 4.5 as Docs/Emulator.md pins it: the first 32 hex digits of the SHA-256 of the photo bytes.
    static func photoId(_ bytes: [UInt8]) -> String { String(Hex.encode(SHA256.hash(bytes)).prefix(32)) }

    /// A device with a conversation in which `t1` (Mia, JPEG photo) wrote a reply; `t2` (Noor, PNG photo) wrote one
    /// too when `bothWrite`, and the appearance is published with `appearance` when given.
    static func chat(
        _ harness: EmulatorHarness, appearance: [String: Any]? = nil, bothWrite: Bool = false
    ) async throws -> Device {
        let device = try await harness.register()
        try #require(try await harness.send(device, "hi").status == 201)
        let team = try await harness.admin(
            "PUT", "team",
            json: [
                "members": [
                    ["id": "t1", "name": "Mia", "photo": Base64.encode(jpeg)],
                    ["id": "t2", "name": "Noor", "photo": Base64.encode(png)],
                ]
            ])
        try #require(team.status == 200)
        for author in bothWrite ? ["t1", "t2"] : ["t1"] {
            let reply = try await harness.admin(
                "POST", "devices/\(device.id)/messages", json: ["text": "Hello from \(author)", "authorId": author])
            try #require(reply.status == 201)
        }
        if let appearance {
            try #require(try await harness.admin("PUT", "appearance", json: ["appearance": appearance]).status == 200)
        }
        return device
    }

    /// The `team` array of both conversation responses (spec 3.6 window, spec 3.7 page), which must agree on it
    /// apart from the signatures.
    static func team(_ harness: EmulatorHarness, _ device: Device) async throws -> [[String: Any]] {
        let window = try await harness.api("GET", "conversation", token: device.token)
        let page = try await harness.api("GET", "conversation/messages?after=0", token: device.token)
        try #require(window.status == 200 && page.status == 200)
        let team = try #require(window.json["team"] as? [[String: Any]])
        let pageTeam = try #require(page.json["team"] as? [[String: Any]])
        #expect(pageTeam.map { $0["id"] as? String } == team.map { $0["id"] as? String })
        #expect(pageTeam.map { $0["name"] as? String } == team.map { $0["name"] as? String })
        #expect(pageTeam.map { $0["photoId"] as? String } == team.map { $0["photoId"] as? String })
        #expect(pageTeam.map { $0["photoUrl"] is NSNull } == team.map { $0["photoUrl"] is NSNull })
        return team
    }

    /// Published appearances (JSON text) that enable neither team names nor photos.
    @Test(arguments: [
        #"{}"#, #"{"showsTeamNames": false, "showsTeamPhotos": false}"#,
        // spec 7.20: only JSON `true` switches them on (a `1` or a string is not a boolean).
        #"{"showsTeamNames": "true", "showsTeamPhotos": 1}"#,
    ])
    func theTeamIsEmptyWhileTheAppearanceEnablesNeither(appearance: String) async throws {
        let harness = try EmulatorHarness()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(appearance.utf8)) as? [String: Any])
        let device = try await Self.chat(harness, appearance: object.isEmpty ? nil : object, bothWrite: true)
        #expect(try await Self.team(harness, device).isEmpty)
        // The same conversation lists both authors once names are switched on.
        _ = try await harness.admin("PUT", "appearance", json: ["appearance": ["showsTeamNames": true]])
        #expect(try await Self.team(harness, device).map { $0["id"] as? String } == ["t1", "t2"])
    }

    @Test func onlyNamesGiveNamesWithoutPhotoURLs() async throws {
        let harness = try EmulatorHarness()
        let device = try await Self.chat(harness, appearance: ["showsTeamNames": true])
        let team = try await Self.team(harness, device)
        // Only authors of this conversation: Noor wrote nothing here.
        #expect(team.count == 1)
        let member = try #require(team.first)
        #expect(member["id"] as? String == "t1")
        #expect(member["name"] as? String == "Mia")
        #expect(member["photoUrl"] is NSNull)
        #expect(member["photoId"] == nil)
    }

    @Test func photosGiveSignedURLsThatServeTheExactBytesToAPlainGet() async throws {
        let harness = try EmulatorHarness()
        let device = try await Self.chat(harness, appearance: ["showsTeamPhotos": true], bothWrite: true)
        let team = try await Self.team(harness, device)
        #expect(team.map { $0["name"] as? String } == ["Mia", "Noor"])
        for (member, (bytes, type)) in zip(team, [(Self.jpeg, "image/jpeg"), (Self.png, "image/png")]) {
            #expect(member["photoId"] as? String == Self.photoId(bytes))
            let urlText = try #require(member["photoUrl"] as? String)
            #expect(urlText.hasPrefix("http://127.0.0.1:\(harness.port)/team-photos/\(Self.photoId(bytes))?expires="))
            let photo = try await harness.download(urlText)
            #expect(photo.status == 200)
            #expect(photo.header("Content-Type") == type)
            #expect(Array(photo.body) == bytes)
        }
        // HTTP/1.0 with not a single header line: the URL alone must do.
        let signed = try #require(team.first?["photoUrl"] as? String)
        let url = try #require(URL(string: signed))
        let connection = try RawConnection(port: harness.port)
        connection.write("GET \(url.path)?\(url.query ?? "") HTTP/1.0\r\n\r\n")
        #expect(connection.readUntilClosed())
        let separator = try #require(connection.received.range(of: Data("\r\n\r\n".utf8)))
        let head = String(decoding: connection.received[..<separator.lowerBound], as: UTF8.self)
        #expect(head.hasPrefix("HTTP/1.0 200") || head.hasPrefix("HTTP/1.1 200"))
        #expect(head.lowercased().contains("content-type: image/jpeg"))
        #expect(Array(connection.received[separator.upperBound...]) == Self.jpeg)
        // A changed signature, or the signature moved to another photo, is refused.
        #expect(try await harness.download(signed + "0").status == 403)
        let moved = signed.replacingOccurrences(of: Self.photoId(Self.jpeg), with: Self.photoId(Self.png))
        #expect(try await harness.download(moved).status == 403)
    }

    @Test func aLaterResponseResignsTheURLButKeepsThePhotoId() async throws {
        let harness = try EmulatorHarness(teamPhotoURLLifetime: 60)
        let device = try await Self.chat(harness, appearance: ["showsTeamNames": true, "showsTeamPhotos": true])
        let first = try #require(try await Self.team(harness, device).first)
        harness.clock.advance(by: 30)
        let second = try #require(try await Self.team(harness, device).first)
        let firstURL = try #require(first["photoUrl"] as? String)
        let secondURL = try #require(second["photoUrl"] as? String)
        #expect(secondURL != firstURL)
        #expect(first["photoId"] as? String == Self.photoId(Self.jpeg))
        #expect(second["photoId"] as? String == first["photoId"] as? String)
        #expect(Array(try await harness.download(secondURL).body) == Self.jpeg)
        // 61 s after the first signing only the re-signed URL still works.
        harness.clock.advance(by: 31)
        #expect(try await harness.download(firstURL).status == 403)
        #expect(Array(try await harness.download(secondURL).body) == Self.jpeg)
    }

    @Test func anExpiredPhotoURLAnswers403() async throws {
        let harness = try EmulatorHarness(teamPhotoURLLifetime: 60)
        let device = try await Self.chat(harness, appearance: ["showsTeamPhotos": true])
        let url = try #require(try await Self.team(harness, device).first?["photoUrl"] as? String)
        harness.clock.advance(by: 59)
        #expect(try await harness.download(url).status == 200)
        harness.clock.advance(by: 2)
        let expired = try await harness.download(url)
        #expect(expired.status == 403)
        #expect(expired.errorCode == "expired_link")
        let fresh = try #require(try await Self.team(harness, device).first?["photoUrl"] as? String)
        #expect(Array(try await harness.download(fresh).body) == Self.jpeg)
    }

    /// Photos `PUT /admin/team` must refuse with 400 `invalid_request`.
    enum RefusedPhoto: String, CaseIterable, Sendable {
        case oneByteOver512KiB, notBase64, base64WithoutPadding, neitherJPEGNorPNG, empty, number

        var value: Any {
            switch self {
            case .oneByteOver512KiB: Base64.encode(jpeg + [UInt8](repeating: 0, count: 512 * 1024 + 1 - jpeg.count))
            case .notBase64: "not base64 at all!"
            case .base64WithoutPadding: String(Base64.encode(jpeg).dropLast())
            case .neitherJPEGNorPNG: Base64.encode(Array("GIF89a".utf8))
            case .empty: ""
            case .number: 7
            }
        }
    }

    @Test(arguments: RefusedPhoto.allCases)
    func oversizedOrUndecodablePhotosAre400(photo: RefusedPhoto) async throws {
        let harness = try EmulatorHarness()
        let device = try await Self.chat(harness, appearance: ["showsTeamNames": true, "showsTeamPhotos": true])
        let reply = try await harness.admin(
            "PUT", "team", json: ["members": [["id": "t1", "name": "Changed", "photo": photo.value]]])
        #expect(reply.status == 400)
        #expect(reply.errorCode == "invalid_request")
        // Nothing of the refused team was stored.
        let member = try #require(try await Self.team(harness, device).first)
        #expect(member["name"] as? String == "Mia")
        #expect(member["photoId"] as? String == Self.photoId(Self.jpeg))
    }

    @Test func aPhotoOfExactly512KiBIsAccepted() async throws {
        let harness = try EmulatorHarness()
        let device = try await Self.chat(harness, appearance: ["showsTeamPhotos": true])
        let large = Self.jpeg + [UInt8](repeating: 7, count: 512 * 1024 - Self.jpeg.count)
        let reply = try await harness.admin(
            "PUT", "team", json: ["members": [["id": "t1", "name": "Mia", "photo": Base64.encode(large)]]])
        #expect(reply.status == 200)
        let url = try #require(try await Self.team(harness, device).first?["photoUrl"] as? String)
        #expect(Array(try await harness.download(url).body) == large)
    }

    @Test func photoNullRemovesAPhotoAndAnAbsentPhotoKeepsIt() async throws {
        let harness = try EmulatorHarness()
        let device = try await Self.chat(harness, appearance: ["showsTeamNames": true, "showsTeamPhotos": true])
        let jpegURL = try #require(try await Self.team(harness, device).first?["photoUrl"] as? String)
        // No `photo` key: renamed, photo kept.
        let renamed = try await harness.admin("PUT", "team", json: ["members": [["id": "t1", "name": "Mia R."]]])
        #expect(renamed.status == 200)
        #expect((renamed.json["members"] as? [[String: Any]])?.first?["photoId"] as? String == Self.photoId(Self.jpeg))
        let kept = try #require(try await Self.team(harness, device).first)
        #expect(kept["name"] as? String == "Mia R.")
        #expect(kept["photoId"] as? String == Self.photoId(Self.jpeg))
        // A new photo: a new photoId, and the old photo's (still signed) URL finds nothing.
        let replaced = try await harness.admin(
            "PUT", "team", json: ["members": [["id": "t1", "name": "Mia R.", "photo": Base64.encode(Self.png)]]])
        #expect((replaced.json["members"] as? [[String: Any]])?.first?["photoId"] as? String == Self.photoId(Self.png))
        let pngURL = try #require(try await Self.team(harness, device).first?["photoUrl"] as? String)
        #expect(try await harness.download(jpegURL).status == 404)
        #expect(Array(try await harness.download(pngURL).body) == Self.png)
        // `photo: null`: no photo any more.
        let removed = try await harness.admin(
            "PUT", "team", json: ["members": [["id": "t1", "name": "Mia R.", "photo": NSNull()]]])
        #expect(removed.status == 200)
        #expect((removed.json["members"] as? [[String: Any]])?.first?["photoId"] is NSNull)
        let member = try #require(try await Self.team(harness, device).first)
        #expect(member["name"] as? String == "Mia R.")
        #expect(member["photoUrl"] is NSNull)
        #expect(member["photoId"] == nil)
        #expect(try await harness.download(pngURL).status == 404)
    }

    @Test func aDataFolderFromBeforeTeamPhotosStillOpens() async throws {
        // The schema as it was before 003_team_photos, with a team member in it.
        let directory = try OlderDataFolder.make(before: "003_team_photos") { db in
            try db.query("INSERT INTO team (id, name) VALUES ('old', 'Ada')")
        }
        let harness = try EmulatorHarness(directory: directory)
        let device = try await harness.register()
        try await harness.send(device, "hi")
        let reply = try await harness.admin(
            "POST", "devices/\(device.id)/messages", json: ["text": "Hi", "authorId": "old"])
        #expect(reply.status == 201)
        _ = try await harness.admin("PUT", "appearance", json: ["appearance": ["showsTeamPhotos": true]])
        let before = try #require(try await Self.team(harness, device).first)
        #expect(before["name"] as? String == "Ada")
        #expect(before["photoUrl"] is NSNull)
        let team = try await harness.admin(
            "PUT", "team", json: ["members": [["id": "old", "name": "Ada", "photo": Base64.encode(Self.png)]]])
        #expect(team.status == 200)
        let url = try #require(try await Self.team(harness, device).first?["photoUrl"] as? String)
        #expect(Array(try await harness.download(url).body) == Self.png)
    }
}
