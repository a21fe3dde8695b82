import Digest
import Foundation
import ReceptionTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// State (issue 19): `GET`/`PUT /admin/snapshot` move the whole state, credentials included, to another emulator;
/// a bad or truncated snapshot changes nothing; `POST /admin/reset` empties the data and keeps the credentials;
/// `--export-on-exit` writes a snapshot on SIGTERM.
@Suite("SnapshotTests")
struct SnapshotTests {
    static func export(_ harness: EmulatorHarness) async throws -> Data {
        let reply = try await harness.admin("GET", "snapshot")
        try #require(reply.status == 200)
        return reply.body
    }

    static func put(_ harness: EmulatorHarness, _ body: Data) async throws -> Reply {
        try await harness.raw(
            "PUT", "/admin/snapshot", headers: ["Authorization": "Bearer \(harness.adminToken)"], body: body)
    }

    /// A device with a text, an agent reply with a photo, a push token and a team photo of the app.
    static func populated() async throws -> (EmulatorHarness, Device) {
        let harness = try EmulatorHarness()
        let device = try await harness.register(["pushToken": "c0ffee", "pushEnvironment": "SANDBOX"])
        try await harness.send(device, "my order is late")
        let reply = try await harness.admin(
            "POST", "devices/\(device.id)/messages",
            json: ["text": "On its way", "photos": [["data": Base64.encode(UploadEndpointTests.jpeg), "width": 2, "height": 2]]])
        try #require(reply.status == 201, "agent reply answered \(reply.status)")
        return (harness, device)
    }

