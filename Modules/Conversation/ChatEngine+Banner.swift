import Foundation
import ReceptionCore

extension ChatEngine {
    /// Spec 7.18: the banner derives only from the network path, the stream's connection and stream-relevant
    /// waits, never from retry attempts. The rules apply in the spec's order.
    func updateBanner() {
        // Monitoring runs only for a chat that was used; a halted session shows nothing.
        guard session.hasStartedChat, halt == nil else { return setBanner(.hidden) }
        guard pathAvailable else { return setBanner(.offline) }
        // No conversation yet, or the chat is closed (closing hides the banner unless it shows offline).
        guard hasConversation, watched else { return setBanner(.hidden) }
        if streamConnected {
            bannerGrace?.cancel()
            bannerGrace = nil
            // Stream connects while offline/connecting/paused: "Connected" for 3 s, then hidden; else no change.
            if [.offline, .connecting, .paused].contains(banner) { showConnected() }
            return
        }
        if deps.cooldowns.wait(for: [.stream, .requests, .session], now: clock.now) != nil {
            return setBanner(.paused)
        }
        switch banner {
        case .offline, .paused:
            // Coming from offline (or out of a pause): connecting at once.
            setBanner(.connecting)
        case .connecting:
            break
        case .hidden, .connected:
            // Stream dropped while online: connecting only after a 1 s grace, so a short blip stays invisible.
            setBanner(.hidden)
            startBannerGrace()
        }
    }

    private func showConnected() {
        setBanner(.connected)
        bannerTimer = Task { [weak self, clock = deps.clock] in
            guard (try? await clock.sleep(for: .seconds(3))) != nil else { return }
            await self?.connectedShown()
        }
    }

    private func connectedShown() {
        bannerTimer = nil
        guard banner == .connected else { return }
        setBanner(.hidden)
        publish()
    }

    private func startBannerGrace() {
        guard bannerGrace == nil else { return }
        bannerGrace = Task { [weak self, clock = deps.clock] in
            guard (try? await clock.sleep(for: .seconds(1))) != nil else { return }
            await self?.graceEnded()
        }
    }

    private func graceEnded() {
        bannerGrace = nil
        guard banner == .hidden, !streamConnected, session.hasStartedChat, halt == nil, pathAvailable,
              hasConversation, watched else { return }
        setBanner(.connecting)
        publish()
    }

    /// Sets the banner; leaving "connected" stops its 3 s timer and showing anything stops the grace period.
    func setBanner(_ value: ConnectionBanner) {
        guard value != banner else { return }
        banner = value
        if value != .connected {
            bannerTimer?.cancel()
            bannerTimer = nil
        }
        if value != .hidden {
            bannerGrace?.cancel()
            bannerGrace = nil
        }
    }
}
