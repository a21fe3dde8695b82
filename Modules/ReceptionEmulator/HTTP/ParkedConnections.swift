import Dispatch
import Foundation

/// The connections that are parked or may park: event streams and answers that wait. Once closed (the server is
/// stopping), a newcomer is ended at once instead of parking.
final class ParkedConnections: Sendable {
    private struct State {
        var streams: [ObjectIdentifier: EventStream] = [:]
        var waiting: [ObjectIdentifier: PendingRequest] = [:]
        var closed = true
    }

    private let state = EmulatorLock(State())

    func open() { state.withLock { $0.closed = false } }

    /// Registers a stream; `false` when the server is stopping (the stream is then closed).
    func add(_ stream: EventStream) {
        let accepted = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.streams[ObjectIdentifier(stream)] = stream
            return true
        }
        if !accepted { stream.close() }
    }

    func remove(_ stream: EventStream) { _ = state.withLock { $0.streams.removeValue(forKey: ObjectIdentifier(stream)) } }

    /// Registers a request that is about to wait; `false` when the server is stopping.
    func add(_ request: PendingRequest) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.waiting[ObjectIdentifier(request)] = request
            return true
        }
    }

    func remove(_ request: PendingRequest) { _ = state.withLock { $0.waiting.removeValue(forKey: ObjectIdentifier(request)) } }

    /// Ends every stream and wakes every waiting request with 503; nothing parks afterwards. Waits up to
    /// `grace` seconds for the streams to write their `data: reconnect` (a client that reads nothing delays the
    /// stop by that much at most).
    func closeAll(grace: Double = 2) {
        let (streams, waiting) = state.withLock { state in
            state.closed = true
            defer { state.waiting = [:] }
            return (Array(state.streams.values), Array(state.waiting.values))
        }
        for stream in streams { stream.close() }
        for request in waiting { request.finish(HTTPResponse(status: 503)) }
        let deadline = DispatchTime.now() + .milliseconds(Int(grace * 1000))
        while DispatchTime.now() < deadline, !state.withLock({ $0.streams.isEmpty }) {
            usleep(5_000)
        }
    }
}

/// What libmicrohttpd keeps in `con_cls` for one request between access-handler calls. The body is only touched on
/// the connection's worker thread; the answer of a waiting request arrives from a timer thread.
final class PendingRequest: Sendable {
    private struct State {
        var body: [UInt8] = []
        /// An answer was queued from the head: ignore the rest.
        var answered = false
        /// The body passed its limit: nothing more is kept, `drained` counts what arrived.
        var overflowed = false
        var drained = 0
        /// The connection is suspended, waiting for ``finish(_:)``; resumes it when set.
        var resume: (@Sendable () -> Void)?
        /// The answer that ended the wait, to queue when libmicrohttpd calls the handler again.
        var ready: HTTPResponse?
        /// The connection is gone (request completed or aborted): it must not be resumed.
        var gone = false
        /// The wait has ended (``finish(_:)`` ran); the first answer wins.
        var finished = false
        /// An answer that ended the wait before the connection was suspended (a stop between registering the wait
        /// and parking): ``park(suspend:resume:)`` hands it back instead of suspending.
        var early: HTTPResponse?
    }

    let limit: Int
    private let state = EmulatorLock(State())

    init(limit: Int) { self.limit = limit }

    /// Bytes drained past the limit before the connection is given up.
    static let drainAllowance = 16 * 1_048_576

    /// Appends upload bytes. Past the limit the buffer is dropped and later bytes are only counted; `false` once
    /// they run past the limit by more than ``drainAllowance``.
    func append(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        state.withLock { state in
            if !state.overflowed, state.body.count + bytes.count <= limit {
                state.body.append(contentsOf: bytes)
                return true
            }
            if !state.overflowed {
                state.overflowed = true
                state.drained = state.body.count
                state.body = []
            }
            state.drained += bytes.count
            return state.drained - limit <= Self.drainAllowance
        }
    }

    /// The body passed its limit and was dropped.
    var overflowed: Bool { state.withLock { $0.overflowed } }

    var answered: Bool {
        get { state.withLock { $0.answered } }
        set { state.withLock { $0.answered = newValue } }
    }

    /// The collected body, handed over once.
    func takeBody() -> [UInt8] { state.withLock { state in defer { state.body = [] }; return state.body } }

    /// The answer that ended a wait, taken once.
    func takeReady() -> HTTPResponse? { state.withLock { state in defer { state.ready = nil }; return state.ready } }

    /// Suspends the connection (under the lock, so `finish` cannot run between) and keeps how to resume it; or,
    /// when the wait already ended before it could park, suspends nothing and returns that answer to queue now.
    /// (Without this a stop that finished the wait first left the connection suspended for good.)
    func park(suspend: () -> Void, resume: @escaping @Sendable () -> Void) -> HTTPResponse? {
        state.withLock { state in
            if state.finished { return state.early.take() ?? HTTPResponse(status: 503) }
            suspend()
            state.resume = resume
            return nil
        }
    }

    /// Ends the wait with `response`: the first call wins, and a gone connection is never resumed.
    func finish(_ response: HTTPResponse) {
        state.withLock { state in
            guard !state.finished, !state.gone else { return }
            state.finished = true
            guard let resume = state.resume else {
                state.early = response
                return
            }
            state.resume = nil
            state.ready = response
            resume()
        }
    }

    /// The connection ended.
    func detach() {
        state.withLock { state in
            state.gone = true
            state.resume = nil
        }
    }
}