    static func texts(_ harness: EmulatorHarness, _ device: Device) async throws -> [String] {
        let page = try await harness.api("GET", "conversation/messages", token: device.token)
        try #require(page.status == 200, "messages answered \(page.status)")
        return (page.json["messages"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
    }

    @Test func aSnapshotMovesTheStateToAFreshEmulatorWhereTheTokenStillWorks() async throws {
        let (source, device) = try await Self.populated()
        let snapshot = try await Self.export(source)
        let target = try EmulatorHarness()
        let before = target.emulator.credentials
        #expect(before != source.emulator.credentials)
        let imported = try await Self.put(target, snapshot)
        #expect(imported.status == 200, "\(String(decoding: imported.body, as: UTF8.self).prefix(300))")
        // Credentials travel with the state: the old admin token is gone, the source's works.
        #expect(target.emulator.credentials == source.emulator.credentials)
        #expect(try await target.raw("GET", "/admin/app", headers: ["Authorization": "Bearer \(before.adminToken)"]).status == 401)
        #expect(try await Self.texts(target, device) == ["my order is late", "On its way"])
        // The photo's bytes came along: its signed download works on the new emulator.
        let page = try await target.api("GET", "conversation/messages", token: device.token)
        let photo = try #require(
            ((page.json["messages"] as? [[String: Any]])?.last?["attachments"] as? [[String: Any]])?.first?["url"] as? String)
        let download = try await target.download(photo.replacingOccurrences(of: source.emulator.baseURL, with: target.emulator.baseURL))
        #expect(download.status == 200)
        #expect(Array(download.body) == UploadEndpointTests.jpeg)
        // The device keeps chatting and renewing on the new emulator.
        #expect(try await target.send(device, "thanks").status == 201)
        #expect(try await target.api("POST", "devices/me/token", json: ["sessionSecret": device.sessionSecret]).status == 200)
        let pushes = try await target.admin("GET", "push-outbox").json["pushes"] as? [[String: Any]]
        #expect(pushes?.count == 1)
        // A second export of the imported state is the same state.
        let again = try await Self.export(target)
        let tablesOf = { (data: Data) in (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["tables"] as? [String: Any] }
        #expect(tablesOf(again)?.keys.sorted() == tablesOf(snapshot)?.keys.sorted())
    }

    @Test func aTruncatedOrBadSnapshotIs400AndChangesNothing() async throws {
        let (harness, device) = try await Self.populated()
        // The first fetch records the agent reply as delivered; after it, reading changes nothing.
        _ = try await Self.texts(harness, device)
        let snapshot = try await Self.export(harness)
        let credentials = harness.emulator.credentials
        var document = try #require(try JSONSerialization.jsonObject(with: snapshot) as? [String: Any])
        var tables = try #require(document["tables"] as? [String: Any])
        var devices = try #require(tables["devices"] as? [String: Any])
        devices["rows"] = [[1, 2]]
        tables["devices"] = devices
        document["tables"] = tables
        let wrongWidth = try JSONSerialization.data(withJSONObject: document)
        document["version"] = 2
        let wrongVersion = try JSONSerialization.data(withJSONObject: document)
        document["version"] = 1
        tables = try #require((try JSONSerialization.jsonObject(with: snapshot) as? [String: Any])?["tables"] as? [String: Any])
        var conversations = try #require(tables["conversations"] as? [String: Any])
        let seqIndex = try #require((conversations["columns"] as? [String])?.firstIndex(of: "last_seq"))
        var conversationRows = try #require(conversations["rows"] as? [[Any]])
        conversationRows[0][seqIndex] = Int64.max
        conversations["rows"] = conversationRows
        tables["conversations"] = conversations
        document["tables"] = tables
        let overflowingCounter = try JSONSerialization.data(withJSONObject: document)
        let bad: [(String, Data)] = [
            ("truncated", snapshot.prefix(snapshot.count / 2)), ("one byte short", snapshot.dropLast()),
            ("empty", Data()), ("not JSON", Data("snapshot".utf8)), ("a row of the wrong width", wrongWidth),
            ("another version", wrongVersion), ("an empty object", Data("{}".utf8)),
            ("a counter of 2^63 − 1", overflowingCounter),
        ]
        for (name, body) in bad {
            let reply = try await Self.put(harness, Data(body))
            #expect(reply.status == 400, "\(name)")
            #expect(reply.errorCode == "invalid_snapshot", "\(name)")
        }
        #expect(harness.emulator.credentials == credentials)
        #expect(try await Self.texts(harness, device) == ["my order is late", "On its way"])
        #expect(try await Self.export(harness) == snapshot)
    }

    @Test func aSnapshotOverItsLimitIs413FromTheHeadAndOthersAreStillAnswered() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        let connection = try RawConnection(port: harness.port)
        defer { connection.disconnect() }
        // The head announces one byte more than the limit and no body follows: the answer cannot wait for it.
        #expect(connection.write(
            "PUT /admin/snapshot HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(harness.adminToken)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(64 * 1_048_576 + 1)\r\n\r\n"))
        #expect(connection.read(until: "\r\n\r\n"))
        #expect(connection.text.hasPrefix("HTTP/1.1 413"), "\(connection.text.prefix(80))")
        #expect(try await harness.api("GET", "conversation", token: device.token).status == 200)
        // Above the admin API's 8 MiB the snapshot import still reads the body: a 9 MiB non-snapshot is 400, not 413.
        let large = try await Self.put(harness, Data("[".utf8) + Data(repeating: 0x20, count: 9 * 1_048_576) + Data("]".utf8))
        #expect(large.status == 400)
        #expect(large.errorCode == "invalid_snapshot")
    }

    @Test func resetEmptiesTheDataAndKeepsTheCredentialsAndSettings() async throws {
        let (harness, device) = try await Self.populated()
        _ = try await harness.admin("PATCH", "app", json: ["onlyVerifiedUsers": false, "push": ["senderName": "Mia"]])
        let credentials = harness.emulator.credentials
        let reset = try await harness.admin("POST", "reset")
        #expect(reset.status == 200)
        #expect(harness.emulator.credentials == credentials)
        #expect(((reset.json["push"] as? [String: Any])?["senderName"] as? String) == "Mia")
        #expect((try await harness.admin("GET", "devices").json["devices"] as? [Any])?.isEmpty == true)
        #expect((try await harness.admin("GET", "push-outbox").json["pushes"] as? [Any])?.isEmpty == true)
        #expect(try await RequestLogTests.entries(harness).isEmpty)
        #expect(try await harness.api("GET", "conversation", token: device.token).status == 401)
        // The App ID still works: a new registration succeeds and starts an empty chat.
        let fresh = try await harness.register()
        #expect(try await Self.texts(harness, fresh).isEmpty)
    }

    @Test func exportOnExitWritesASnapshotOnSIGTERM() async throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("reception-emulator")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let candidates = [binary, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("reception-emulator")]
        let executable = try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }, "no reception-emulator next to \(CommandLine.arguments[0])")
        let output = folder.appendingPathComponent("out.txt")
        let snapshotFile = folder.appendingPathComponent("state.json")
        try Data().write(to: output)
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        let process = try Subprocess(
            executable.path,
            ["--port", "0", "--data", folder.appendingPathComponent("data").path, "--export-on-exit", snapshotFile.path],
            standardOutput: .descriptor(handle.fileDescriptor), standardError: .descriptor(handle.fileDescriptor))
        defer {
            process.terminate(SIGKILL)
            process.waitUntilExit()
        }
        // Wait for the banner (its port and App ID), for at most 20 s.
        var banner = ""
        for _ in 0..<200 where !banner.contains("Admin token") {
            try await Task.sleep(for: .milliseconds(100))
            banner = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        }
        let port = try #require(banner.split(separator: "\n").first?.split(separator: ":").last.flatMap { Int($0) }, "\(banner)")
        let appId = try #require(banner.split(separator: "\n").first { $0.contains("App ID:") }?.split(separator: " ").last)
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/v1/devices")))
        request.httpMethod = "POST"
        request.setValue(String(appId), forHTTPHeaderField: "X-App-Id")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: EmulatorHarness.payload())
        let (body, _) = try await URLSession(configuration: .ephemeral).data(for: request)
        let token = try #require((try JSONSerialization.jsonObject(with: body) as? [String: Any])?["token"] as? String)
        process.terminate()
        for _ in 0..<200 where process.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!process.isRunning)
        #expect(process.terminationStatus == 0)
        let snapshot = try Data(contentsOf: snapshotFile)
        // The written file is a snapshot another emulator takes, with the registered device's token working.
        let target = try EmulatorHarness(realClock: true)
        #expect(try await Self.put(target, snapshot).status == 200)
        #expect(target.appId == String(appId))
        #expect(try await target.api("GET", "conversation", token: token).status == 200)
    }
}
