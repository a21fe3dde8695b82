import ReceptionCore

/// The connection banner and its two timers (spec 7.18): "Connected" hides after 3 s, and a stream that drops
/// while online shows "Connecting" only after a 1 s grace, so a short blip stays invisible.
///
/// The banner derives only from `Facts` (the path, the stream, stream-relevant waits), never from retry attempts.
final class ConnectionStatus {
    /// What the banner is derived from, read by the engine at the moment of an update.
    struct Facts: Sendable {
        /// The chat was used (monitoring runs only then).
        var hasStartedChat: Bool
        /// The session is halted.
        var halted: Bool
        /// The device reports a network path.
        var pathAvailable: Bool
        /// The service has a conversation for this device.
        var hasConversation: Bool
        /// The chat is visible in an active app.
        var watched: Bool
        /// The event stream is open.
        var streamConnected: Bool
        /// A `stream`, `requests` or `session` wait is active.
        var streamWaitActive: Bool
    }

    private let clock: any ReceptionClock
    /// What is shown.
    private(set) var banner: ConnectionBanner = .hidden
    /// Hides "Connected" after 3 s.
    private var connectedTimer = TimerSlot()
    /// The 1 s grace before a dropped stream shows "Connecting".
    private var grace = TimerSlot()

    @_optimize(size) init(clock: any ReceptionClock) { self.clock = clock }

    /// Applies the rules in the spec's order. `connectedEnded` and `graceEnded` are called back when a timer
    /// fires; the engine then calls `connectedTimerFired()` or `graceFired(_:)`.
    @inline(never) @_optimize(size) func update(
        _ facts: Facts, connectedEnded: @escaping @Sendable () async -> Void,
        graceEnded: @escaping @Sendable () async -> Void
    ) {
        guard facts.hasStartedChat, !facts.halted else { return set(.hidden) }
        guard facts.pathAvailable else { return set(.offline) }
        // No conversation yet, or the chat is closed (closing hides the banner unless it shows offline).
        guard facts.hasConversation, facts.watched else { return set(.hidden) }
        if facts.streamConnected {
            grace.cancel()
            // Stream connects while offline/connecting/paused: "Connected" for 3 s, then hidden; else no change.
            if [.offline, .connecting, .paused].contains(banner) {
                set(.connected)
                connectedTimer.arm(after: .seconds(3), on: clock, connectedEnded)
            }
            return
        }
        if facts.streamWaitActive { return set(.paused) }
        switch banner {
        case .offline, .paused:
            // Coming from offline (or out of a pause): connecting at once.
            set(.connecting)
        case .connecting:
            break
        case .hidden, .connected:
            set(.hidden)
            if !grace.isArmed { grace.arm(after: .seconds(1), on: clock, graceEnded) }
        }
    }

    /// The 3 s of "Connected" are over; returns whether the banner changed.
    @inline(never) @_optimize(size) func connectedTimerFired() -> Bool {
        connectedTimer.fired()
        guard banner == .connected else { return false }
        set(.hidden)
        return true
    }

    /// The grace is over: "Connecting" when the stream is still down and nothing else applies; returns whether the
    /// banner changed.
    @inline(never) @_optimize(size) func graceFired(_ facts: Facts) -> Bool {
        grace.fired()
        guard banner == .hidden, !facts.streamConnected, facts.hasStartedChat, !facts.halted, facts.pathAvailable,
              facts.hasConversation, facts.watched else { return false }
        set(.connecting)
        return true
    }

    /// Spec 7.18: closing the chat hides the banner unless it shows offline.
    @_optimize(size) func chatClosed() { if banner != .offline { set(.hidden) } }

    /// Stops both timers (the session ended).
    @_optimize(size) func cancelTimers() {
        connectedTimer.cancel()
        grace.cancel()
    }

    /// Sets the banner; leaving "connected" stops its timer and showing anything stops the grace.
    @inline(never) @_optimize(size) private func set(_ value: ConnectionBanner) {
        guard value != banner else { return }
        banner = value
        if value != .connected { connectedTimer.cancel() }
        if value != .hidden { grace.cancel() }
    }
}
