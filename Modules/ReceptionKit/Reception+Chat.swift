import Conversation
import Foundation
import ReceptionCore

extension Reception {
    /// Shows the chat: on iOS it presents the SDK sheet (a `ReceptionChatView` in a `UIHostingController`, with a
    /// close control) over the top-most view controller of the window scene the person is using, once a window
    /// can show it; while it is open it loads history, streams live updates and reports reads while the app is
    /// active (spec 7.2). Emits `.chatOpened`. A call while the chat shows (the sheet, or a `ReceptionChatView` the
    /// host embeds) does nothing, except on an iPad whose sheet is in another window: the sheet moves to the
    /// window the person now uses.
    ///
    /// Safe in the same action as a dismissal: a "Contact support" row in your own sheet may call `dismiss()` and
    /// then `openChat()`; the top-most controller is looked for once that dismissal has started, and the sheet is
    /// presented when it ends.
    @inline(never) @_optimize(size) public func openChat() {
        whenConfigured("openChat") { [weak self] _, _ in
            guard let self else { return }
            let presenter = self.sheetPresenter
            let step = self.presence.openRequested(
                hasPresenter: presenter != nil, sheetShows: presenter?.showsSheet ?? false,
                sheetInRequestingScene: presenter?.sheetIsInRequestingScene ?? true)
            switch step {
            case .none:
                break
            case .move:
                presenter?.dismissChat()
                self.scheduleSheetRequest()
            case .ask:
                self.scheduleSheetRequest()
            }
            self.chatPresenceChanged()
        }
    }

    /// Asks for the sheet once the transitions of this run-loop turn have started (a SwiftUI `dismiss()` in the
    /// same action), unless the request was withdrawn meanwhile.
    @inline(never) @_optimize(size) private func scheduleSheetRequest() {
        sheetPresenter?.afterPendingTransitionsStart { [weak self] in self?.scheduledSheetRequestDue() }
    }

    /// The transitions started: the sheet is asked for unless the request was withdrawn. Never inlined: the
    /// presenter's closure calls it, and closures are compiled at -O (Docs/Footprint.md).
    @inline(never) @_optimize(size) private func scheduledSheetRequestDue() {
        if presence.scheduledAskDue() { askForSheet() }
        chatPresenceChanged()
    }

    /// Hides the chat: dismisses the SDK sheet; the stream stops, typing is reported as stopped, held automatic
    /// resends become manual, and the unread count is refreshed. A `ReceptionChatView` the host embeds stays the
    /// host's to dismiss, and the chat stays open while it is on screen.
    @inline(never) @_optimize(size) public func closeChat() {
        whenConfigured("closeChat") { [weak self] _, _ in
            self?.dismissSheet()
            self?.chatPresenceChanged()
        }
    }

    // MARK: The SDK sheet and embedded screens

    /// Asks the presenter for the sheet. The chat counts as open only once the presenter says the sheet is on
    /// screen; without a window it asks again when a scene becomes active, and a refusal (UIKit busy with another
    /// presentation or dismissal) asks again when that transition ends, up to `ChatPresence.maximumRefusals`.
    @inline(never) @_optimize(size) func askForSheet() {
        guard let presenter = sheetPresenter else { return }
        presenter.presentChat(
            answer: { [weak self] answer in self?.sheetAnswered(answer) },
            dismissedByPerson: { [weak self] in self?.sheetDismissedByPerson() },
            sceneChanged: { [weak self] scene in self?.sheetSceneChanged(scene) })
    }

    /// The sheet's window went to the background or came back, or another window became the one in use. Never
    /// inlined: the presenter's closure calls it, and closures are compiled at -O (Docs/Footprint.md).
    @inline(never) @_optimize(size) private func sheetSceneChanged(_ scene: ChatSheetScene) {
        presence.sheetSceneChanged(scene)
        chatPresenceChanged()
    }

    /// The presenter's answer to `askForSheet()`.
    @inline(never) @_optimize(size) func sheetAnswered(_ answer: ChatSheetAnswer) {
        guard let presenter = sheetPresenter else { return }
        switch presence.answered(answer) {
        case .none:
            break
        case .dismiss:
            presenter.dismissChat()
        case .waitForWindow:
            presenter.waitForWindow { [weak self] in self?.retrySheet(timedOut: false) }
        case .waitForTransition:
            presenter.waitForTransition { [weak self] end in self?.retrySheet(timedOut: end == .timedOut) }
        case .givenUp:
            logSheetGivenUp()
        }
        chatPresenceChanged()
    }

