import ReceptionCore

/// How a request proves who it is (spec 2).
public enum Authentication: Sendable, Hashable {
    /// No credential (registration, appearance).
    case none
    /// `Authorization: Bearer <access token>`.
    case bearer
    /// The session secret in the JSON body (refresh, logout, deletion).
    case sessionSecret
}

/// One endpoint of spec 3 with every rule that depends on the route: method, path, authentication, which statuses
/// count as success, the timeout, and the cooldown scopes that gate it and that a 429 falls back to.
public struct Route: Sendable, Hashable {
    /// HTTP method.
    public let method: String
    /// Path below `/v1/`.
    public let path: String
    /// Query, already percent-encoded.
    public let query: String?
    /// Credential.
    public let authentication: Authentication
    /// `true`: only 200 is success (logout, deletion); otherwise any 2xx.
    public let requiresExactly200: Bool
    /// Spec 1.3.
    public let timeout: Duration
    /// Spec 6.3.2: the scopes checked before sending.
    public let gates: [RetryScope]
    /// Spec 6.3.3: the scope a 429 without a named scope falls back to.
    public let routeScope: RetryScope?
    /// Spec 6.1: exempt from cooldowns and from starting them (logout, deletion).
    public let isExempt: Bool
    /// Spec 6.4: a request that a halted session refuses without a probe. Token refresh and the exempt routes
    /// are not subject to the halt check.
    public let isSubjectToHalt: Bool
    /// Spec 3.16: the appearance request always sends revision 0.
    public let sendsRevisionZero: Bool
    /// Whether the request goes out through the event-stream path.
    public let isStream: Bool
    /// Spec 3.16: a conditional request, for which 304 is an answer (the caller checks it asked conditionally).
    public let acceptsNotModified: Bool

    @_optimize(size) init(
        _ method: String, _ path: String, query: String? = nil, authentication: Authentication,
        exactly200: Bool = false, timeout: Duration = .seconds(30), gates: [RetryScope], routeScope: RetryScope? = nil,
        exempt: Bool = false, subjectToHalt: Bool = true, revisionZero: Bool = false, stream: Bool = false,
        notModified: Bool = false
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.authentication = authentication
        self.requiresExactly200 = exactly200
        self.timeout = timeout
        self.gates = gates
        self.routeScope = routeScope
        self.isExempt = exempt
        self.isSubjectToHalt = subjectToHalt
        self.sendsRevisionZero = revisionZero
        self.isStream = stream
        self.acceptsNotModified = notModified
    }

    /// Whether `status` is a success for this route.
    @_optimize(size) public func isSuccess(_ status: Int) -> Bool {
        if acceptsNotModified, status == 304 { return true }
        return requiresExactly200 ? status == 200 : (200...299).contains(status)
    }

    /// 3.1
    public static let register = Route("POST", "devices", authentication: .none, gates: [.session], routeScope: .session)
    /// 3.2
    public static let updateDevice = Route("PATCH", "devices/me", authentication: .bearer, gates: [.requests])
    /// 3.3
    public static let refreshToken = Route(
        "POST", "devices/me/token", authentication: .sessionSecret, gates: [.session], routeScope: .session,
        subjectToHalt: false)
    /// 3.4
    public static let logout = Route(
        "POST", "devices/me/logout", authentication: .sessionSecret, exactly200: true, gates: [], exempt: true,
        subjectToHalt: false, revisionZero: true)
    /// 3.5
    public static let deleteDevice = Route(
        "DELETE", "devices/me", authentication: .sessionSecret, exactly200: true, gates: [], exempt: true)
    /// 3.6
    @_optimize(size) public static func history(limits: Bool) -> Route {
        Route("GET", "conversation", query: limits ? "limits=1" : nil, authentication: .bearer, gates: [.requests])
    }
    /// 3.7
    @_optimize(size) public static func messages(after: Int64) -> Route {
        Route("GET", "conversation/messages", query: "after=\(after)", authentication: .bearer, gates: [.requests])
    }
    /// 3.8; photo messages are also gated by `uploads`.
    @_optimize(size) public static func send(withAttachments: Bool) -> Route {
        Route("POST", "conversation/messages", authentication: .bearer,
              gates: withAttachments ? [.messages, .uploads, .requests] : [.messages, .requests], routeScope: .messages)
    }
    /// 3.9
    public static let read = Route("POST", "conversation/read", authentication: .bearer, gates: [.requests])
    /// 3.10
    public static let unread = Route("GET", "conversation/unread", authentication: .bearer, gates: [.requests])
    /// 3.11
    public static let typing = Route("POST", "conversation/typing", authentication: .bearer, gates: [.requests])
    /// 3.12
    public static let events = Route(
        "GET", "conversation/events", authentication: .bearer, timeout: .seconds(45), gates: [.stream, .requests],
        routeScope: .stream, stream: true)
    /// 3.13
    public static let actionClick = Route("POST", "conversation/action-click", authentication: .bearer, gates: [.requests])
    /// 3.14
    public static let reserveUpload = Route(
        "POST", "uploads", authentication: .bearer, gates: [.uploads, .requests], routeScope: .uploads)
    /// 3.15
    @_optimize(size) public static func attachment(id: String) -> Route {
        Route("GET", "attachments/" + ServiceEndpoint.pathSegment(id), authentication: .bearer, gates: [.requests])
    }
    /// 3.16
    public static let appearance = Route(
        "GET", "appearance", authentication: .none, timeout: .seconds(10), gates: [], revisionZero: true,
        notModified: true)

    /// Hashes the path only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(path) }
}
