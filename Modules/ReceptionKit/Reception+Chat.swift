import Conversation
import Foundation
import ReceptionCore

extension Reception {
    /// Shows the chat: loads history, streams live updates, reports reads while the app is active (spec 7.2).
    /// Emits `.chatOpened`.
    public func openChat() {
        guard let (session, _) = configured("openChat") else { return }
        guard !isChatOpen else { return }
        isChatOpen = true
        onEvent?(.chatOpened)
        Task {
            if appActive { try? await session.client.updateDevice(probe: false, allowRegistration: false) }
            await session.engine.setVisible(true)
        }
    }

    /// Hides the chat: the stream stops, typing is reported as stopped, held automatic resends become manual.
    public func closeChat() {
        guard let (session, _) = configured("closeChat") else { return }
        guard isChatOpen else { return }
        isChatOpen = false
        Task { await session.engine.setVisible(false) }
    }

    /// Tell ReceptionKit the app became active (when no lifecycle monitor is configured).
    public func appDidBecomeActive() {
        guard !appActive else { return }
        appActive = true
        guard let session else { return }
        Task { [weak self] in
            await session.engine.setAppState(.active)
            await self?.launchUpdate()
        }
        drainRevocations()
    }

    /// Tell ReceptionKit the app went to the background (when no lifecycle monitor is configured).
    public func appDidEnterBackground() {
        guard appActive else { return }
        appActive = false
        guard let session else { return }
        Task { await session.engine.setAppState(.background) }
    }
}
