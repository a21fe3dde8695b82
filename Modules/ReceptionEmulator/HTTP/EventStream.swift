import Dispatch
import Synchronization

/// One open `GET /v1/conversation/events` stream (spec 3.12): `data: <event>` lines as they happen, a `: ping`
/// comment whenever nothing happened for the ping interval (the client's idle timeout is 45 s), and
/// `data: reconnect` before the server ends it on purpose (token expiry, shutdown, device reset). A `changed` event
/// can carry the ID of the agent message it announces; once its line is handed to the connection, the stream reports
/// that ID as received (the dashboard's delivered receipt, seed 001).
///
/// libmicrohttpd calls ``nextChunk(maximum:)`` on the connection's own thread (thread-per-connection mode), so
/// blocking there while waiting for an event stalls only this stream.
package final class EventStream: Sendable {
    private struct State {
        var queued: [(event: String, messageId: String?)] = []
        var leftover: [UInt8] = []
        var closing = false
        var finished = false
    }

    /// The device whose changes this stream carries.
    package let deviceId: String
    private let pingInterval: Double
    private let endsAt: DispatchTime?
    private let state = Mutex(State())
    private let wakeUp = DispatchSemaphore(value: 0)
    /// Called on the connection's thread, outside the stream's lock, with the message IDs of the `changed` lines in
    /// a chunk just before the chunk is handed to the connection.
    private let received: @Sendable ([String]) -> Void

    /// A stream for `deviceId` that pings every `pingInterval` seconds and says `reconnect` after `lifetime`
    /// seconds (the remaining life of the access token that opened it), if given; `received` learns which announced
    /// agent messages went out.
    package init(
        deviceId: String, pingInterval: Double, lifetime: Double?, received: @escaping @Sendable ([String]) -> Void = { _ in }
    ) {
        self.deviceId = deviceId
        self.received = received
        self.pingInterval = max(0.01, pingInterval)
        self.endsAt = lifetime.map { .now() + max(0, $0) }
        // A first comment right away, so the client sees the 200 and the stream headers at once.
        state.withLock { $0.leftover = Array(": ping\n\n".utf8) }
    }

    /// Queues `data: <event>` (`changed`, `typing`, `idle`); `messageId` names the agent message a `changed`
    /// announces.
    package func send(_ event: String, messageId: String? = nil) {
        state.withLock { $0.queued.append((event, messageId)) }
        wakeUp.signal()
    }

    /// Ends the stream on purpose: the client reads `data: reconnect` and reopens without backoff.
    package func close() {
        state.withLock { $0.closing = true }
        wakeUp.signal()
    }

    /// Whether the stream has delivered its last bytes.
    package var isFinished: Bool { state.withLock { $0.finished } }

    /// The next bytes to write, at most `maximum`; blocks until there is something (an event or a ping) and returns
    /// `nil` once the stream is over.
    package func nextChunk(maximum: Int) -> [UInt8]? {
        while true {
            if let (chunk, messageIds) = takeReady(maximum: maximum) {
                if !messageIds.isEmpty { received(messageIds) }
                return chunk.isEmpty ? nil : chunk
            }
            var deadline = DispatchTime.now() + pingInterval
            if let endsAt {
                if DispatchTime.now() >= endsAt { close(); continue }
                deadline = min(deadline, endsAt)
            }
            if wakeUp.wait(timeout: deadline) == .timedOut {
                state.withLock { state in
                    if state.queued.isEmpty, !state.closing, !state.finished {
                        state.leftover = Array(": ping\n\n".utf8)
                    }
                }
            }
        }
    }

    /// Ready bytes (non-empty) with the message IDs their `changed` lines announce, the end (`[]`), or `nil` when
    /// the caller has to wait.
    private func takeReady(maximum: Int) -> (chunk: [UInt8], messageIds: [String])? {
        state.withLock { state in
            var messageIds: [String] = []
            if state.leftover.isEmpty {
                if !state.queued.isEmpty {
                    state.leftover = Array(state.queued.map { "data: \($0.event)\n\n" }.joined().utf8)
                    messageIds = state.queued.compactMap(\.messageId)
                    state.queued.removeAll()
                } else if state.closing, !state.finished {
                    state.leftover = Array("data: reconnect\n\n".utf8)
                    state.finished = true
                } else if state.finished {
                    return ([], [])
                } else {
                    return nil
                }
            }
            let count = min(max(1, maximum), state.leftover.count)
            let chunk = Array(state.leftover.prefix(count))
            state.leftover.removeFirst(count)
            return (chunk, messageIds)
        }
    }
}

/// Every open event stream, so a change to a device reaches all of its streams.
package final class EventHub: Sendable {
    private let streams = Mutex<[ObjectIdentifier: EventStream]>([:])

    /// Creates an empty hub.
    package init() {}

    /// Starts delivering to `stream`.
    package func add(_ stream: EventStream) { streams.withLock { $0[ObjectIdentifier(stream)] = stream } }

    /// Stops delivering to `stream` (its connection ended).
    package func remove(_ stream: EventStream) { _ = streams.withLock { $0.removeValue(forKey: ObjectIdentifier(stream)) } }

    /// Sends `event` to every stream of `deviceId`; `messageId` names the agent message a `changed` announces.
    package func send(_ event: String, to deviceId: String, messageId: String? = nil) {
        for stream in streams.withLock({ Array($0.values) }) where stream.deviceId == deviceId {
            stream.send(event, messageId: messageId)
        }
    }

    /// Ends every stream of `deviceId` with `data: reconnect` (its session or chat changed under it).
    package func close(deviceId: String) {
        for stream in streams.withLock({ Array($0.values) }) where stream.deviceId == deviceId { stream.close() }
    }

    /// Ends every stream (shutdown).
    package func closeAll() {
        for stream in streams.withLock({ Array($0.values) }) { stream.close() }
    }

    /// How many streams are open for `deviceId`.
    package func count(deviceId: String) -> Int {
        streams.withLock { $0.values.filter { $0.deviceId == deviceId }.count }
    }
}