    /// A window became available, or the wait for the transition that refused the sheet ended or timed out.
    /// Never inlined: the presenter's closures call it, and closures are compiled at -O (Docs/Footprint.md).
    @inline(never) @_optimize(size) private func retrySheet(timedOut: Bool) {
        switch presence.retryAvailable(timedOut: timedOut) {
        case .none: break
        case .ask: askForSheet()
        case .givenUp:
            logSheetGivenUp()
            chatPresenceChanged()
        }
    }

    @inline(never) @_optimize(size) private func logSheetGivenUp() {
        logger("Chat").write(.error, "the chat sheet was not presented: another presentation stayed in progress")
    }

    /// Ends an `openChat()`: the sheet goes if it shows (seed 000: closeChat, logout, deletion, a token for another
    /// user).
    @inline(never) @_optimize(size) func dismissSheet() {
        if presence.closeRequested() { sheetPresenter?.dismissChat() }
    }

    /// The sheet went without `closeChat()` (a swipe-down, or the host dismissing what it was over): as `closeChat()`.
    // Never inlined: the presenter's closure calls it, and closures are compiled at -O (Docs/Footprint.md).
    @inline(never) @_optimize(size) func sheetDismissedByPerson() {
        presence.sheetDismissedByPerson()
        chatPresenceChanged()
    }

    /// Acts on a change of whether the chat is on screen: opening starts the opening load and live updates,
    /// closing pauses them and refreshes the count.
    @inline(never) @_optimize(size) func chatPresenceChanged() {
        // The host's screens held while the sheet was on its way go once it has settled.
        for screen in hostScreens.sheetSettled(presence.sheet) { askForHostScreen(screen) }
        let open = presence.isOpen
        guard open != isChatOpen, let session else { return }
        isChatOpen = open
        let monitor = unreadMonitor
        let change = visibility.changed()
        guard open else {
            // Spec 7.11: closing the chat refreshes the count.
            visibility.enqueue(.chatClosed(session.engine, monitor))
            return
        }
        // Spec 7.20: a newly published appearance becomes visible at a chat opening.
        appearanceSlot.showNewest()
        resolveAppearance()
        onEvent?(.chatOpened)
        let active = foreground.isActive
        visibility.enqueue(.countChatOpened(monitor))
        Task { [weak self] in
            // Spec 7.2: the opening load of a used chat follows a device update.
            if active, await session.isActivated() {
                try? await session.client.updateDevice(probe: false, allowRegistration: false)
            }
            // A close (or a newer opening) came during the update: this opening is stale.
            self?.visibility.openingReady(change, .chatShown(session.engine))
        }
    }

    /// Tell ReceptionKit the app became active (when no lifecycle monitor is configured).
    // Never inlined: the monitor task calls it from a closure, and closures are compiled at -O (Docs/Footprint.md).
    @inline(never) @_optimize(size) public func appDidBecomeActive() {
        guard !foreground.isActive else { return }
        foreground.isActive = true
        guard let session else { return }
        // The monitor sends the foreground device update before its unread GET (spec 7.2).
        Self.post(.appState(active: true, session.engine, unreadMonitor))
        // A preferences write that failed (a full disk) is tried again now (issue 15).
        if let appID { namespaces?.retryUnwrittenRotation(appID: appID) }
        drainRevocations()
        let refresher = appearanceRefresher
        refresher?.post(.appBecameActive)
    }

    /// Tell ReceptionKit the app went to the background (when no lifecycle monitor is configured).
    // Never inlined: the monitor task calls it from a closure, and closures are compiled at -O (Docs/Footprint.md).
    @inline(never) @_optimize(size) public func appDidEnterBackground() {
        guard foreground.isActive else { return }
        foreground.isActive = false
        // Spec 7.15: the revocation queue pauses in the background (after the request in flight).
        revocations?.setActive(false)
        let refresher = appearanceRefresher
        refresher?.post(.appEnteredBackground)
        guard let session else { return }
        Self.post(.appState(active: false, session.engine, unreadMonitor))
    }
}

extension Reception {
    /// Refusals in a row after which an `openChat()` stops asking for the sheet (`ChatPresence.maximumRefusals`).
    static let maximumSheetRefusals = ChatPresence.maximumRefusals
}
