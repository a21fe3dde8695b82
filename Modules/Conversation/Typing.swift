import ReceptionCore

/// Typing both ways (spec 7.13, 3.11): the agent's indicator from the stream, and the person's reports to the
/// service.
///
/// The indicator shows on a `typing` signal and hides on `idle`, on an agent message, or 8 s after the last signal.
/// Reports: `true` at most once per 3 s while the draft has text; every change re-arms a 1.5 s idle timer that
/// sends `false`, and `false` goes only after a `true`. Reports are serialised (each waits for the previous one) and
/// their errors are ignored.
final class Typing {
    /// Sends one report to the service.
    typealias Report = @Sendable (Bool) async throws(ReceptionError) -> Void

    private let clock: any ReceptionClock
    private let report: Report
    /// Spec 7.13: an agent is typing.
    private(set) var agentTyping = false
    private var agentTimer = TimerSlot()
    /// When the last `true` went out (uptime).
    private var trueSentAt: Duration?
    /// A `true` went out and no `false` since.
    private(set) var trueSent = false
    private var idleTimer = TimerSlot()
    /// The last report queued; the next one waits for it.
    private var tail: Task<Void, Never>?

    @_optimize(size) init(clock: any ReceptionClock, report: @escaping Report) {
        self.clock = clock
        self.report = report
    }

    // MARK: The agent's indicator

    /// A `typing` signal: shown, and hidden by `expired` unless another signal comes within 8 s.
    @_optimize(size) func agentStarted(expired: @escaping @Sendable () async -> Void) {
        agentTyping = true
        agentTimer.arm(after: .seconds(8), on: clock, expired)
    }

    /// Hides the indicator; returns whether it was shown.
    @inline(never) @_optimize(size) func agentStopped() -> Bool {
        agentTimer.cancel()
        guard agentTyping else { return false }
        agentTyping = false
        return true
    }

    // MARK: The person's reports

    /// The draft changed while reports are allowed (a conversation exists, the chat is watched, sending is
    /// permitted) and it has text: reports `true` when 3 s passed since the last one, and re-arms the idle timer.
    @inline(never) @_optimize(size) func draftChanged(idle: @escaping @Sendable () async -> Void) {
        let now = clock.uptime
        if trueSentAt.map({ now - $0 >= .seconds(3) }) ?? true {
            trueSentAt = now
            trueSent = true
            enqueue(true)
        }
        idleTimer.arm(after: .milliseconds(1500), on: clock, idle)
    }

    /// Stops the idle timer and reports `false` when `true` went out before (and a conversation exists).
    @inline(never) @_optimize(size) func stop(hasConversation: Bool) {
        idleTimer.cancel()
        guard trueSent, hasConversation else { return }
        trueSent = false
        trueSentAt = nil
        enqueue(false)
    }

    /// Spec 7.12: after a chat reset nothing was reported to the new chat.
    @_optimize(size) func chatReset() { trueSent = false }

    /// Stops both timers (the session ended); queued reports still go out.
    @_optimize(size) func cancelTimers() {
        agentTimer.cancel()
        idleTimer.cancel()
    }

    @inline(never) @_optimize(size) private func enqueue(_ value: Bool) {
        let previous = tail
        let report = self.report
        tail = Task {
            await previous?.value
            do throws(ReceptionError) { try await report(value) } catch {}
        }
    }
}
