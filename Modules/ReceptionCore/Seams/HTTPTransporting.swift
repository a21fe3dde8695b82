import Foundation

/// One HTTP request as ReceptionKit builds it: every header is explicit (spec 1.2), nothing is added by the
/// transport, and the timeout is the spec 1.3 value for the route.
public struct HTTPRequest: Sendable, Hashable {
    /// `GET`, `POST`, `PATCH`, `PUT` or `DELETE`.
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// Header name → value, sent exactly as given.
    public var headers: [String: String]
    /// The body, or `nil` for none.
    public var body: Data?
    /// For ordinary requests the whole-request timeout; for the event stream the idle timeout between bytes.
    public var timeout: Duration

    /// Makes a request.
    @inline(never) @_optimize(size)
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil, timeout: Duration) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// Hashes the URL only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(url) }
}

/// A complete HTTP response. Header names are stored lower-cased; look them up with `header(_:)`.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// Lower-cased header name → value.
    public var headers: [String: String]
    /// The body bytes (possibly empty).
    public var body: Data

    /// Written rather than synthesized, and compiled for size: the synthesized `==` takes in `Data`'s comparison,
    /// up to 0.7 kB on iOS (Docs/Footprint.md). It compares every field (`WrittenEqualityTests`).
    @inline(never) @_optimize(size) public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.headers == rhs.headers && lhs.body == rhs.body
    }

    /// Makes a response; header names are lower-cased.
    @inline(never) @_optimize(size) public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        // A loop rather than `Dictionary(_:uniquingKeysWith:)`: each module's merge closure made its own copy of the
        // standard library's merge (Docs/Footprint.md). The later of two names differing in case wins, as before.
        var lowered: [String: String] = [:]
        for (name, value) in headers { lowered[name.lowercased()] = value }
        self.headers = lowered
        self.body = body
    }

    /// The value of header `name`, compared case-insensitively.
    @_optimize(size) public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// Hashes the status only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(status) }
}

/// What an open event stream delivers: the response head once, then body bytes as they arrive.
public indirect enum HTTPStreamEvent: Sendable, Hashable {
    /// The status and headers, before any body bytes.
    case head(status: Int, headers: [String: String])
    /// The next bytes of the body.
    case bytes(Data)

    /// Written rather than synthesized, and compiled for size: the synthesized `==` takes in `Data`'s comparison,
    /// up to 0.7 kB on iOS (Docs/Footprint.md). It compares every case and value (`WrittenEqualityTests`).
    @inline(never) @_optimize(size) public static func == (lhs: HTTPStreamEvent, rhs: HTTPStreamEvent) -> Bool {
        switch (lhs, rhs) {
        case (.head(let leftStatus, let leftHeaders), .head(let rightStatus, let rightHeaders)):
            leftStatus == rightStatus && leftHeaders == rightHeaders
        case (.bytes(let left), .bytes(let right)): left == right
        case (.head, _), (.bytes, _): false
        }
    }

    /// Hashes the case only; `==` compares the values too, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
        switch self {
        case .head: hasher.combine(0)
        case .bytes: hasher.combine(1)
        }
    }
}

/// The network: one request/response exchange, and a streaming GET for server-sent events. A host may bring its own
/// networking by implementing this; `Transport.URLSessionTransport` is the default.
///
/// Failures are `ReceptionError`s: `connection_failed` (status 0, with the platform error code in
/// `transportCode`) when no HTTP response arrived, `cancelled` when the calling task was cancelled. Any HTTP status,
/// including 4xx and 5xx, is a response, not an error.
public protocol HTTPTransporting: Sendable {
    /// Sends `request` and returns the whole response. `uploadProgress` receives the fraction of the body sent.
    func send(
        _ request: HTTPRequest, uploadProgress: (@Sendable (Double) -> Void)?
    ) async throws(ReceptionError) -> HTTPResponse

    /// Opens a streaming request. The stream yields `.head` first, then `.bytes`; it finishes when the server
    /// closes the body and throws a `ReceptionError` on a transport failure or an idle timeout. Cancelling the
    /// consuming task closes the connection.
    func stream(_ request: HTTPRequest) -> AsyncThrowingStream<HTTPStreamEvent, any Error>
}

extension HTTPTransporting {
    /// Sends `request` without progress reporting.
    @inline(never)
    @_optimize(size) public func send(_ request: HTTPRequest) async throws(ReceptionError) -> HTTPResponse {
        try await send(request, uploadProgress: nil)
    }
}
