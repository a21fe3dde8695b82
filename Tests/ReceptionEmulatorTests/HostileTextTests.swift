import Digest
import Foundation
import ReceptionEmulator
import Testing

/// Issue 15, text and bytes: SQLite keeps text and blobs whole (a U+0000 inside is data, not the end), identifiers
/// with U+0000 are refused with 400 `invalid_request`, and message text keeps it (spec 3.8 limits text by length
/// only).
@Suite("HostileTextTests")
struct HostileTextTests {
    static func temporaryDatabase() throws -> (SQLiteDatabase, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return (try SQLiteDatabase(path: directory + "/test.sqlite"), directory)
    }

    @Test func textWithNULRoundTripsWholeAndStaysDistinctInAUniqueColumn() throws {
        let (db, directory) = try Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try db.execute("CREATE TABLE t (key TEXT NOT NULL UNIQUE)")
        for key in ["A\u{0}x", "A\u{0}y", "A", "", "\u{0}", "é\u{0}😀"] {
            try db.query("INSERT INTO t (key) VALUES (?)", [.text(key)])
        }
        let keys = try db.query("SELECT key FROM t ORDER BY rowid").map { $0.text("key") }
        #expect(keys == ["A\u{0}x", "A\u{0}y", "A", "", "\u{0}", "é\u{0}😀"])
        // An empty text is a zero-length TEXT, not NULL.
        #expect(try db.row("SELECT typeof(key) AS type FROM t WHERE key = ?", [.text("")])?.text("type") == "text")
        #expect(try db.row("SELECT COUNT(*) AS n FROM t WHERE key = ?", [.text("A\u{0}y")])?.int("n") == 1)
    }

    @Test func emptyAndLargeBlobsRoundTripOnARealFile() throws {
        let (db, directory) = try Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try db.execute("CREATE TABLE b (id INTEGER PRIMARY KEY, data BLOB)")
        let seed = UInt64.random(in: 0...UInt64.max)
        print("HostileTextTests.emptyAndLargeBlobsRoundTripOnARealFile seed: \(seed)")
        var generator = SeededGenerator(seed: seed)
        let large = generator.bytes(8 * 1_048_576)
        let blobs: [[UInt8]] = [[], [0], [0, 0, 0], large]
        for (id, blob) in blobs.enumerated() {
            try db.query("INSERT INTO b (id, data) VALUES (?, ?)", [.int(Int64(id)), .blob(blob)])
        }
        for (id, blob) in blobs.enumerated() {
            let row = try #require(try db.row("SELECT data, typeof(data) AS type FROM b WHERE id = ?", [.int(Int64(id))]))
            #expect(row.blob("data") == blob, "blob \(id) of \(blob.count) bytes, seed \(seed)")
            #expect(row.text("type") == "blob", "a \(blob.count)-byte blob is stored as a blob, not NULL")
        }
    }

