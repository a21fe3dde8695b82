import Foundation
@testable import Conversation
@testable import ReceptionCore
import ReceptionEmulator
@testable import ReceptionKit
import ReceptionTesting
@testable import SecureStore
import Testing
import Transport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real 2×2 baseline JPEG is not needed here: these tests send text. Photos are covered by Conversation's suite.

/// The URLSession transport with a switch that makes the device "offline". It records what it answered, what it
/// refused while offline and how many requests are on the wire, so tests wait for these instead of sleeping.
final class SwitchableTransport: HTTPTransporting {
    private let inner = URLSessionTransport()
    private let offline = Locked(false)
    private let exchanges = Locked<[Exchange]>([])
    private let refusals = Locked<[ReceptionCore.HTTPRequest]>([])
    private let sending = Locked<(next: Int, requests: [Int: ReceptionCore.HTTPRequest])>((0, [:]))

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

    /// Every request refused because the device was offline, in order.
    var refused: [ReceptionCore.HTTPRequest] { refusals.withLock { $0 } }

    /// The requests (event streams aside) that went out and have not returned yet, answered or failed.
    var onTheWire: [ReceptionCore.HTTPRequest] { sending.withLock { Array($0.requests.values) } }

    func send(
        _ request: ReceptionCore.HTTPRequest, uploadProgress: (@Sendable (Double) -> Void)?
    ) async throws(ReceptionError) -> ReceptionCore.HTTPResponse {
        if isOffline {
            refusals.withLock { $0.append(request) }
            throw .connectionFailed(transportCode: -1009)
        }
        let id = sending.withLock { state in
            defer { state.next += 1 }
            state.requests[state.next] = request
            return state.next
        }
        defer { _ = sending.withLock { $0.requests.removeValue(forKey: id) } }
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

    /// An emulator on real time, or on `clock`'s wall time (the SDK keeps real time either way); its attachment
    /// links live `attachmentURLLifetime` seconds of that time (the emulator's default, an hour, when `nil`).
    init(clock: ManualClock? = nil, attachmentURLLifetime: Double? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("kit-emulator-\(UUID().uuidString)").path
        var configuration = EmulatorConfiguration(port: 0, dataDirectory: directory, pingInterval: 1)
        if let clock { configuration.now = { clock.now.timeIntervalSince1970 } }
        if let attachmentURLLifetime { configuration.attachmentURLLifetime = attachmentURLLifetime }
        emulator = try ReceptionEmulator(configuration: configuration)
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

    /// Whether every queued fault has fired: a delay fault that fired means its request reached the emulator and is
    /// being held there.
    func faultsFired() async -> Bool {
        (try? await admin("GET", "faults")["faults"] as? [Any])?.isEmpty == true
    }

    func devices() async throws -> [[String: Any]] { try await admin("GET", "devices")["devices"] as? [[String: Any]] ?? [] }

    func messages(device: String) async throws -> [String] {
        let list = try await admin("GET", "devices/\(device)/messages")["messages"] as? [[String: Any]] ?? []
        return list.compactMap { $0["text"] as? String }
    }

    /// An HS256 token minted by PyJWT (independent of our code and of the emulator's), valid for `lifetime` seconds
    /// (negative: already expired).
    func token(userId: String, secret: String? = nil, lifetime: Int = 3600) throws -> String {
        try token(claims: ["user_id": userId, "exp": Int(Date().timeIntervalSince1970) + lifetime], secret: secret)
    }

    /// An HS256 token minted by PyJWT with exactly `claims`, signed with `secret` (the app's identity secret when
    /// `nil`).
    func token(claims: [String: Any], secret: String? = nil) throws -> String {
        let key = secret ?? emulator.credentials.identitySecret ?? ""
        let json = String(decoding: try JSONSerialization.data(withJSONObject: claims), as: UTF8.self)
        return try ChildProcess.python(
            "import jwt, json, sys; print(jwt.encode(json.loads(sys.argv[1]), sys.argv[2], algorithm='HS256'))",
            [json, key])
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
    /// The setup check's wait (spec 7.23: 60 s); `nil` keeps the SDK's.
    var setupCheckBudget: Duration?
    /// Wraps the install's secure store (a failing keychain); `nil` uses the file store as it is.
    var wrapSecureStore: ((any SecureStoring) -> any SecureStoring)?
    /// Opens the install's photo cache instead of the SDK's `FilePhotoCache` (a tiny budget, or none); `nil` keeps it.
    var photoCache: (@Sendable (URL, StorageScope, ReceptionLogger) throws(ReceptionError) -> any PhotoCaching)?
    /// Every link the SDK asked the system to open (a review card's), in order.
    var openedURLs: [URL] { opened.withLock { $0 } }
    private let opened = Locked<[URL]>([])

    init(_ service: Service, directory: URL? = nil) {
        self.service = service
        self.directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("kit-app-\(UUID().uuidString)")
    }

    var configuration: ReceptionConfiguration {
        var configuration = ReceptionConfiguration(serviceRoot: service.root, dataDirectory: directory)
        configuration.transport = transport
        let secureStore = FileSecureStore(directory: directory.appendingPathComponent("secure"), logger: .silent)
        configuration.secureStore = wrapSecureStore?(secureStore) ?? secureStore
        if let writePreferencesFile { configuration.writePreferencesFile = writePreferencesFile }
        if let setupCheckBudget { configuration.setupCheckBudget = setupCheckBudget }
        if let photoCache { configuration.photoCache = photoCache }
        // On a Mac the defaults are AppKit's notifications and NWPathMonitor (Docs/Apple.md); the tests move the app
        // and the path by hand, as on Linux, where both are nil already.
        configuration.lifecycle = nil
        configuration.network = nil
        configuration.openURL = { [opened] url in opened.withLock { $0.append(url) } }
        return configuration
    }

    /// A fresh `Reception` configured for this install, once its launch finished preparing (its storage is read
    /// off the main actor after `configure` returns).
    func launch() async {
        reception = Reception()
        reception.onEvent = { [weak self] event in self?.events.append(event) }
        reception.configure(appId: service.appID, configuration: configuration)
        await reception.waitUntilReady()
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
        // What the chat and the wire looked like, so a failure says where the message stopped.
        let requests = transport.log.suffix(12).map { "\($0.request.method) \($0.path) \($0.status)" }
        let waiting = transport.onTheWire.map { "\($0.method) \($0.url.path)" }
        let shown = chat.messages.map { "\($0.text) [\($0.status)]" }
        try #require(sent, "\"\(text)\" was not confirmed; messages \(shown); last requests \(requests); on the wire \(waiting)")
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

extension App {
    /// The team sends a review card to this install's device (after its first send); returns the card once the
    /// chat shows it.
    func receiveReviewCard() async throws -> ChatMessage {
        // Seed 001: review cards need the app's App Store ID.
        try await service.admin("PATCH", "app", ["appStoreId": "1"])
        return try await receiveCard(
            ["kind": "REVIEW", "reviewUrl": "https://apps.apple.com/app/id1?action=write-review"], kind: .review)
    }

    /// An offer card for the paywall `pro` ("50% off"), sent by the team and loaded into the open chat.
    func receivePaywallCard() async throws -> ChatMessage {
        try await receiveCard(["kind": "PAYWALL", "paywallId": "pro", "text": "50% off"], kind: .paywall)
    }

    /// The card `body` describes, sent by the team to this install's device and loaded into the chat.
    private func receiveCard(_ body: [String: String], kind: MessageKind) async throws -> ChatMessage {
        let device = try #require(try await service.devices().first?["id"] as? String)
        try await service.admin("POST", "devices/\(device)/messages", body)
        let arrived = await until {
            await reception.chat?.refresh()
            return reception.chat?.messages.contains { $0.kind == kind } == true
        }
        try #require(arrived)
        return try #require(reception.chat?.messages.first { $0.kind == kind })
    }

    /// Waits until the session of `engine` has ended and no request of this install is on the wire. From then on an
    /// ended session can change nothing: its client refuses new requests, its engine applies no late answer, and
    /// every request it had sent has returned. Tests assert that a late write "went nowhere" at this point.
    func untilEnded(_ engine: ChatEngine) async -> Bool {
        await until { await engine.isShutDown && transport.onTheWire.isEmpty }
    }
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
