import Foundation
import ReceptionEmulator
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A settable wall clock for the emulator (seconds since 1970), so expiry rules are tested without sleeping.
final class TestClock: Sendable {
    private let seconds = EmulatorLock<Double>(1_790_000_000)

    var now: Double { seconds.withLock { $0 } }

    func advance(by delta: Double) { seconds.withLock { $0 += delta } }
}

/// One HTTP answer as the tests read it: status, headers, raw body and the body parsed by Foundation (an
/// implementation independent of the emulator's own JSON code).
struct Reply {
    var status: Int
    var headers: [String: String]
    var body: Data

    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

/// A registered device as a client holds it.
struct Device {
    var token: String
    var sessionSecret: String
    var verifiedUserId: String?
    /// The ID the admin API knows the device by.
    var id: String
}

/// An emulator on an ephemeral loopback port with a fresh data folder, and a plain URLSession talking to it.
final class EmulatorHarness: Sendable {
    let emulator: ReceptionEmulator
    let clock: TestClock
    let directory: String
    let session: URLSession

    init(
        clock: TestClock = TestClock(), realClock: Bool = false, pingInterval: Double = 0.2,
        accessTokenLifetime: Double = 3600, teamPhotoURLLifetime: Double = 3600, directory: String? = nil,
        chaosSeed: UInt64? = nil, dashboardFiles: String? = nil,
        configure: (inout EmulatorConfiguration) -> Void = { _ in }
    ) throws {
        self.clock = clock
        self.directory =
            directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("emulator-\(UUID().uuidString)").path
        var configuration = EmulatorConfiguration(
            port: 0, dataDirectory: self.directory, pingInterval: pingInterval, accessTokenLifetime: accessTokenLifetime,
            teamPhotoURLLifetime: teamPhotoURLLifetime)
        if !realClock { configuration.now = { clock.now } }
        configuration.chaosSeed = chaosSeed
        configuration.dashboardFiles = dashboardFiles
        configure(&configuration)
        emulator = try ReceptionEmulator(configuration: configuration)
        try emulator.start()
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.urlCache = nil
        // Cookies are what a test sends: the dashboard's Set-Cookie answers must not reach later requests.
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.timeoutIntervalForRequest = 20
        session = URLSession(configuration: sessionConfiguration)
    }

    deinit {
        emulator.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    var port: Int { emulator.port }
    var appId: String { emulator.credentials.appId }
    var adminToken: String { emulator.credentials.adminToken }
    var identitySecret: String { emulator.credentials.identitySecret ?? "" }

    /// Any request; `body` is sent as given.
    func raw(
        _ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil
    ) async throws -> Reply {
        let url = try #require(URL(string: "http://127.0.0.1:\(port)\(path)"))
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpShouldHandleCookies = false
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var replyHeaders: [String: String] = [:]
        for (name, value) in http.allHeaderFields { replyHeaders["\(name)"] = "\(value)" }
        return Reply(status: http.statusCode, headers: replyHeaders, body: data)
    }

    /// A plain GET of an absolute URL the emulator handed out (signed downloads, spec 3.18): no Reception headers,
    /// no authorisation.
    func download(_ urlText: String) async throws -> Reply {
        let url = try #require(URL(string: urlText))
        return try await raw("GET", url.path + "?" + (url.query ?? ""))
    }

    /// A `/v1/` request with the Reception headers (spec 1.2), a bearer token when given and a JSON body.
    func api(
        _ method: String, _ path: String, token: String? = nil, json: Any? = nil, revision: Int = 0,
        extraHeaders: [String: String] = [:]
    ) async throws -> Reply {
        var headers = ["X-App-Id": appId, "X-Reception-Revision": String(revision), "Content-Type": "application/json"]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        headers.merge(extraHeaders) { _, new in new }
        let body = try json.map { try JSONSerialization.data(withJSONObject: $0) }
        return try await raw(method, "/v1/" + path, headers: headers, body: body)
    }

    /// An admin API request with the admin token.
    func admin(_ method: String, _ path: String, json: Any? = nil) async throws -> Reply {
        let body = try json.map { try JSONSerialization.data(withJSONObject: $0) }
        return try await raw(
            method, "/admin/" + path,
            headers: ["Authorization": "Bearer \(adminToken)", "Content-Type": "application/json"], body: body)
    }

    /// The device payload of spec 4.1 as the client sends it.
    static func payload(_ extra: [String: Any] = [:]) -> [String: Any] {
        var payload: [String: Any] = [
            "platform": "ios", "sdkVersion": "1.1.0", "appVersion": "1.0", "appBuild": "1", "osVersion": "18.2",
            "deviceModel": "iPhone17,1", "locale": "en_US", "timezone": "Europe/Berlin", "language": "en",
            "paywalls": [], "metadata": [:], "updatesAppBadge": true,
        ]
        payload.merge(extra) { _, new in new }
        return payload
    }

    /// Registers a device (spec 3.1) and returns its credentials; `omitting` names keys of the payload left out
    /// (a field the device never reports).
    func register(_ extra: [String: Any] = [:], omitting: Set<String> = []) async throws -> Device {
        let reply = try await api("POST", "devices", json: Self.payload(extra).filter { !omitting.contains($0.key) })
        try #require(reply.status == 201, "registration answered \(reply.status): \(String(decoding: reply.body, as: UTF8.self))")
        // The admin API lists devices in registration order, so the newest is the last.
        let devices = try await admin("GET", "devices").json["devices"] as? [[String: Any]] ?? []
        return Device(
            token: try #require(reply.json["token"] as? String),
            sessionSecret: try #require(reply.json["sessionSecret"] as? String),
            verifiedUserId: reply.json["verifiedUserId"] as? String,
            id: try #require(devices.last?["id"] as? String))
    }

    /// Sends a text message on a raw connection of its own and reads until the emulator closes it; returns the
    /// connection (whose `text` is what came back), for a `drop` fault on the message route.
    func sendOnRawConnection(_ device: Device, _ text: String, clientId: String) throws -> RawConnection {
        let connection = try RawConnection(port: port)
        let body = #"{"clientId":"\#(clientId)","text":"\#(text)","attachmentIds":[]}"#
        connection.write(
            "POST /v1/conversation/messages HTTP/1.1\r\nHost: x\r\nX-App-Id: \(appId)\r\n"
                + "Authorization: Bearer \(device.token)\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(connection.readUntilClosed())
        return connection
    }

    /// Sends a text message (spec 3.8).
    @discardableResult
    func send(_ device: Device, _ text: String, clientId: String = UUID().uuidString, attachmentIds: [String] = [])
        async throws -> Reply
    {
        try await api(
            "POST", "conversation/messages", token: device.token,
            json: ["clientId": clientId, "text": text, "attachmentIds": attachmentIds])
    }
}
