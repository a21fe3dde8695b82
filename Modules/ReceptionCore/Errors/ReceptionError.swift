/// The one error type ReceptionKit surfaces to a host (spec 5.5).
///
/// `code` is a stable string: a service code (spec 5.3) or one of the client codes in `ReceptionError.Code`
/// (spec 5.4). It is not an enum, so a host must keep a fallback for codes it does not know. `status` is the HTTP
/// status, or 0 when no valid HTTP response was received. Two errors are equal when code and status are equal; the
/// other fields are details that travel with the error.
public struct ReceptionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stable machine-readable code.
    @_optimize(size) public var code: String { box.value.code }
    /// The HTTP status, or 0 without a valid HTTP response.
    @_optimize(size) public var status: Int { box.value.status }
    /// Seconds to wait before trying again: a cooldown's remaining time (rounded up, at least 1) or a usable
    /// `Retry-After` (spec 5.2).
    @_optimize(size) public var retryAfter: Int? { box.value.retryAfter }
    /// The cooldown scope the service named or the route implies (spec 6.3.1).
    @_optimize(size) public var retryScope: RetryScope? { box.value.retryScope }
    /// The platform's transport error code for `connection_failed`.
    @_optimize(size) public var transportCode: Int? { box.value.transportCode }
    /// The revision a `chat_reset` asks the client to adopt (spec 7.12).
    @_optimize(size) public var resetRevision: Int? { box.value.resetRevision }

    /// The fields, held once behind one reference (`ValueBox`): an error travels through every
    /// `throws(ReceptionError)` call, and a one-reference value keeps the code each of those sites compiles to
    /// moving it small (Docs/Footprint.md, "Size on iOS").
    private let box: ValueBox<Fields>

    private struct Fields: Sendable {
        let code: String
        let status: Int
        let retryAfter: Int?
        let retryScope: RetryScope?
        let transportCode: Int?
        let resetRevision: Int?
    }

    /// Makes an error; only `code` and `status` take part in equality.
    @inline(never) @_optimize(size) public init(
        code: String, status: Int = 0, retryAfter: Int? = nil, retryScope: RetryScope? = nil,
        transportCode: Int? = nil, resetRevision: Int? = nil
    ) {
        box = ValueBox(Fields(
            code: code, status: status, retryAfter: retryAfter, retryScope: retryScope, transportCode: transportCode,
            resetRevision: resetRevision))
    }

    /// Makes an error with one of the codes of `ReceptionError.Code`; only `code` and `status` take part in
    /// equality.
    @inline(never) @_optimize(size) public init(
        code: Code, status: Int = 0, retryAfter: Int? = nil, retryScope: RetryScope? = nil,
        transportCode: Int? = nil, resetRevision: Int? = nil
    ) {
        self.init(
            code: code.rawValue, status: status, retryAfter: retryAfter, retryScope: retryScope,
            transportCode: transportCode, resetRevision: resetRevision)
    }

    /// Equal when `code` (the exact string) and `status` are equal; the details are ignored.
    @inline(never) @_optimize(size) public static func == (lhs: ReceptionError, rhs: ReceptionError) -> Bool {
        lhs.code == rhs.code && lhs.status == rhs.status
    }

    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(status)
    }

    @inline(never) @_optimize(size) public var description: String {
        var text = "ReceptionError(\(code), status: \(status)"
        if let retryAfter { text += ", retryAfter: \(retryAfter)s" }
        if let retryScope { text += ", scope: \(retryScope.rawValue)" }
        if let transportCode { text += ", transport: \(transportCode)" }
        if let resetRevision { text += ", resetRevision: \(resetRevision)" }
        return text + ")"
    }
}

extension ReceptionError {
    /// Spec 6.2: whether an automatic retry is worth it. Transport failures (not cancellations), anything carrying
    /// a transport code, HTTP 5xx, 408 and 429 are transient; everything else is permanent for that attempt.
    @inline(never) @_optimize(size) package var isTransient: Bool {
        if code == Code.cancelled { return false }
        if code == Code.connectionFailed || transportCode != nil { return true }
        return (500...599).contains(status) || status == 408 || status == 429
    }

    /// A transport failure without an HTTP response (spec 5.4).
    @inline(never) @_optimize(size) public static func connectionFailed(transportCode: Int? = nil) -> ReceptionError {
        ReceptionError(code: Code.connectionFailed, status: 0, transportCode: transportCode)
    }

    /// The task was cancelled or the session replaced; never retried or logged.
    public static let cancelled = ReceptionError(code: Code.cancelled)

    /// The secure store could not be read or written (spec 7.17).
    public static let secureStorageUnavailable = ReceptionError(code: Code.secureStorageUnavailable)

    /// A response that could not be interpreted.
    @inline(never) @_optimize(size) public static func invalidResponse(status: Int = 0) -> ReceptionError {
        ReceptionError(code: Code.invalidResponse, status: status)
    }

    /// A request held locally by a cooldown (spec 6.3); costs no retry attempt.
    @inline(never) @_optimize(size) public static func cooldown(retryAfter: Int, scope: RetryScope) -> ReceptionError {
        ReceptionError(code: Code.cooldown, status: 0, retryAfter: max(1, retryAfter), retryScope: scope)
    }

    /// An image that cannot be prepared or encoded (spec 7.9).
    public static let invalidImage = ReceptionError(code: Code.invalidImage)
}
