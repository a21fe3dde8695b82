import Dispatch

/// One open `GET /v1/conversation/events` stream (spec 3.12): `data: <event>` lines as they happen, a `: ping`
/// comment whenever nothing happened for the ping interval (the client's idle timeout is 45 s), and
/// `data: reconnect` before the server ends it on purpose (token expiry, shutdown, device reset, too many streams of
/// one device). A `changed` event can carry the ID of the agent message it announces; once its line is handed to the
/// connection, the stream reports that ID as received (the dashboard's delivered receipt, seed 001).
///
/// The stream never blocks a thread: when it has nothing to write, ``next(maximum:park:)`` parks the connection
/// (the server suspends it in libmicrohttpd's event loop) and keeps the way to wake it. A new event, ``close()`` or
/// the ping deadline (``wakeIfDue()``, called by a timer) wakes it again.
package final class EventStream: Sendable {
    private struct State {
        var queued: [(event: String, messageId: String?)] = []
        var leftover: [UInt8] = []
        var closing = false
        var finished = false
        /// When the next `: ping` is due if nothing else was written.
        var nextPing: DispatchTime
        /// Wakes the parked connection; `nil` while it is not parked.
        var wake: (@Sendable () -> Void)?
        /// The connection has ended: nothing may wake it any more.
        var detached = false
    }

    /// What the connection should do next.
    package enum Step {
        /// Write these bytes (never empty).
        case write([UInt8])
        /// Nothing to write: the connection was parked and is woken at the latest at this time.
        case parked(until: DispatchTime)
        /// The stream is over: end the response.
        case end
    }

    /// The device whose changes this stream carries.
    package let deviceId: String
    private let pingInterval: DispatchTimeInterval
    private let endsAt: DispatchTime?
    private let state: EmulatorLock<State>
    /// Called outside the stream's lock with the message IDs of the `changed` lines in a chunk just before the chunk
    /// is handed to the connection.
    private let received: @Sendable ([String]) -> Void

    /// A stream for `deviceId` that pings every `pingInterval` seconds and says `reconnect` after `lifetime`
    /// seconds (the remaining life of the access token that opened it), if given; `received` learns which announced
    /// agent messages went out.
    package init(
        deviceId: String, pingInterval: Double, lifetime: Double?, received: @escaping @Sendable ([String]) -> Void = { _ in }
    ) {
        self.deviceId = deviceId
        self.received = received
        let interval = Self.interval(seconds: pingInterval, floor: 0.01)
        self.pingInterval = interval
        self.endsAt = lifetime.map { .now() + Self.interval(seconds: $0, floor: 0) }
        // A first comment right away, so the client sees the 200 and the stream headers at once.
        state = EmulatorLock(State(leftover: Array(": ping\n\n".utf8), nextPing: .now() + interval))
    }

    /// Whole milliseconds between `floor` and one day: no seconds value can overflow the conversion.
    private static func interval(seconds: Double, floor: Double) -> DispatchTimeInterval {
        let clamped = seconds.isNaN ? floor : min(max(seconds, floor), 86_400)
        return .milliseconds(Int((clamped * 1000).rounded(.up)))
    }

    /// Queues `data: <event>` (`changed`, `typing`, `idle`); `messageId` names the agent message a `changed`
    /// announces.
    package func send(_ event: String, messageId: String? = nil) {
        state.withLock { state in
            guard !state.closing, !state.finished else { return }
            state.queued.append((event, messageId))
            Self.wake(&state)
        }
    }

    /// Ends the stream on purpose: the client reads `data: reconnect` and reopens without backoff.
    package func close() {
        state.withLock { state in
            state.closing = true
            Self.wake(&state)
        }
    }

    /// Wakes a parked connection whose ping or end is due (or any parked connection: a wake with nothing to do
    /// parks it again).
    package func wakeIfDue() { state.withLock { Self.wake(&$0) } }

    /// The connection is gone: nothing will wake it again, and later events are dropped.
    package func detach() {
        state.withLock { state in
            state.detached = true
            state.finished = true
            state.wake = nil
        }
    }

    private static func wake(_ state: inout State) {
        guard let wake = state.wake else { return }
        state.wake = nil
        wake()
    }

    /// The next step for the connection, writing at most `maximum` bytes. When there is nothing to write, `park`
    /// is called under the stream's lock (so no event can slip between the check and the parking) and returns the
    /// closure that wakes the connection again.
    package func next(maximum: Int, park: () -> @Sendable () -> Void) -> Step {
        let now = DispatchTime.now()
        var announced: [String] = []
        let step: Step = state.withLock { state in
            if state.leftover.isEmpty {
                if let endsAt, now >= endsAt { state.closing = true }
                if !state.queued.isEmpty, !state.closing {
                    state.leftover = Array(state.queued.map { "data: \($0.event)\n\n" }.joined().utf8)
                    announced = state.queued.compactMap(\.messageId)
                    state.queued.removeAll()
                    state.nextPing = now + pingInterval
                } else if state.finished {
                    return .end
                } else if state.closing {
                    state.leftover = Array("data: reconnect\n\n".utf8)
                    state.finished = true
                } else if now >= state.nextPing {
                    state.leftover = Array(": ping\n\n".utf8)
                    state.nextPing = now + pingInterval
                } else {
                    state.wake = park()
                    return .parked(until: endsAt.map { min($0, state.nextPing) } ?? state.nextPing)
                }
            }
            let count = min(max(1, maximum), state.leftover.count)
            let chunk = Array(state.leftover.prefix(count))
            state.leftover.removeFirst(count)
            return .write(chunk)
        }
        if !announced.isEmpty { received(announced) }
        return step
    }
}

