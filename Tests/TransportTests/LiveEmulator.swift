import Foundation
import ReceptionCore
import ReceptionEmulator
import ReceptionTesting
import Testing
import Transport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A settable emulator clock (seconds since 1970).
final class EmulatorClock: Sendable {
    private let seconds = Locked<Double>(Date().timeIntervalSince1970)
    var now: Double { seconds.withLock { $0 } }
    func advance(by delta: Double) { seconds.withLock { $0 += delta } }
}

/// A box for the identity token the hooks hand to the client.
final class Staged: Sendable {
    private let value = Locked<String?>(nil)
    func set(_ token: String?) { value.withLock { $0 = token } }
    var token: String? { value.withLock { $0 } }
}

/// Records what went over the wire (route and status), wrapping the real transport.
final class RecordingTransport: HTTPTransporting {
    struct Exchange: Sendable {
        let route: String
        let status: Int
        let body: Data?
    }

    private let base: any HTTPTransporting
    private let log = Locked<[Exchange]>([])

    init(base: any HTTPTransporting) { self.base = base }

    var requests: [Exchange] { log.withLock { $0 } }
    func count(_ route: String) -> Int { requests.filter { $0.route == route }.count }
    func statuses(_ route: String) -> [Int] { requests.filter { $0.route == route }.map(\.status) }
    func bodies(_ route: String) -> [[String: Any]] {
        requests.filter { $0.route == route }.compactMap { exchange in
            exchange.body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        }
    }

    func send(
        _ request: ReceptionCore.HTTPRequest, uploadProgress: (@Sendable (Double) -> Void)?
    ) async throws(ReceptionError) -> ReceptionCore.HTTPResponse {
        let route = "\(request.method) \(request.url.path)"
        do {
            let response = try await base.send(request, uploadProgress: uploadProgress)
            log.withLock { $0.append(Exchange(route: route, status: response.status, body: request.body)) }
            return response
        } catch {
            log.withLock { $0.append(Exchange(route: route, status: 0, body: request.body)) }
            throw error
        }
    }

    func stream(_ request: ReceptionCore.HTTPRequest) -> AsyncThrowingStream<HTTPStreamEvent, any Error> {
        log.withLock { $0.append(Exchange(route: "\(request.method) \(request.url.path)", status: -1, body: nil)) }
        return base.stream(request)
    }
}

/// An in-process emulator on an ephemeral port, and the pieces of one client session talking to it.
final class LiveEmulator: Sendable {
    static let scope = "integration-scope"
    let emulator: ReceptionEmulator
    let clock = EmulatorClock()
    let directory: String
    let transport = RecordingTransport(base: URLSessionTransport())
    let store = InMemorySecureStore()
    let cooldowns = CooldownBook(now: Date())
    let hooks = HookLog()
    let identityToken = Staged()
    private let session = URLSession(configuration: .ephemeral)

    init(pingInterval: Double = 20) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("transport-emulator-\(UUID().uuidString)").path
        let clock = self.clock
        var configuration = EmulatorConfiguration(port: 0, dataDirectory: directory, pingInterval: pingInterval)
        configuration.now = { clock.now }
        emulator = try ReceptionEmulator(configuration: configuration)
        try emulator.start()
    }

    deinit {
        emulator.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    var root: URL { URL(string: "http://127.0.0.1:\(emulator.port)")! }

    func client() -> ReceptionAPIClient {
        let endpoint = try! ServiceEndpoint(appID: emulator.credentials.appId, root: root)
        let hooks = self.hooks
        let staged = identityToken
        return ReceptionAPIClient(
            .init(endpoint: endpoint, transport: transport, secureStore: store, scope: Self.scope,
                  cooldowns: cooldowns, logger: .silent),
            hooks: SessionHooks(
                devicePayload: { () throws(ReceptionError) -> DevicePayload in
                    Harness.payload(identityToken: staged.token)
                },
                identityRejected: { error, _ in
                    staged.set(nil)
                    hooks.append("rejected \(error.code) \(error.status)")
                },
                sessionRevoked: { hooks.append("sessionRevoked") }))
    }

    /// Mints an HS256 identity token with PyJWT, an implementation independent of ours and of the emulator's.
    func mint(_ claims: [String: Any], secret: String? = nil) throws -> String {
        let key = secret ?? emulator.credentials.identitySecret ?? ""
        let json = String(decoding: try JSONSerialization.data(withJSONObject: claims), as: UTF8.self)
        let script = "import jwt, json, sys; print(jwt.encode(json.loads(sys.argv[1]), sys.argv[2], algorithm='HS256'))"
        return try ChildProcess.python(script, [json, key])
    }

    /// An admin API call; the parsed JSON answer.
    @discardableResult
    func admin(_ method: String, _ path: String, _ json: Any? = nil) async throws -> AdminReply {
        var request = URLRequest(url: root.appendingPathComponent("admin/" + path))
        request.httpMethod = method
        request.setValue("Bearer \(emulator.credentials.adminToken)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try json.map { try JSONSerialization.data(withJSONObject: $0) }
        let (data, _) = try await session.data(for: request)
        return AdminReply(object: (try? JSONSerialization.jsonObject(with: data)) ?? [:])
    }

    /// A raw `/v1/` call with the Reception headers; the status.
    func raw(_ method: String, _ path: String, _ json: Any) async throws -> Int {
        var request = URLRequest(url: root.appendingPathComponent(String(path.dropFirst())))
        request.httpMethod = method
        request.setValue(emulator.credentials.appId, forHTTPHeaderField: "X-App-Id")
        request.setValue("0", forHTTPHeaderField: "X-Reception-Revision")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: json)
        let (_, response) = try await session.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    /// The admin ID of the only device.
    func deviceID() async throws -> String {
        try #require(try await admin("GET", "devices")["devices"].first?["id"] as? String)
    }
}

/// A parsed admin answer with convenient access.
struct AdminReply: @unchecked Sendable {
    let object: Any
    subscript(key: String) -> [[String: Any]] { ((object as? [String: Any])?[key] as? [[String: Any]]) ?? [] }
}
