import Foundation

/// The Reception emulator: the service side of the wire protocol (spec §3–§5, §8) on one machine, with a team/admin
/// API for replies, switches and fault injection (Docs/Emulator.md).
public final class ReceptionEmulator: Sendable {
    /// The configuration it was created with.
    public let configuration: EmulatorConfiguration
    let state: EmulatorLock<EmulatorState>
    let hub: EventHub
    let faults: FaultPlan
    let requestLog = RequestLog()
    /// The APNs provider's worker (``PushDelivery``): idle until a key is saved and a push is produced.
    let pushDelivery: PushDelivery
    /// The dashboard's page, style sheet and scripts, read once (``DashboardAssets``).
    let dashboardAssets: DashboardAssets
    private let server = EmulatorLock<HTTPServer?>(nil)
    /// Which certificates the APNs provider trusts (`--apns-ca-file`, the system's, a loopback test server).
    package let apnsTrust: APNsTrust

    /// Opens (or creates, with fresh credentials) the database in the configured data folder.
    public init(configuration: EmulatorConfiguration) throws {
        self.configuration = configuration
        dashboardAssets = configuration.dashboardFiles.map { DashboardAssets(directory: URL(fileURLWithPath: $0)) }
            ?? DashboardAssets.bundled
        let hub = EventHub()
        self.hub = hub
        var system = SystemRandomNumberGenerator()
        faults = FaultPlan(seed: configuration.chaosSeed ?? system.next())
        state = EmulatorLock(try EmulatorState(configuration: configuration, hub: hub))
        apnsTrust = APNsTrust(caFile: configuration.apnsCAFile)
        pushDelivery = PushDelivery(
            sender: CurlAPNsClient(trust: apnsTrust),
            hosts: APNsHosts(replacingBoth: configuration.apnsHost, sandbox: configuration.apnsSandboxHost),
            now: configuration.now, sleep: configuration.sleep)
        state.withLock { state in
            state.streamReceived = { [weak self] messageIds in self?.recordStreamDelivery(messageIds) }
        }
        connectPushDelivery()
    }

    /// An event stream's connection thread reports agent messages it announced: they count as delivered (seed 001).
    private func recordStreamDelivery(_ messageIds: [String]) {
        state.withLock { state in
            // A receipt that cannot be written is lost; the device's next fetch records it instead.
            try? state.markDelivered(messageIds: messageIds)
        }
    }

    /// The App ID, admin token and identity secret stored in the database.
    public var credentials: EmulatorCredentials { state.withLock { $0.credentials } }

    /// The whole state as a snapshot file (`GET /admin/snapshot`, `--export-on-exit`). The APNs key is left out
    /// unless `includingAPNsKey` (`GET /admin/snapshot?includeKey=true`).
    public func exportSnapshot(includingAPNsKey: Bool = false) throws -> [UInt8] {
        try state.withLock { Array(try $0.snapshot(includingAPNsKey: includingAPNsKey).serialized().utf8) }
    }

    /// Replaces the whole state, credentials included, with a snapshot file's (`PUT /admin/snapshot`, `--import`);
    /// a file that is not a valid snapshot throws and changes nothing.
    public func importSnapshot(_ bytes: [UInt8]) throws {
        try state.withLock { try $0.importSnapshot(bytes) }
        requestLog.clear()
    }

    /// The port being listened on, 0 before ``start()``.
    public var port: Int { server.withLock { $0?.port ?? 0 } }

    /// The dashboard's sign-in URL (`http://host:port/dashboard/sign-in/<secret>`, a new secret on every start);
    /// empty before ``start()``.
    public var dashboardURL: String { state.withLock { $0.baseURL.isEmpty ? "" : $0.dashboardURL } }

    /// The name of the Owner ``dashboardURL`` signs in (the team's first Owner).
    public var dashboardOwnerName: String { state.withLock { $0.dashboardOwnerName } }

    /// Why the dashboard's pages cannot be served (its files are missing), for standard error; `nil` when they can.
    /// The device and admin APIs work either way.
    public var dashboardProblem: String? { dashboardAssets.problem }

    /// How many event streams are open (a stream whose client left unnoticed counts until its next ping fails).
    package var openEventStreams: Int { hub.count }

    /// `http://host:port` of the running server.
    public var baseURL: String { state.withLock { $0.baseURL } }

    /// Starts listening on the configured host and port.
    public func start() throws {
        let http = HTTPServer(
            handler: { [weak self] request in
                self?.handle(request) ?? APIError(503, "unavailable", "The emulator is shutting down.").response
            },
            admit: { [weak self] head in self?.admit(head) },
            bodyLimit: { method, path in BodyLimits.limit(method: method, path: path) },
            tooLarge: APIError.payloadTooLarge.response,
            streamEnded: { [hub] stream in hub.remove(stream) })
        try http.start(host: configuration.host, port: configuration.port)
        let url = "http://\(configuration.host):\(http.port)"
        state.withLock { $0.baseURL = url }
        server.withLock { $0 = http }
    }

    /// Ends every event stream with `data: reconnect`, answers delayed requests with 503 and stops listening.
    public func stop() {
        hub.closeAll()
        let running = server.withLock { value -> HTTPServer? in defer { value = nil }; return value }
        running?.stop()
    }
}

/// Largest accepted request bodies, by kind of endpoint (Docs/Emulator.md "Limits").
public enum BodyLimits {
    /// `/v1/` JSON bodies: 64 KiB (the largest legitimate body, a device payload with 20 metadata entries, is
    /// far smaller).
    public static let api = 65_536
    /// Storage PUT of one photo: 1 MiB, the client's JPEG budget (spec 7.9).
    public static let upload = 1_048_576
    /// Admin API and dashboard bodies (agent photos as Base64): 8 MiB.
    public static let admin = 8 * 1_048_576

    /// A snapshot import (`PUT /admin/snapshot`, `PUT /dashboard/api/snapshot`): 64 MiB.
    public static let snapshot = 64 * 1_048_576

    /// The APNs connection (`PUT /admin/apns`, `PUT /dashboard/api/apns`): 16 KiB, room for a `.p8` key's text
    /// (8 KiB at most) and the identifiers.
    public static let apns = 16_384

    /// The limit for a request to `path`.
    public static func limit(method: String, path: String) -> Int {
        if method == "PUT", path == "/admin/snapshot" || path == "/dashboard/api/snapshot" { return snapshot }
        if path == "/admin/apns" || path == "/dashboard/api/apns" { return apns }
        if path.hasPrefix("/storage/") { return upload }
        if path.hasPrefix("/admin/") || path.hasPrefix("/dashboard/") { return admin }
        return api
    }
}
