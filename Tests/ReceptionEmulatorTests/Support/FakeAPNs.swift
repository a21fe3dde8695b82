import Foundation
import ReceptionEmulator
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `scripts/fake-apns` (Python, h2 and cryptography) as a child process: HTTP/2 over TLS on two loopback ports,
/// production and sandbox, that verifies provider tokens with the public keys a test registers and answers what
/// the test scripts. Stopped when the value goes away.
final class FakeAPNs {
    let productionPort: Int
    let sandboxPort: Int
    let controlPort: Int
    /// The certificate of the fake's own certificate authority, for `apnsCAFile`.
    let caFile: String
    private let process: Process
    private let folder: String
    /// Held while a fake's process is launched.
    private static let launches = NSLock()

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("fake-apns-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/fake-apns").path
        let output = folder + "/stdout"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, folder + "/state"]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/null"))
        // Foundation's `Process.run()` on Linux is not safe to call from two threads at once (two suites' fakes
        // starting together crashed in its copying of the launch arguments), so launches take turns.
        try Self.launches.withLock { try process.run() }
        self.process = process
        // The fake prints one JSON line once it listens (making its certificates takes a moment).
        var ports: [String: Any] = [:]
        let deadline = Date().addingTimeInterval(30)
        while ports.isEmpty, Date() < deadline, process.isRunning {
            if let data = FileManager.default.contents(atPath: output), data.last == UInt8(ascii: "\n") {
                ports = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
            }
            if ports.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
        }
        guard let production = ports["production"] as? Int, let sandbox = ports["sandbox"] as? Int,
            let control = ports["control"] as? Int, let ca = ports["caFile"] as? String
        else {
            if process.isRunning { process.terminate() }
            throw FakeAPNsError(message: "scripts/fake-apns did not start (python3 with h2 and cryptography: make install)")
        }
        productionPort = production
        sandboxPort = sandbox
        controlPort = control
        caFile = ca
    }

    deinit {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Points `configuration` at this fake: production and sandbox hosts, and its certificate authority.
    func configure(_ configuration: inout EmulatorConfiguration) {
        configuration.apnsHost = "127.0.0.1:\(productionPort)"
        configuration.apnsSandboxHost = "127.0.0.1:\(sandboxPort)"
        configuration.apnsCAFile = caFile
    }

    /// Accept provider tokens signed by `key` under `keyId` for `teamId`, for pushes to `topic`.
    func register(_ key: TestKey, keyId: String, teamId: String, topic: String) async throws {
        try await control("POST", "/keys", ["kid": keyId, "teamId": teamId, "topic": topic, "publicKey": key.publicPEM])
    }

    /// Answers for the next requests to `token` (or to any token with `"*"`), in order; then 200.
    func script(_ token: String, _ answers: [(status: Int, reason: String?)]) async throws {
        let list: [[String: Any]] = answers.map { answer in
            var entry: [String: Any] = ["status": answer.status]
            if let reason = answer.reason { entry["reason"] = reason }
            return entry
        }
        try await control("POST", "/script", ["token": token, "answers": list])
    }

    /// What each request carried and what it was answered, oldest first.
    func requests() async throws -> [[String: Any]] {
        try await control("GET", "/requests", nil)["requests"] as? [[String: Any]] ?? []
    }

    @discardableResult
    private func control(_ method: String, _ path: String, _ body: [String: Any]?) async throws -> [String: Any] {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(controlPort)\(path)")))
        request.httpMethod = method
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        try #require((response as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: data, as: UTF8.self))")
        return (try JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }
}

struct FakeAPNsError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
