import Foundation
import ReceptionCore

extension ChatEngine {
    /// Spec 7.10: the stream runs while the chat is watched, a conversation exists, the session is not halted, a
    /// path exists, and the stream budget is not stopped.
    @_optimize(size) var streamAllowed: Bool {
        watched && hasConversation && permission.halt == nil && pathAvailable && !stream.budgetStopped && !isShutDown
    }

    @_optimize(size) func startStreamIfPossible() {
        guard !stream.isRunning, streamAllowed else { return }
        stream.started(spawn(.stream))
    }

    @_optimize(size) func stopStream() {
        if stream.stop() { updateBanner() }
    }

    @inline(never) @_optimize(size) func runStream() async {
        while !Task.isCancelled, streamAllowed {
            let signals: AsyncThrowingStream<StreamSignal, any Error>
            do throws(ReceptionError) {
                signals = try await service.events()
            } catch {
                guard !Task.isCancelled, await streamFailed(error) else { break }
                continue
            }
            guard !Task.isCancelled else { break }
            streamOpened()
            var reconnect = false
            do {
                for try await signal in signals {
                    guard !Task.isCancelled else { break }
                    if signal == .reconnect { reconnect = true; break }
                    handle(signal)
                }
            } catch {
                logger.write(.debug, "stream ended with an error")
            }
            guard !Task.isCancelled else { break }
            streamDropped()
            if reconnect { continue }
            // Any other end is a transient failure, retried with the stream budget's backoff.
            guard await streamFailed(.connectionFailed()) else { break }
        }
        if !Task.isCancelled { stream.finished() }
    }

    @inline(never) @_optimize(size) private func streamOpened() {
        stream.opened()
        updateBanner()
        // Spec 3.12: right after the stream opens the client fetches once; the driver also restarts.
        poll()
        kickDriver()
        publish()
    }

    @inline(never) @_optimize(size) private func streamDropped() {
        stream.dropped()
        updateBanner()
        publish()
    }

    /// Returns whether the loop should go on after waiting.
    @inline(never) @_optimize(size) private func streamFailed(_ error: ReceptionError) async -> Bool {
        guard !isShutDown, error.code != ReceptionError.Code.cancelled else { return false }
        switch error.code {
        case ReceptionError.Code.noConversation:
            // Spec 3.12: recorded, and no retry.
            transcript.conversationGone()
            persistSession { $0.unread.hasConversation = false }
            updateBanner()
            publish()
            return false
        case ReceptionError.Code.chatReset:
            if let revision = error.resetRevision { chatReset(revision: revision) }
            return false
        default: break
        }
        permission.observe(halt: await service.halt)
        if permission.halt != nil { updateBanner(); publish(); return false }
        let backoff = stream.failed(error, random: deps.random)
        updateBanner()
        publish()
        guard var delay = backoff else { return false }
        if let wait = deps.cooldowns.wait(for: [.stream, .requests], now: clock.now) {
            delay = max(delay, .seconds(wait.remainingSeconds))
        }
        // The path monitor may cut this wait short (spec 7.10: restart dropping the backoff wait).
        await stream.startBackoff(delay).value
        stream.backoffEnded()
        return !Task.isCancelled
    }

    @inline(never) @_optimize(size) private func handle(_ signal: StreamSignal) {
        switch signal {
        case .changed:
            stream.changedSignal()
            poll()
        case .ping:
            if stream.pingSignal() { poll() }
        case .typing: showAgentTyping()
        case .idle: hideAgentTyping()
        case .reconnect: break
        }
    }

    // MARK: - The wait ticker (spec 6.3.4: one timer announces the end of a wait)

    /// While a wait is active, republishes once a second (countdowns) and, when a wait ends, restarts the driver,
    /// the deferred stream and the banner.
    @_optimize(size) func startTicker() {
        guard ticker == nil, !isShutDown, deps.cooldowns.nextDeadline(now: clock.now) != nil else { return }
        ticker = spawn(.tick)
    }

    @inline(never) @_optimize(size) func tick() async {
        while !Task.isCancelled, !isShutDown {
            let now = clock.now
            guard let deadline = deps.cooldowns.nextDeadline(now: now) else { break }
            let untilEnd = deadline.timeIntervalSince(now)
            let step = min(1.0, max(0.001, untilEnd))
            guard (try? await clock.sleep(for: .milliseconds(Int64((step * 1000).rounded(.up))))) != nil else { break }
            if deps.cooldowns.nextDeadline(now: clock.now) != deadline { waitsChanged() }
            publish()
        }
        ticker = nil
        waitsChanged()
        publish()
    }

    @inline(never) @_optimize(size) private func waitsChanged() {
        kickDriver()
        updateBanner()
        if watched, !stream.isRunning { startStreamIfPossible() }
    }
}
