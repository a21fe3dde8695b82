// Footprint: what a configured ReceptionKit costs a host at run time (Docs/Footprint.md), measured in a fresh process
// per figure by scripts/footprint against a reception-emulator process on loopback.
//
//   FOOTPRINT_MODE=configure|baseline|memory FOOTPRINT_SERVICE=URL FOOTPRINT_APP_ID=… FOOTPRINT_ADMIN=… Footprint
//
// `configure`: the first `Reception.configure(appId:)` of the process, its wall time and heap allocations (counted by
// scripts/footprint's LD_PRELOAD shim; −1 without it), then the time until its launch is ready (the storage read
// off the main actor and the parts built; `ready_seconds`, from the same start). `baseline`: the same figures for creating one ephemeral
// `URLSession` in a fresh process, the named baseline beside it. `memory`: resident memory before configuring, once
// configured and idle, and with the chat open holding 50 sent messages, 5 of them photos.
// Prints `key=value` lines.
import Foundation
import ImagePipeline
import ReceptionCore
import ReceptionKit
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let environment = ProcessInfo.processInfo.environment
let mode = environment["FOOTPRINT_MODE"] ?? "memory"
let service = URL(string: environment["FOOTPRINT_SERVICE"] ?? "http://127.0.0.1:1")!
let appID = environment["FOOTPRINT_APP_ID"] ?? "app_0000000000000000000000"
let adminToken = environment["FOOTPRINT_ADMIN"] ?? ""
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reception-footprint-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }

/// Heap allocations so far, from the LD_PRELOAD counter; −1 when it is not loaded.
func allocations() -> Int64 {
    typealias Counter = @convention(c) () -> UInt64
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "reception_footprint_allocations") else { return -1 }
    return Int64(unsafeBitCast(symbol, to: Counter.self)())
}

/// Resident memory (VmRSS) in bytes.
func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kib = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
    return kib * 1024
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

func report(_ key: String, _ value: some CustomStringConvertible) { print("\(key)=\(value)") }

func admin(_ method: String, _ path: String, _ json: Any) async throws {
    var request = URLRequest(url: service.appendingPathComponent("admin/" + path))
    request.httpMethod = method
    request.setValue("Bearer \(adminToken)", forHTTPHeaderField: "Authorization")
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = try JSONSerialization.data(withJSONObject: json)
    _ = try await URLSession.shared.data(for: request)
}

/// A 1600×1200 photo-like JPEG (gradients and stripes), the kind of file a picker hands over.
func photo(_ index: Int) throws -> Data {
    let width = 1600, height = 1200
    var bytes = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
        for x in 0..<width {
            let p = (y * width + x) * 3
            bytes[p] = UInt8(truncatingIfNeeded: x / 7 + index * 40)
            bytes[p + 1] = UInt8(truncatingIfNeeded: y / 5 + (x / 31 % 2) * 60)
            bytes[p + 2] = UInt8(truncatingIfNeeded: (x + y) / 11)
        }
    }
    let image = PixelBuffer(width: width, height: height, format: .rgb8, bytes: bytes)
    return Data(try JPEGEncoder().encodeJPEG(image, quality: 90))
}

@MainActor
func configure() {
    Reception.configure(
        appId: appID, configuration: ReceptionConfiguration(serviceRoot: service, dataDirectory: directory))
}

@MainActor
func run() async throws -> Int32 {
    let clock = ContinuousClock()
    switch mode {
    case "configure":
        Reception.logLevel = .off
        let before = allocations()
        let start = clock.now
        configure()
        let elapsed = clock.now - start
        let after = allocations()
        report("configure_seconds", seconds(elapsed))
        report("configure_allocations", before < 0 ? -1 : after - before)
        await Reception.shared.waitUntilReady()
        report("ready_seconds", seconds(clock.now - start))
    case "baseline":
        let before = allocations()
        let start = clock.now
        let session = URLSession(configuration: .ephemeral)
        let elapsed = clock.now - start
        let after = allocations()
        session.invalidateAndCancel()
        report("baseline_seconds", seconds(elapsed))
        report("baseline_allocations", before < 0 ? -1 : after - before)
    default:
        Reception.logLevel = .off
        let photos = try (0..<5).map(photo)
        report("process_resident_bytes", residentBytes())
        configure()
        // Idle: whatever configure started in the background has had its time.
        try await Task.sleep(for: .seconds(2))
        report("idle_resident_bytes", residentBytes())
        let generous = ["limit": 100_000, "windowSeconds": 60]
        try await admin("PUT", "rate-limits", ["messages": generous, "uploads": generous, "requests": generous])
        await Reception.shared.waitUntilReady()
        Reception.shared.openChat()
        guard let chat = Reception.shared.chat else { return 1 }
        for index in 0..<50 {
            if index % 10 == 0 { await chat.engine.addPhoto(photos[index / 10]) }
            await chat.engine.setDraft("Message \(index + 1) of the footprint run")
            guard await chat.engine.send() != nil else { return 1 }
        }
        let deadline = clock.now + .seconds(180)
        while clock.now < deadline {
            let messages = await chat.engine.snapshot.messages
            if messages.count >= 50, messages.allSatisfy({ $0.status == .sent }) { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let messages = await chat.engine.snapshot.messages
        report("chat_messages", messages.count)
        report("chat_photos", messages.reduce(0) { $0 + $1.attachments.count })
        report("chat_all_sent", messages.allSatisfy { $0.status == .sent })
        report("chat_resident_bytes", residentBytes())
    }
    return 0
}

exit(try await run())
