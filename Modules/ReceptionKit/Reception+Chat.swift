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
        // Spec 7.20: a newly published appearance becomes visible at a chat opening.
        appearanceSlot.showNewest()
        resolveAppearance()
        onEvent?(.chatOpened)
        let monitor = unreadMonitor
        let active = foreground.isActive
        Task {
            await monitor?.chatVisibilityChanged(visible: true)
            // Spec 7.2: the opening load of a used chat follows a device update.
            if active, await session.isActivated() {
                try? await session.client.updateDevice(probe: false, allowRegistration: false)
            }
            await session.engine.setVisible(true)
        }
    }

    /// Hides the chat: the stream stops, typing is reported as stopped, held automatic resends become manual.
    public func closeChat() {
        guard let (session, _) = configured("closeChat") else { return }
        guard isChatOpen else { return }
        isChatOpen = false
        let monitor = unreadMonitor
        Task {
            await session.engine.setVisible(false)
            // Spec 7.11: closing the chat refreshes the count.
            await monitor?.chatVisibilityChanged(visible: false)
        }
    }

    /// Tell ReceptionKit the app became active (when no lifecycle monitor is configured).
    public func appDidBecomeActive() {
        guard !foreground.isActive else { return }
        foreground.isActive = true
        guard let session else { return }
        let monitor = unreadMonitor
        Task {
            await session.engine.setAppState(.active)
            // The monitor sends the foreground device update before its unread GET (spec 7.2).
            await monitor?.appBecameActive()
        }
        // A preferences write that failed (a full disk) is tried again now (issue 15).
        if let appID { namespaces?.retryUnwrittenRotation(appID: appID) }
        drainRevocations()
        let refresher = appearanceRefresher
        Task { await refresher?.appBecameActive() }
    }

    /// Tell ReceptionKit the app went to the background (when no lifecycle monitor is configured).
    public func appDidEnterBackground() {
        guard foreground.isActive else { return }
        foreground.isActive = false
        // Spec 7.15: the revocation queue pauses in the background (after the request in flight).
        revocations?.setActive(false)
        let refresher = appearanceRefresher
        Task { await refresher?.appEnteredBackground() }
        guard let session else { return }
        let monitor = unreadMonitor
        Task {
            await session.engine.setAppState(.background)
            await monitor?.appEnteredBackground()
        }
    }
}
