/// The error body of every non-success `/v1/` response (spec 5.1):
/// `{"error": {"code", "message", "retryScope"?, "resetRevision"?}}`.
///
/// `code` and `message` are required; a missing one makes the body "no envelope" (the client then uses
/// `http_error`). A `retryScope` or `resetRevision` that is unknown or of the wrong type is ignored without
/// invalidating the rest.
public struct ErrorEnvelope: Codable, Hashable, Sendable {
    /// The machine-readable code.
    public var code: String
    /// Human-readable; the client never shows it.
    public var message: String
    /// The cooldown scope the service named, if it is a known one.
    public var retryScope: RetryScope?
    /// Only with `chat_reset`.
    public var resetRevision: Int?

    /// Makes an envelope.
    @inline(never) @_optimize(size)
    public init(code: String, message: String, retryScope: RetryScope? = nil, resetRevision: Int? = nil) {
        self.code = code
        self.message = message
        self.retryScope = retryScope
        self.resetRevision = resetRevision
    }

    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let outer = try decoder.container(keyedBy: WireKey.self)
        let c = try outer.nestedContainer(keyedBy: WireKey.self, forKey: "error")
        code = try c.decode(String.self, forKey: "code")
        message = try c.decode(String.self, forKey: "message")
        retryScope = (try? c.decodeIfPresent(String.self, forKey: "retryScope")).flatMap { $0.flatMap(RetryScope.init(rawValue:)) }
        resetRevision = (try? c.decodeIfPresent(Int.self, forKey: "resetRevision")) ?? nil
    }

    @inline(never) @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var outer = encoder.container(keyedBy: WireKey.self)
        var c = outer.nestedContainer(keyedBy: WireKey.self, forKey: "error")
        try c.encode(code, forKey: "code")
        try c.encode(message, forKey: "message")
        try c.encodeIfPresent(retryScope, forKey: "retryScope")
        try c.encodeIfPresent(resetRevision, forKey: "resetRevision")
    }

    /// The `ReceptionError` this envelope stands for, with the HTTP status it came with.
    @inline(never) @_optimize(size) public func error(status: Int, retryAfter: Int? = nil) -> ReceptionError {
        ReceptionError(
            code: code, status: status, retryAfter: retryAfter, retryScope: retryScope,
            resetRevision: code == ReceptionError.Code.chatReset ? resetRevision : nil)
    }

    /// Hashes the code only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
