import Foundation
import ReceptionCore

/// What a failed response means (spec 5.1–5.3, 6.3.3): the error to surface and the cooldown it starts, if any.
public struct FailedResponse: Sendable, Hashable {
    /// The error: the envelope's code, or `http_error` without one; `status` is the HTTP status.
    public let error: ReceptionError
    /// The scope and seconds of the cooldown this response starts, or `nil`.
    public let cooldown: (scope: RetryScope, seconds: Int)?

    @_optimize(size) public static func == (lhs: FailedResponse, rhs: FailedResponse) -> Bool {
        lhs.error == rhs.error && lhs.cooldown?.scope == rhs.cooldown?.scope && lhs.cooldown?.seconds == rhs.cooldown?.seconds
    }

    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
        hasher.combine(error)
        hasher.combine(cooldown?.scope)
        hasher.combine(cooldown?.seconds)
    }
}

/// Reads responses the way spec 5 and 6.3.3 say.
public enum ResponseInterpreter {
    /// The failure a non-success `response` to `route` stands for.
    @_optimize(size) public static func failure(_ response: HTTPResponse, route: Route) -> FailedResponse {
        let envelope = try? ReceptionJSON.makeDecoder().decode(ErrorEnvelope.self, from: response.body)
        let retryAfter = RetryAfter.seconds(response.header("Retry-After"))
        let cooldown = cooldownScope(
            status: response.status, named: envelope?.retryScope, retryAfter: retryAfter, route: route)
            .flatMap { scope in retryAfter.map { (scope: scope, seconds: $0) } }
        // The wait a caller should respect: the cooldown's, or on routes without gates (logout, deletion, appearance)
        // the 429's own pacing of their retry loop (spec 5.2, 3.16).
        let pacing = cooldown?.seconds ?? ((response.status == 429 && route.gates.isEmpty) ? retryAfter : nil)
        let error: ReceptionError
        if let envelope {
            error = ReceptionError(
                code: envelope.code, status: response.status, retryAfter: pacing,
                retryScope: cooldown?.scope ?? envelope.retryScope,
                resetRevision: envelope.code == ReceptionError.Code.chatReset ? envelope.resetRevision : nil)
        } else {
            error = ReceptionError(
                code: ReceptionError.Code.httpError, status: response.status, retryAfter: pacing,
                retryScope: cooldown?.scope)
        }
        return FailedResponse(error: error, cooldown: cooldown)
    }

    /// Spec 6.3.3: the scope of the cooldown a response starts, before checking `Retry-After` is usable.
    /// 429: the named scope, else the route's, else `requests` for bearer routes. 503: only a named scope.
    /// Exempt routes never start one.
    @_optimize(size)
    public static func cooldownScope(status: Int, named: RetryScope?, retryAfter: Int?, route: Route) -> RetryScope? {
        guard !route.isExempt, retryAfter != nil else { return nil }
        switch status {
        case 429:
            return named ?? route.routeScope ?? (route.authentication == .bearer ? .requests : nil)
        case 503:
            return named
        default:
            return nil
        }
    }

    /// Decodes a success body as `T`; an empty or non-object body, or one of the wrong shape, is
    /// `invalid_response` with the status (spec 1.6).
    @_optimize(size)
    public static func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse) throws(ReceptionError) -> T {
        try ReceptionJSON.decode(type, from: response.body, status: response.status)
    }
}

/// The body of responses that carry no data: it must still be a JSON object (spec 1.6).
public struct EmptyObject: Codable, Sendable, Hashable {
    /// Makes one.
    @_optimize(size) public init() {}

    /// Succeeds only for a JSON object (any keys); `[]`, `null` and scalars fail.
    @_optimize(size) public init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: WireKey.self)
    }

    @_optimize(size) public func encode(to encoder: any Encoder) throws {
        _ = encoder.container(keyedBy: WireKey.self)
    }
}
