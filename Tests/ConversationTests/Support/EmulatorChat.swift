import Foundation
import MessageCache
import ReceptionCore
import ReceptionEmulator
import ReceptionTesting
import Testing
import Transport
@testable import Conversation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real 2×2 baseline JPEG (287 bytes), so uploads carry a decodable image.
let smallJPEG = Data(hexString: """
ffd8ffe000104a46494600010100000100010000ffdb004300100b0c0e0c0a100e0d0e1211101318281a181616183123251d283a333d3c39\
33383740485c4e404457453738506d51575f626768673e4d71797064785c656763ffdb0043011112121815182f1a1a2f634238426363636363\
636363636363636363636363636363636363636363636363636363636363636363636363636363636363636363ffc000110800020002030122\
00021101031101ffc4001500010100000000000000000000000000000005ffc40014100100000000000000000000000000000000ffc4001501\
010100000000000000000000000000000406ffc40014110100000000000000000000000000000000ffda000c03010002110311003f008e002a\
87ffd9
""")

extension Data {
    init(hexString: String) {
        var bytes: [UInt8] = []
        var high: UInt8?
        for character in hexString.utf8 {
            let value: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = character - UInt8(ascii: "a") + 10
            default: continue
            }
            if let h = high { bytes.append(h << 4 | value); high = nil } else { high = value }
        }
        self.init(bytes)
    }
}

/// Prepares any file as the small JPEG above (image preparation itself is another module's concern).
struct SmallJPEGPreparer: ImagePreparing {
    func prepare(_ file: Data) throws(ReceptionError) -> PreparedPhoto {
        if file.starts(with: Data("bad".utf8)) { throw .invalidImage }
        return PreparedPhoto(jpeg: smallJPEG, width: 2, height: 2, checksum: "")
    }
}

/// Wraps the real URLSession transport with a switch that makes the device "offline", and records every request
/// the engine and client made (sent or refused), so a test can say that nothing went out.
final class SwitchableTransport: HTTPTransporting {
    private let inner = URLSessionTransport()
    private let offline = Locked(false)
    private let made = Locked<[String]>([])

    var isOffline: Bool {
        get { offline.withLock { $0 } }
        set { offline.withLock { $0 = newValue } }
    }

    /// `"METHOD /path"` of every request and stream asked for, in order.
    var requests: [String] { made.withLock { $0 } }

    func send(_ request: ReceptionCore.HTTPRequest, uploadProgress: (@Sendable (Double) -> Void)?) async throws(ReceptionError)
        -> ReceptionCore.HTTPResponse
    {
        made.withLock { $0.append("\(request.method) \(request.url.path)") }
        if isOffline { throw .connectionFailed(transportCode: -1009) }
        return try await inner.send(request, uploadProgress: uploadProgress)
    }

    func stream(_ request: ReceptionCore.HTTPRequest) -> AsyncThrowingStream<HTTPStreamEvent, any Error> {
        made.withLock { $0.append("\(request.method) \(request.url.path)") }
        if isOffline {
            return AsyncThrowingStream { $0.finish(throwing: ReceptionError.connectionFailed(transportCode: -1009)) }
        }
        return inner.stream(request)
    }
}

/// An emulator whose clock is the test's manual clock, plus its admin API.
final class EmulatorServer: Sendable {
    let emulator: ReceptionEmulator
    let directory: URL
    let clock: ManualClock

    init(clock: ManualClock) throws {
        self.clock = clock
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("conv-e2e-\(UUID().uuidString)")
        var configuration = EmulatorConfiguration(port: 0, dataDirectory: directory.path, pingInterval: 0.3)
        configuration.now = { clock.now.timeIntervalSince1970 }
        emulator = try ReceptionEmulator(configuration: configuration)
        try emulator.start()
    }

