// Soak: a bounded reliability run (issue 11, `make soak`). Several simulated app installs, each a real
// `Reception` over real SQLite and secure-store files, send text and photos to the in-process emulator on loopback
// while faults are injected (dropped answers after commit, 503s, 429s, delays) and installs are killed and
// relaunched mid-run. At the end every message must be on the service exactly once.
//
// Prints messages sent, delivered, lost and duplicated, and the largest resident memory seen; exits 1 on any loss or
// duplicate. Loopback only; bounded by SOAK_DEVICES × SOAK_MESSAGES and a deadline.
import Foundation
import ReceptionCore
import ReceptionEmulator
import ReceptionKit
import SecureStore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let devices = Int(ProcessInfo.processInfo.environment["SOAK_DEVICES"] ?? "") ?? 4
let messagesPerDevice = Int(ProcessInfo.processInfo.environment["SOAK_MESSAGES"] ?? "") ?? 30
let deadline = ContinuousClock.now + .seconds(Int(ProcessInfo.processInfo.environment["SOAK_SECONDS"] ?? "") ?? 240)

let root = FileManager.default.temporaryDirectory.appendingPathComponent("reception-soak-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: root) }
let emulator = try ReceptionEmulator(configuration: EmulatorConfiguration(
    port: 0, dataDirectory: root.appendingPathComponent("emulator").path, pingInterval: 1))
try emulator.start()
defer { emulator.stop() }
let service = URL(string: "http://127.0.0.1:\(emulator.port)")!
Reception.logLevel = .off

/// The largest resident set so far (VmHWM), in MiB.
func peakMemoryMiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kib = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
    return kib / 1024
}

func admin(_ method: String, _ path: String, _ json: Any? = nil) async throws -> Any {
    var request = URLRequest(url: service.appendingPathComponent("admin/" + path))
    request.httpMethod = method
    request.setValue("Bearer \(emulator.credentials.adminToken)", forHTTPHeaderField: "Authorization")
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = try json.map { try JSONSerialization.data(withJSONObject: $0) }
    let (data, _) = try await URLSession.shared.data(for: request)
    return (try? JSONSerialization.jsonObject(with: data)) ?? [:]
}

/// A valid 1×1 RGB PNG: the photo every seventh message carries through the real preparation pipeline.
let photo: Data = {
    let bytes: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
        0xDE, 0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41, 0x54, 0x08, 0xD7, 0x63, 0xF8, 0xCF, 0xC0, 0x00,
        0x00, 0x03, 0x01, 0x01, 0x00, 0x18, 0xDD, 0x8D, 0xB0, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E,
        0x44, 0xAE, 0x42, 0x60, 0x82,
    ]
    return Data(bytes)
}()

@MainActor
final class Install {
    let index: Int
    let directory: URL
    var reception = Reception()
    var sent: [String] = []   // texts handed to the chat

    init(index: Int) {
        self.index = index
        directory = root.appendingPathComponent("device-\(index)")
    }

    func launch() {
        reception = Reception()
        var configuration = ReceptionConfiguration(serviceRoot: service, dataDirectory: directory)
        configuration.secureStore = FileSecureStore(directory: directory.appendingPathComponent("secure"), logger: .silent)
        reception.configure(appId: emulator.credentials.appId, configuration: configuration)
        reception.openChat()
    }

    /// Hands one message to the chat; waits until the engine takes it.
    func send(_ text: String, withPhoto: Bool) async {
        for _ in 0..<400 {
            if let chat = reception.chat {
                if withPhoto { await chat.engine.addPhoto(photo) }
                await chat.engine.setDraft(text)
                if await chat.engine.send() != nil {
                    sent.append(text)
                    return
                }
            }
            try? await Task.sleep(for: .milliseconds(25))
        }
    }

    /// Whether every message the chat shows is Sent and the newest ones are shown; otherwise taps Retry on the
    /// ones that wait for it. The chat keeps a window of the latest 50 messages (spec 3.6), so older ones are
    /// checked on the service, not here.
    func settle() async -> Bool {
        guard let chat = reception.chat else { return false }
        let snapshot = await chat.engine.snapshot
        let pending = snapshot.messages.filter { $0.sender == .user && $0.status != .sent }
        for message in pending { _ = await chat.engine.retry(message.id) }
        return pending.isEmpty && sent.suffix(20).allSatisfy { text in snapshot.messages.contains { $0.text == text } }
    }
}

@MainActor
func run() async throws -> Int32 {
    let installs = (0..<devices).map(Install.init)
    for install in installs { install.launch() }
    let faults: [[String: Any]] = [
        ["path": "/v1/conversation/messages", "method": "POST", "kind": "drop"],
        ["path": "/v1/conversation/messages", "method": "POST", "kind": "status", "status": 503, "code": "unavailable"],
        ["path": "/v1/uploads", "method": "POST", "kind": "status", "status": 503, "code": "unavailable"],
        ["path": "/v1/conversation/messages", "method": "POST", "kind": "delay", "delayMs": 300],
        ["path": "/v1/conversation/messages", "method": "POST", "kind": "status", "status": 429, "code": "rate_limited",
         "retryAfter": 2, "retryScope": "messages"],
    ]
    var generator = SystemRandomNumberGenerator()
    var kills = 0
    for round in 0..<messagesPerDevice {
        for install in installs {
            await install.send("device \(install.index) message \(round)", withPhoto: round % 7 == 3)
        }
        if round % 3 == 1, let fault = faults.randomElement(using: &generator) {
            _ = try await admin("POST", "faults", fault)
        }
        if round % 5 == 4, let victim = installs.randomElement(using: &generator) {
            // Killed mid-run and relaunched on the same files.
            victim.launch()
            kills += 1
        }
    }
    // Let every install deliver what it holds.
    var settled = false
    while ContinuousClock.now < deadline {
        var all = true
        for install in installs where !(await install.settle()) { all = false }
        if all { settled = true; break }
        try await Task.sleep(for: .milliseconds(500))
    }
    // Count what the service holds.
    let list = try await admin("GET", "devices") as? [String: Any]
    let ids = (list?["devices"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    var serverTexts: [String: Int] = [:]
    for id in ids {
        let messages = try await admin("GET", "devices/\(id)/messages") as? [String: Any]
        for message in messages?["messages"] as? [[String: Any]] ?? [] where message["sender"] as? String == "USER" {
            if let text = message["text"] as? String { serverTexts[text, default: 0] += 1 }
        }
    }
    let sentTexts = installs.flatMap(\.sent)
    let lost = sentTexts.filter { serverTexts[$0] == nil }.count
    let duplicated = serverTexts.values.filter { $0 > 1 }.reduce(0) { $0 + $1 - 1 }
    let delivered = sentTexts.filter { serverTexts[$0] != nil }.count
    print("Soak: \(devices) installs × \(messagesPerDevice) messages, \(kills) kills and relaunches, faults injected")
    print("  sent \(sentTexts.count), delivered \(delivered), lost \(lost), duplicated \(duplicated)")
    print("  all shown as Sent: \(settled); devices on the service: \(ids.count); peak memory \(peakMemoryMiB()) MiB")
    return (lost == 0 && duplicated == 0 && settled && ids.count == devices) ? 0 : 1
}

let status = try await run()
exit(status)