    @Test func clientIdsThatDifferOnlyAfterANULNeverBecomeOneMessage() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        for clientId in ["SAME\u{0}first", "SAME\u{0}second", "\u{0}"] {
            let reply = try await harness.send(device, "text", clientId: clientId)
            #expect(reply.status == 400, "clientId \(clientId.debugDescription)")
            #expect(reply.errorCode == "invalid_request")
        }
        // The prefix before the NUL is an ordinary, unused clientId: it makes one new message, and nothing was
        // stored under the refused IDs.
        #expect(try await harness.send(device, "plain", clientId: "SAME").status == 201)
        let messages = try #require(try await harness.admin("GET", "devices/\(device.id)/messages").json["messages"] as? [[String: Any]])
        #expect(messages.map { $0["clientId"] as? String } == ["SAME"])
        #expect(messages.map { $0["text"] as? String } == ["plain"])
    }

    @Test func messageTextWithNULRoundTripsWhole() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        let text = "before\u{0}after \u{0}\u{0} 😀\u{0}"
        let sent = try await harness.send(device, text)
        #expect(sent.status == 201)
        #expect((sent.json["message"] as? [String: Any])?["text"] as? String == text)
        let window = try await harness.api("GET", "conversation", token: device.token)
        #expect((window.json["messages"] as? [[String: Any]])?.map { $0["text"] as? String } == [text])
        let page = try await harness.api("GET", "conversation/messages?after=0", token: device.token)
        #expect((page.json["messages"] as? [[String: Any]])?.first?["text"] as? String == text)
        // An agent reply keeps it as well.
        let reply = try await harness.admin("POST", "devices/\(device.id)/messages", json: ["text": "re\u{0}ply"])
        #expect(reply.status == 201)
        let again = try await harness.api("GET", "conversation", token: device.token)
        #expect((again.json["messages"] as? [[String: Any]])?.last?["text"] as? String == "re\u{0}ply")
    }

    /// Every other identifier a request names refuses U+0000 the same way, and nothing changes.
    @Test func identifiersWithNULAre400() async throws {
        let context = try await SweepContext.make()
        let harness = context.harness
        let nul = "\u{0}"
        var reservation = UploadEndpointTests.reservation(UploadEndpointTests.jpeg)
        reservation["requestId"] = "R" + nul + "1"
        let cases: [(String, Reply)] = [
            ("requestId", try await harness.api("POST", "uploads", token: context.device.token, json: reservation)),
            ("attachmentIds[]", try await harness.send(context.device, "x", attachmentIds: ["att" + nul])),
            (
                "conversationId",
                try await harness.api(
                    "POST", "conversation/read", token: context.device.token,
                    json: ["conversationId": context.conversationId + nul, "throughSeq": 1])
            ),
            (
                "messageId",
                try await harness.api(
                    "POST", "conversation/action-click", token: context.device.token, json: ["messageId": "m" + nul])
            ),
            ("refresh sessionSecret", try await harness.api("POST", "devices/me/token", json: ["sessionSecret": context.device.sessionSecret + nul + "x"])),
            ("logout sessionSecret", try await harness.api("POST", "devices/me/logout", json: ["sessionSecret": context.device.sessionSecret + nul])),
            ("delete sessionSecret", try await harness.api("DELETE", "devices/me", json: ["sessionSecret": context.device.sessionSecret + nul])),
            (
                "paywalls[].id",
                try await harness.api(
                    "PATCH", "devices/me", token: context.device.token, json: ["paywalls": [["id": "p" + nul, "title": "Pro"]]])
            ),
            ("team id", try await harness.admin("PUT", "team", json: ["members": [["id": "t" + nul, "name": "Mia"]]])),
            ("authorId", try await harness.admin("POST", "devices/\(context.device.id)/messages", json: ["text": "x", "authorId": "t" + nul])),
        ]
        for (name, reply) in cases {
            #expect(reply.status == 400, "\(name): \(reply.status)")
            #expect(reply.errorCode == "invalid_request", "\(name)")
        }
        // The session survived the logout and deletion that named it with a NUL appended.
        let refreshed = try await harness.api("POST", "devices/me/token", json: ["sessionSecret": context.device.sessionSecret])
        #expect(refreshed.status == 200)
        #expect((try await harness.admin("GET", "devices").json["devices"] as? [Any])?.count == 1)
        try await context.expectStillServing(after: "identifiers with NUL")
    }

    /// A photo of the full 1 MiB budget goes through reserve, PUT, send and download byte for byte.
    @Test func aFullSizeUploadRoundTripsByteForByte() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        let seed = UInt64.random(in: 0...UInt64.max)
        print("HostileTextTests.aFullSizeUploadRoundTripsByteForByte seed: \(seed)")
        var generator = SeededGenerator(seed: seed)
        let bytes = [0xFF, 0xD8, 0xFF] + generator.bytes(1_048_576 - 3)
        let reserve = try await harness.api("POST", "uploads", token: device.token, json: UploadEndpointTests.reservation(bytes))
        #expect(reserve.status == 201)
        #expect(try await UploadEndpointTests.put(harness, reserve.json, bytes).status == 200)
        let sent = try await harness.send(device, "", attachmentIds: [try #require(reserve.json["attachmentId"] as? String)])
        let url = try #require(((sent.json["message"] as? [String: Any])?["attachments"] as? [[String: Any]])?.first?["url"] as? String)
        let file = try await harness.download(url)
        #expect(file.status == 200)
        #expect(Array(file.body) == bytes, "seed \(seed)")
    }
}

/// SplitMix64: a reproducible byte source for a printed seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` bytes, eight from each draw.
    mutating func bytes(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 8)
        while bytes.count < count { withUnsafeBytes(of: next()) { bytes.append(contentsOf: $0) } }
        return Array(bytes.prefix(count))
    }
}