    deinit {
        emulator.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    var root: URL { URL(string: "http://127.0.0.1:\(emulator.port)") ?? directory }

    /// An admin request; returns the parsed JSON object.
    @discardableResult
    func admin(_ method: String, _ path: String, json: Any? = nil) async throws -> [String: Any] {
        let url = try #require(URL(string: "http://127.0.0.1:\(emulator.port)/admin/\(path)"))
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("Bearer \(emulator.credentials.adminToken)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try json.map { try JSONSerialization.data(withJSONObject: $0) }
        let (data, _) = try await URLSession.shared.data(for: request)
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    /// Whether every queued fault has fired: a delay fault that fired means its request reached the emulator and is
    /// being held there.
    func faultsFired() async -> Bool {
        (try? await admin("GET", "faults")["faults"] as? [Any])?.isEmpty == true
    }

    func deviceIDs() async throws -> [String] {
        (try await admin("GET", "devices")["devices"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    /// The server's copy of the device's conversation: (clientId, text, attachment count) in order.
    func serverMessages(device: String) async throws -> [(clientId: String?, text: String, sender: String, photos: Int)] {
        let list = try await admin("GET", "devices/\(device)/messages")["messages"] as? [[String: Any]] ?? []
        return list.map {
            ($0["clientId"] as? String, $0["text"] as? String ?? "", $0["sender"] as? String ?? "",
             ($0["attachments"] as? [Any])?.count ?? 0)
        }
    }
}

/// One app install talking to the emulator: a real API client, a real SQLite store on disk and the engine. A
/// relaunch keeps the secure store and the database file and builds everything else anew.
final class EmulatorChat: @unchecked Sendable {
    // @unchecked: test-only holder mutated from one test task at a time.
    let server: EmulatorServer
    let clock: ManualClock
    let secureStore = InMemorySecureStore()
    let transport = SwitchableTransport()
    let storeDirectory: URL
    let scope = StorageScope(appID: "", generation: "g1")
    private(set) var store: SQLiteMessageStore
    private(set) var client: ReceptionAPIClient
    private(set) var engine: ChatEngine
    private(set) var cooldowns: CooldownBook

    init(server: EmulatorServer) async throws {
        self.server = server
        clock = server.clock
        storeDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("conv-store-\(UUID().uuidString)")
        (store, client, engine, cooldowns) = try await Self.build(
            server: server, secureStore: secureStore, transport: transport, directory: storeDirectory)
    }

    deinit { try? FileManager.default.removeItem(at: storeDirectory) }

    private static func build(
        server: EmulatorServer, secureStore: InMemorySecureStore, transport: SwitchableTransport, directory: URL
    ) async throws -> (SQLiteMessageStore, ReceptionAPIClient, ChatEngine, CooldownBook) {
        let appID = server.emulator.credentials.appId
        let scope = StorageScope(appID: appID, generation: "g1")
        let store = try SQLiteMessageStore(directory: directory, scope: scope, logger: .silent)
        let clock = server.clock
        let cooldowns = CooldownBook(stored: try store.sessionState().cooldowns, now: clock.now) { waits in
            try? store.updateSessionState { $0.cooldowns = waits }
        }
        let box = EngineBox()
        let hooks = SessionHooks(
            chatRevision: { (try? store.sessionState().chatRevision) ?? 0 },
            hasStartedChat: { (try? store.sessionState().hasStartedChat) ?? false },
            devicePayload: {
                DevicePayload(
                    sdkVersion: "1.0.0", appVersion: "1.0", appBuild: "1", osVersion: "18.2", deviceModel: "iPhone17,1",
                    locale: "en_US", timezone: "UTC", language: "en")
            },
            chatReset: { revision in await box.engine?.chatReset(revision: revision) },
            haltChanged: { reason in await box.engine?.haltChanged(reason) })
        let client = ReceptionAPIClient(
            ReceptionAPIClient.Dependencies(
                endpoint: try ServiceEndpoint(appID: appID, root: server.root), transport: transport,
                secureStore: secureStore, scope: scope.key, cooldowns: cooldowns, clock: clock,
                random: FixedRandomSource(), logger: .silent),
            hooks: hooks)
        let engine = ChatEngine(ChatEngine.Dependencies(
            service: client, store: store, images: SmallJPEGPreparer(), cooldowns: cooldowns, clock: clock,
            random: FixedRandomSource(), logger: .silent))
        box.engine = engine
        await engine.start()
        return (store, client, engine, cooldowns)
    }

    /// Kills the app (engine and client torn down, nothing flushed) and launches it again on the same files.
    func relaunch() async throws {
        await engine.shutdown()
        await client.invalidate()
        (store, client, engine, cooldowns) = try await Self.build(
            server: server, secureStore: secureStore, transport: transport, directory: storeDirectory)
    }

    func message(_ id: String) async -> ChatMessage? { await engine.snapshot.messages.first { $0.id == id } }

    /// Waits for `condition`, letting real network work run and moving the manual clock half a second per round
    /// (backoff and cooldown waits elapse quickly; the emulator shares the clock).
    @discardableResult
    func until(advancing: Bool = true, rounds: Int = 600, _ condition: () async -> Bool) async -> Bool {
        for _ in 0..<rounds {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(15))
            if advancing { await clock.advance(by: .milliseconds(500)) }
        }
        return await condition()
    }
}

/// Lets the session hooks reach an engine built after the client.
final class EngineBox: Sendable {
    private let value = Locked<ChatEngine?>(nil)
    var engine: ChatEngine? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
