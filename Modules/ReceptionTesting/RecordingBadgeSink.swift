import ReceptionCore

/// A `BadgeSink` that remembers every write, so a test can assert the values the app icon would have shown, and
/// that it was never written at all. `overlapped` reports whether two writes ever ran at the same time.
public final class RecordingBadgeSink: BadgeSink {
    private struct State {
        var writes: [Int] = []
        var inFlight = 0
        var overlapped = false
    }

    private let state = Locked(State())
    private let delay: (@Sendable () async -> Void)?

    /// A sink; `delay`, when given, runs inside every write (for example a manual-clock sleep) so a test can hold
    /// a write open while more values arrive.
    public init(delay: (@Sendable () async -> Void)? = nil) {
        self.delay = delay
    }

    public func setBadge(_ count: Int) async {
        state.withLock { state in
            state.inFlight += 1
            if state.inFlight > 1 { state.overlapped = true }
        }
        if let delay { await delay() }
        state.withLock { state in
            state.inFlight -= 1
            state.writes.append(count)
        }
    }

    /// Every value written, in order.
    public var writes: [Int] { state.withLock { $0.writes } }

    /// The badge the icon shows now, or `nil` when it was never written.
    public var badge: Int? { writes.last }

    /// Whether two writes were ever in progress at once.
    public var overlapped: Bool { state.withLock { $0.overlapped } }
}
