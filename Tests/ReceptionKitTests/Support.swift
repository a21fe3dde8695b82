import Foundation
import ReceptionCore
import ReceptionEmulator
import ReceptionKit
import ReceptionTesting
import SecureStore
import Synchronization
import Testing
import Transport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real 2×2 baseline JPEG is not needed here: these tests send text. Photos are covered by Conversation's suite.

/// The URLSession transport with a switch that makes the device "offline".
final class SwitchableTransport: HTTPTransporting {
    private let inner = URLSessionTransport()
    private let offline = Mutex(false)
    private let exchanges = Mutex<[Exchange]>([])

    /// One answered request: what went out and the status that came back.
    struct Exchange: Sendable {
        let request: ReceptionCore.HTTPRequest
        let status: Int
        var path: String { request.url.path }
    }

    var isOffline: Bool {
        get { offline.withLock { $0 } }
        set { offline.withLock { $0 = newValue } }
    }

    /// Every answered request, in order.
    var log: [Exchange] { exchanges.withLock { $0 } }

    func send(
        _ request: ReceptionCore.HTTPRequest, uploadProgress: (@Sendable (Double) -> Void)?
    ) async throws(ReceptionError) -> ReceptionCore.HTTPResponse {
        if isOffline { throw .connectionFailed(transportCode: -1009) }
        let response = try await inner.send(request, uploadProgress: uploadProgress)
        exchanges.withLock { $0.append(Exchange(request: request, status: response.status)) }
        return response
    }

    func stream(_ request: ReceptionCore.HTTPRequest) -> AsyncThrowingStream<HTTPStreamEvent, any Error> {
        if isOffline { return AsyncThrowingStream { $0.finish(throwing: ReceptionError.connectionFailed()) } }
        return inner.stream(request)
    }
}

/// An in-process emulator with its admin API.
final class Service: Sendable {
    let emulator: ReceptionEmulator
    let directory: String
    private let session = URLSession(configuration: .ephemeral)

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("kit-emulator-\(UUID().uuidString)").path
        emulator = try ReceptionEmulator(configuration: EmulatorConfiguration(port: 0, dataDirectory: directory, pingInterval: 1))
        try emulator.start()
    }

    deinit {
        emulator.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    var root: URL { URL(string: "http://127.0.0.1:\(emulator.port)")! }
    var appID: String { emulator.credentials.appId }

    @discardableResult
    func admin(_ method: String, _ path: String, _ json: Any? = nil) async throws -> [String: Any] {
        var request = URLRequest(url: root.appendingPathComponent("admin/" + path))
        request.httpMethod = method
        request.setValue("Bearer \(emulator.credentials.adminToken)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try json.map { try JSONSerialization.data(withJSONObject: $0) }
        let (data, _) = try await session.data(for: request)
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }

    /// The status of a token refresh with `secret` (200 while the session lives, 401 once revoked).
    func refreshStatus(secret: String) async throws -> Int {
        var request = URLRequest(url: root.appendingPathComponent("v1/devices/me/token"))
        request.httpMethod = "POST"
        request.setValue(appID, forHTTPHeaderField: "X-App-Id")
        request.setValue("0", forHTTPHeaderField: "X-Reception-Revision")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["sessionSecret": secret])
        let (_, response) = try await session.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    func devices() async throws -> [[String: Any]] { try await admin("GET", "devices")["devices"] as? [[String: Any]] ?? [] }

    func messages(device: String) async throws -> [String] {
        let list = try await admin("GET", "devices/\(device)/messages")["messages"] as? [[String: Any]] ?? []
        return list.compactMap { $0["text"] as? String }
    }

    /// An HS256 token minted by PyJWT (independent of our code and of the emulator's).
    func token(userId: String, secret: String? = nil) throws -> String {
        let key = secret ?? emulator.credentials.identitySecret ?? ""
        let claims = #"{"user_id": "\#(userId)", "exp": \#(Int(Date().timeIntervalSince1970) + 3600)}"#
        return try ChildProcess.python(
            "import jwt, json, sys; print(jwt.encode(json.loads(sys.argv[1]), sys.argv[2], algorithm='HS256'))",
            [claims, key])
    }
}

/// One app install: its data folder, secure store, transport and `Reception` instance.
@MainActor
final class App {
    let service: Service
    let directory: URL
    let transport = SwitchableTransport()
    var reception = Reception()
    var events: [ReceptionEvent] = []
    /// Replaces how the preferences files are written (a failing disk); `nil` keeps the SDK's writer.
    var writePreferencesFile: FilePreferences.Write?

    init(_ service: Service, directory: URL? = nil) {
        self.service = service
        self.directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("kit-app-\(UUID().uuidString)")
    }

    var configuration: ReceptionConfiguration {
        var configuration = ReceptionConfiguration(serviceRoot: service.root, dataDirectory: directory)
        configuration.transport = transport
        configuration.secureStore = FileSecureStore(directory: directory.appendingPathComponent("secure"), logger: .silent)
        if let writePreferencesFile { configuration.writePreferencesFile = writePreferencesFile }
        return configuration
    }

    func launch() {
        reception = Reception()
        reception.onEvent = { [weak self] event in self?.events.append(event) }
        reception.configure(appId: service.appID, configuration: configuration)
    }

    /// Sends `text` through the chat model and waits until the service confirmed it.
    func send(_ text: String) async throws {
        // The session starts its engine in the background; wait until it takes a send.
        let accepted = await until {
            guard let chat = reception.chat else { return false }
            await chat.engine.setDraft(text)
            return await chat.engine.send() != nil
        }
        try #require(accepted, "the chat did not accept \"\(text)\"")
        let chat = try #require(reception.chat)
        let sent = await until { await chat.refresh(); return chat.messages.contains { $0.text == text && $0.status == .sent } }
        try #require(sent, "\"\(text)\" was not confirmed")
    }

    /// The session secret stored for the current generation, read the way the SDK reads it.
    func sessionSecret() -> String? {
        guard let prefs = try? Data(contentsOf: directory.appendingPathComponent("preferences.json")),
              let values = try? JSONDecoder().decode([String: String].self, from: prefs),
              let generation = values["\(service.appID).generation"],
              let data = try? configuration.secureStore.read(.session(scope: service.appID + generation)).value()
        else { return nil }
        return (try? JSONDecoder().decode(SessionCredentials.self, from: data))?.sessionSecret
    }

    var texts: [String] { reception.chat?.messages.map(\.text) ?? [] }

    /// The bytes of every file of the message store, to prove a text is gone.
    func storeBytes() -> Data {
        var all = Data()
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for file in files where file.hasPrefix("messages.sqlite") {
            all.append((try? Data(contentsOf: directory.appendingPathComponent(file))) ?? Data())
        }
        return all
    }

    deinit { try? FileManager.default.removeItem(at: directory) }
}

/// Polls `condition` for up to ~20 s of real time (the emulator and URLSession are real here).
@MainActor
func until(_ condition: @MainActor () async -> Bool) async -> Bool {
    for _ in 0..<400 {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return await condition()
}
