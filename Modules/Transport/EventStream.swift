import Foundation
import ReceptionCore

/// Splits a byte stream into lines at LF, dropping a CR before it (spec 3.12: LF or CRLF). Bytes of an unfinished
/// line wait for the next chunk; an over-long line (garbage) is dropped rather than buffered without bound.
public struct LineSplitter: Sendable {
    private var pending: [UInt8] = []
    private var discarding = false
    /// The longest line kept; the meaningful lines are 15 bytes.
    public static let maximumLineLength = 4096

    /// An empty splitter.
    @_optimize(size) public init() {}

    /// The complete lines in `chunk`, appended to what was pending.
    @_optimize(size) public mutating func lines(in chunk: Data) -> [Substring] {
        var lines: [Substring] = []
        for byte in chunk {
            if byte == UInt8(ascii: "\n") {
                if !discarding {
                    if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
                    lines.append(Substring(String(decoding: pending, as: UTF8.self)))
                }
                pending.removeAll(keepingCapacity: true)
                discarding = false
            } else if !discarding {
                pending.append(byte)
                if pending.count > Self.maximumLineLength {
                    pending.removeAll()
                    discarding = true
                }
            }
        }
        return lines
    }
}

extension ReceptionAPIClient {
    /// Opens `GET conversation/events` (spec 3.12) and returns its signals. Opening goes through the request
    /// pipeline: cooldown gates `stream` + `requests`, a 401 `unauthorized` renews the token and reopens once, a
    /// non-2xx answer is read as an error envelope (404 `no_conversation`, 409 `chat_reset`, 429 → `stream` wait)
    /// and thrown. The returned stream finishes when the server ends the body and throws on a transport failure
    /// or the 45 s idle timeout; cancelling its consumer closes the connection.
    @_optimize(size) public func events() async throws(ReceptionError) -> AsyncThrowingStream<StreamSignal, any Error> {
        guard !invalidated else { throw .cancelled }
        let route = Route.events
        if let wait = deps.cooldowns.wait(for: route.gates, now: deps.clock.now) { throw wait.error }
        var token = try await self.token(allowRegistration: false, probe: false)
        if let wait = deps.cooldowns.wait(for: route.gates, now: deps.clock.now) { throw wait.error }
        if halt != nil { throw ReceptionError(code: ReceptionError.Code.sessionHalted) }
        for attempt in 0..<2 {
            let request = try buildRequest(route, body: nil, token: token)
            let opened = Self.open(deps.transport.stream(request))
            var heads = opened.head.makeAsyncIterator()
            guard let head = await heads.next() else { throw .cancelled }
            let (status, headers, body): (Int, [String: String], Data)
            switch head {
            case .success(let value): (status, headers, body) = value
            case .failure(let error): throw invalidated ? .cancelled : error
            }
            if route.isSuccess(status) { return opened.signals }
            let response = HTTPResponse(status: status, headers: headers, body: body)
            let failure = ResponseInterpreter.failure(response, route: route)
            if attempt == 0, status == 401, failure.error.code == ReceptionError.Code.unauthorized {
                token = try await renew(rejected: token)
                continue
            }
            guard !invalidated else { throw .cancelled }
            try await handle(failure, route: route)
            throw failure.error
        }
        throw .invalidResponse()
    }

    private typealias Head = Result<(Int, [String: String], Data), ReceptionError>

    /// Reads `source` in one task: the head (with the whole body when the status is not a success) goes to `head`,
    /// then each meaningful line of a successful body goes to `signals`.
    @_optimize(size) private static func open(
        _ source: AsyncThrowingStream<HTTPStreamEvent, any Error>
    ) -> (head: AsyncStream<Head>, signals: AsyncThrowingStream<StreamSignal, any Error>) {
        let (head, headContinuation) = AsyncStream<Head>.makeStream()
        let (signals, continuation) = AsyncThrowingStream<StreamSignal, any Error>.makeStream()
        let reader = Task { await Self.pump(source, head: headContinuation, signals: continuation) }
        continuation.onTermination = { _ in reader.cancel() }
        return (head, signals)
    }

    /// The reading task of `open(_:)`. A function of its own, compiled for size and never inlined: a closure is
    /// compiled at the host's `-O` whatever its function says (Docs/Footprint.md, "Cold code compiled for size").
    @inline(never)
    @_optimize(size) private static func pump(
        _ source: AsyncThrowingStream<HTTPStreamEvent, any Error>, head: AsyncStream<Head>.Continuation,
        signals: AsyncThrowingStream<StreamSignal, any Error>.Continuation
    ) async {
        var events = source.makeAsyncIterator()
        var splitter = LineSplitter()
        do {
            guard case .head(let status, let headers)? = try await events.next() else {
                head.yield(.failure(.invalidResponse()))
                head.finish()
                signals.finish()
                return
            }
            guard (200...299).contains(status) else {
                var body = Data()
                while let event = try? await events.next() {
                    if case .bytes(let data) = event { body.append(data) }
                }
                head.yield(.success((status, headers, body)))
                head.finish()
                signals.finish()
                return
            }
            head.yield(.success((status, headers, Data())))
            head.finish()
            while let event = try await events.next() {
                guard case .bytes(let data) = event else { continue }
                for line in splitter.lines(in: data) {
                    if let signal = StreamSignal(line: line) { signals.yield(signal) }
                }
            }
            signals.finish()
        } catch {
            let failure = (error as? ReceptionError) ?? .cancelled
            head.yield(.failure(failure))
            head.finish()
            signals.finish(throwing: failure)
        }
    }
}
