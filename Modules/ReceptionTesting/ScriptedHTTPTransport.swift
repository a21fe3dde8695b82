import Foundation
import ReceptionCore

/// An `HTTPTransporting` that answers from a script and records every request, for testing the client without a
/// network. A request the script does not cover is answered 501 with the envelope code `unscripted` and listed in
/// `unexpectedRequests`, so a test that forgets a route fails loudly instead of hanging.
public final class ScriptedHTTPTransport: HTTPTransporting {
    /// One scripted answer.
    public enum Reply: Sendable {
        /// A complete response.
        case response(HTTPResponse)
        /// No HTTP response: the error the transport throws (`connection_failed`, …).
        case failure(ReceptionError)
        /// A streaming response fed by the test through `ScriptedStream`.
        case stream(status: Int, headers: [String: String], ScriptedStream)

        /// A JSON response.
        public static func json(_ status: Int, _ body: String, headers: [String: String] = [:]) -> Reply {
            var headers = headers
            headers["Content-Type"] = headers["Content-Type"] ?? "application/json"
            return .response(HTTPResponse(status: status, headers: headers, body: Data(body.utf8)))
        }

        /// An error envelope response (spec 5.1).
        public static func error(
            _ status: Int, code: String, retryScope: String? = nil, resetRevision: Int? = nil,
            retryAfter: String? = nil
        ) -> Reply {
            var fields = [#""code":"\#(code)""#, #""message":"scripted""#]
            if let retryScope { fields.append(#""retryScope":"\#(retryScope)""#) }
            if let resetRevision { fields.append(#""resetRevision":\#(resetRevision)"#) }
            return .json(status, #"{"error":{\#(fields.joined(separator: ","))}}"#,
                         headers: retryAfter.map { ["Retry-After": $0] } ?? [:])
        }
    }

    /// A request as it went out.
    public struct Recorded: Sendable, Hashable {
        /// The method.
        public let method: String
        /// The path without the query.
        public let path: String
        /// The query, if any.
        public let query: String?
        /// The headers as sent.
        public let headers: [String: String]
        /// The body.
        public let body: Data?

        /// The body as a JSON object, when it is one.
        public var json: [String: Any]? {
            body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        }

        /// `"METHOD path"`, the key scripts use.
        public var route: String { "\(method) \(path)" }
    }

    private struct State {
        var queues: [String: [Reply]] = [:]
        /// Routes whose single remaining reply was already used (it repeats until new replies are queued).
        var repeating: Set<String> = []
        var handlers: [String: @Sendable (HTTPRequest) async -> Reply] = [:]
        var recorded: [Recorded] = []
        var unexpected: [Recorded] = []
        var gates: [String: [CheckedContinuation<Void, Never>]] = [:]
        var heldRoutes: Set<String> = []
    }

    private let state = Locked(State())

    /// An empty script.
    public init() {}

    /// Queues replies for `"METHOD path"` (path without the query, e.g. `"POST /v1/devices"`); they are used in
    /// order and the last one repeats until more are queued.
    public func on(_ route: String, _ replies: Reply...) {
        state.withLock { state in
            if state.repeating.remove(route) != nil { state.queues[route] = [] }
            state.queues[route, default: []].append(contentsOf: replies)
        }
    }

    /// Answers `"METHOD path"` with a function of the request (evaluated per request).
    public func on(_ route: String, handler: @escaping @Sendable (HTTPRequest) async -> Reply) {
        state.withLock { $0.handlers[route] = handler }
    }

    /// Makes requests to `route` wait until `release(route)`: lets a test act while a request is in flight.
    public func hold(_ route: String) { state.withLock { _ = $0.heldRoutes.insert(route) } }

    /// Lets held requests to `route` proceed, and stops holding new ones.
    public func release(_ route: String) {
        let waiting = state.withLock { state in
            state.heldRoutes.remove(route)
            return state.gates.removeValue(forKey: route) ?? []
        }
        for continuation in waiting { continuation.resume() }
    }

    /// How many requests to `route` are waiting at a hold.
    public func heldCount(_ route: String) -> Int { state.withLock { $0.gates[route]?.count ?? 0 } }

    /// Every request so far, in order.
    public var requests: [Recorded] { state.withLock { $0.recorded } }

    /// The requests to one route.
    public func requests(to route: String) -> [Recorded] { requests.filter { $0.route == route } }

    /// Requests no script covered.
    public var unexpectedRequests: [Recorded] { state.withLock { $0.unexpected } }

    public func send(
        _ request: HTTPRequest, uploadProgress: (@Sendable (Double) -> Void)?
    ) async throws(ReceptionError) -> HTTPResponse {
        switch await reply(to: request) {
        case .response(let response):
            uploadProgress?(1)
            return response
        case .failure(let error):
            throw error
        case .stream(let status, let headers, _):
            return HTTPResponse(status: status, headers: headers)
        }
    }

    public func stream(_ request: HTTPRequest) -> AsyncThrowingStream<HTTPStreamEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<HTTPStreamEvent, any Error>.makeStream()
        let task = Task {
            switch await self.reply(to: request) {
            case .response(let response):
                continuation.yield(.head(status: response.status, headers: response.headers))
                if !response.body.isEmpty { continuation.yield(.bytes(response.body)) }
                continuation.finish()
            case .failure(let error):
                continuation.finish(throwing: error)
            case .stream(let status, let headers, let scripted):
                continuation.yield(.head(status: status, headers: headers))
                scripted.attach(continuation)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func reply(to request: HTTPRequest) async -> Reply {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        let recorded = Recorded(
            method: request.method, path: components?.percentEncodedPath ?? request.url.path,
            query: components?.percentEncodedQuery, headers: request.headers, body: request.body)
        let held = state.withLock { state in
            state.recorded.append(recorded)
            return state.heldRoutes.contains(recorded.route)
        }
        if held {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    guard state.heldRoutes.contains(recorded.route) else { return true }
                    state.gates[recorded.route, default: []].append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
        let (handler, queued): ((@Sendable (HTTPRequest) async -> Reply)?, Reply?) = state.withLock { state in
            if let handler = state.handlers[recorded.route] { return (handler, nil) }
            guard var queue = state.queues[recorded.route], let first = queue.first else {
                state.unexpected.append(recorded)
                return (nil, nil)
            }
            if queue.count > 1 { queue.removeFirst() } else { state.repeating.insert(recorded.route) }
            state.queues[recorded.route] = queue
            return (nil, first)
        }
        if let handler { return await handler(request) }
        return queued ?? .error(501, code: "unscripted")
    }
}

/// The body of a scripted streaming response, fed by the test.
public final class ScriptedStream: Sendable {
    private struct State {
        var continuation: AsyncThrowingStream<HTTPStreamEvent, any Error>.Continuation?
        var backlog: [HTTPStreamEvent] = []
        var ending: Result<Void, ReceptionError>?
    }

    private let state = Locked(State())

    /// A stream with nothing sent yet.
    public init() {}

    /// Whether a client has opened it.
    public var isOpen: Bool { state.withLock { $0.continuation != nil && $0.ending == nil } }

    func attach(_ continuation: AsyncThrowingStream<HTTPStreamEvent, any Error>.Continuation) {
        let (backlog, ending) = state.withLock { state in
            state.continuation = continuation
            defer { state.backlog.removeAll() }
            return (state.backlog, state.ending)
        }
        for event in backlog { continuation.yield(event) }
        if let ending { finish(continuation, ending) }
    }

    /// Sends raw text (lines need their own `\n`).
    public func send(_ text: String) {
        let event = HTTPStreamEvent.bytes(Data(text.utf8))
        let continuation = state.withLock { state in
            if state.continuation == nil { state.backlog.append(event) }
            return state.continuation
        }
        continuation?.yield(event)
    }

    /// Ends the body normally (the server closed it).
    public func finish() { end(.success(())) }

    /// Ends the body with a transport failure.
    public func fail(_ error: ReceptionError) { end(.failure(error)) }

    private func end(_ result: Result<Void, ReceptionError>) {
        let continuation = state.withLock { state in
            state.ending = result
            return state.continuation
        }
        if let continuation { finish(continuation, result) }
    }

    private func finish(
        _ continuation: AsyncThrowingStream<HTTPStreamEvent, any Error>.Continuation, _ result: Result<Void, ReceptionError>
    ) {
        switch result {
        case .success: continuation.finish()
        case .failure(let error): continuation.finish(throwing: error)
        }
    }
}

/// A `RandomSource` that always answers the same value: 0.5 makes every jitter factor exactly 1.
public struct FixedRandomSource: RandomSource {
    private let value: Double

    /// A source answering `value` (clamped to 0 ..< 1).
    public init(_ value: Double = 0.5) { self.value = min(max(value, 0), 0.999_999_999) }

    public func unit() -> Double { value }
}
