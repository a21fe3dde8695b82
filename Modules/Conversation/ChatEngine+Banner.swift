import Foundation
import ReceptionCore

extension ChatEngine {
    /// Spec 7.18: the facts the banner derives from, as they are now.
    @inline(never) @_optimize(size) private var bannerFacts: ConnectionStatus.Facts {
        ConnectionStatus.Facts(
            hasStartedChat: session.hasStartedChat, halted: permission.halt != nil, pathAvailable: pathAvailable,
            hasConversation: hasConversation, watched: watched, streamConnected: stream.connected,
            streamWaitActive: deps.cooldowns.wait(for: [.stream, .requests, .session], now: clock.now) != nil)
    }

    /// Re-derives the banner (`ConnectionStatus` owns it and its timers).
    @inline(never) @_optimize(size) func updateBanner() {
        status.update(
            bannerFacts, connectedEnded: { [weak self] in await self?.connectedShown() },
            graceEnded: { [weak self] in await self?.graceEnded() })
    }

    @inline(never) @_optimize(size) private func connectedShown() {
        if status.connectedTimerFired() { publish() }
    }

    @inline(never) @_optimize(size) private func graceEnded() {
        if status.graceFired(bannerFacts) { publish() }
    }
}