/// Every open event stream, so a change to a device reaches all of its streams.
package final class EventHub: Sendable {
    /// At most this many open streams per device: opening one more ends the oldest with `data: reconnect`. A
    /// client whose connection died unnoticed (a parked connection sees no disconnect until its next ping) must
    /// still be able to reopen, and one device cannot hold the emulator's connections.
    package static let streamsPerDevice = 4

    private struct Entry {
        var stream: EventStream
        var order: UInt64
    }

    private struct Streams {
        var entries: [ObjectIdentifier: Entry] = [:]
        var opened: UInt64 = 0
    }

    private let streams = EmulatorLock(Streams())

    /// Creates an empty hub.
    package init() {}

    /// Starts delivering to `stream`; the device's oldest streams beyond ``streamsPerDevice`` end with
    /// `data: reconnect`.
    package func add(_ stream: EventStream) {
        let evicted: [EventStream] = streams.withLock { streams in
            streams.opened &+= 1
            streams.entries[ObjectIdentifier(stream)] = Entry(stream: stream, order: streams.opened)
            let same = streams.entries.values.filter { $0.stream.deviceId == stream.deviceId }.sorted { $0.order < $1.order }
            let surplus = same.prefix(max(0, same.count - Self.streamsPerDevice)).map(\.stream)
            for old in surplus { streams.entries.removeValue(forKey: ObjectIdentifier(old)) }
            return Array(surplus)
        }
        for old in evicted { old.close() }
    }

    /// Stops delivering to `stream` (its connection ended).
    package func remove(_ stream: EventStream) {
        _ = streams.withLock { $0.entries.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    private func all(_ deviceId: String? = nil) -> [EventStream] {
        streams.withLock { streams in
            streams.entries.values.map(\.stream).filter { deviceId == nil || $0.deviceId == deviceId }
        }
    }

    /// Sends `event` to every stream of `deviceId`; `messageId` names the agent message a `changed` announces.
    package func send(_ event: String, to deviceId: String, messageId: String? = nil) {
        for stream in all(deviceId) { stream.send(event, messageId: messageId) }
    }

    /// Ends every stream of `deviceId` with `data: reconnect` (its session or chat changed under it).
    package func close(deviceId: String) {
        for stream in all(deviceId) { stream.close() }
    }

    /// Ends every stream (shutdown).
    package func closeAll() {
        for stream in all() { stream.close() }
    }

    /// How many streams are open for `deviceId`.
    package func count(deviceId: String) -> Int { all(deviceId).count }

    /// How many streams are open in all.
    package var count: Int { streams.withLock { $0.entries.count } }
}
