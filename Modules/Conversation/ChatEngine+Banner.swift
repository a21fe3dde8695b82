import Foundation
import ReceptionCore

extension ChatEngine {
    /// Spec 7.18: the banner derives only from the network path, the stream's connection and stream-relevant
    /// waits, never from retry attempts.
    func updateBanner() {
        guard session.hasStartedChat, halt == nil else { return setBanner(.hidden) }
        guard pathAvailable else { return setBanner(.offline) }
        guard hasConversation, watched else {
            return setBanner(banner == .offline && !watched && !pathAvailable ? .offline : .hidden)
        }
        if streamConnected {
            // Stream connects while offline/connecting/paused: "Connected" for 3 s, then hidden.
            if [.offline, .connecting, .paused].contains(banner) {
                setBanner(.connected)
                bannerTimer = Task { [weak self, clock = deps.clock] in
                    guard (try? await clock.sleep(for: .seconds(3))) != nil else { return }
                    await self?.connectedShown()
                }
            }
            return
        }
        if deps.cooldowns.wait(for: [.stream, .requests, .session], now: clock.now) != nil {
            return setBanner(.paused)
        }
        switch banner {
        case .offline:
            // Coming from offline: connecting at once.
            setBanner(.connecting)
        case .hidden, .connected:
            // Stream dropped while online: connecting after a 1 s grace period.
            guard bannerTimer == nil || banner == .connected else { return }
            setBanner(banner == .connected ? .hidden : banner)
            bannerTimer = Task { [weak self, clock = deps.clock] in
                guard (try? await clock.sleep(for: .seconds(1))) != nil else { return }
                await self?.graceEnded()
            }
        case .connecting, .paused:
            if banner == .paused { setBanner(.connecting) }
        }
    }

    private func connectedShown() {
        bannerTimer = nil
        if banner == .connected { setBanner(.hidden) }
        publish()
    }

    private func graceEnded() {
        bannerTimer = nil
        guard !streamConnected, watched, hasConversation, pathAvailable, halt == nil else { return }
        if banner == .hidden { setBanner(.connecting) }
        publish()
    }

    func setBanner(_ value: ConnectionBanner) {
        if value != banner {
            if value != .connected, value != .hidden || banner != .connected { bannerTimer?.cancel(); bannerTimer = nil }
            banner = value
        }
    }
}
