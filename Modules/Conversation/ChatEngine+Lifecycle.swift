import Foundation
import ReceptionCore

extension ChatEngine {
    /// The chat screen appeared or disappeared (spec 7.2). Appearing while the app is active runs the opening load,
    /// recovery and the stream; disappearing stops the stream, sends typing=false, invalidates reads and turns held
    /// automatic resends into manual ones.
    @inline(never) @_optimize(size) public func setVisible(_ isVisible: Bool) {
        guard !isShutDown, started, isVisible != visible else { return }
        let wasWatched = watched
        visible = isVisible
        if isVisible {
            if watched { becameWatched() }
        } else {
            reads.chatClosed()
            if wasWatched { stoppedWatching() }
            hideAgentTyping()
            sendTypingFalseIfNeeded()
            status.chatClosed()
        }
        publish()
    }

    /// The app's lifecycle changed (spec 7.2): becoming active resets transient budgets and resumes a visible
    /// chat; leaving the foreground pauses streaming and automatic resends.
    // Never inlined: the monitor task calls it from a closure, and closures are compiled at -O (Docs/Footprint.md).
    @inline(never) @_optimize(size) public func setAppState(_ state: AppLifecycleState) {
        guard !isShutDown, started else { return }
        let active = state == .active
        guard active != appActive else { return }
        let wasWatched = watched
        appActive = active
        if active {
            outbox.appBecameActive()
            history.appBecameActive()
            stream.appBecameActive()
            if permission.halt == .blocked { _ = spawn(.probeBlocked) }
            if watched { becameWatched() }
        } else if wasWatched {
            stoppedWatching()
            sendTypingFalseIfNeeded()
        }
        publish()
    }

    /// The network path appeared or went away (spec 7.10, 7.18).
    // Never inlined: the monitor task calls it from a closure, and closures are compiled at -O (Docs/Footprint.md).
    @inline(never) @_optimize(size) public func setNetworkAvailable(_ available: Bool) {
        guard !isShutDown, available != pathAvailable else { return }
        pathAvailable = available
        if available {
            stream.pathReturned()
            if watched {
                if !stream.isRunning { startStreamIfPossible() } else { stream.cutBackoff() }
                kickDriver()
            }
        } else {
            stopStream()
        }
        updateBanner()
        publish()
    }

    @inline(never) @_optimize(size) func becameWatched() {
        seedOnWatched()
        isOpening = true
        startOpeningLoad()
        kickDriver()
        startTicker()
        updateBanner()
    }

    /// Messages still *sending* when the chat starts are resubmitted (spec 7.8.7, last rule).
    @inline(never) @_optimize(size) private func seedOnWatched() {
        for message in messages where !message.isConfirmed && !message.delivery.contains(.failed)
            && !outbox.isInFlight(message.id) && outbox.attempt(message.id) == nil {
            outbox.seedBudget(message.id)
            submit(message.id, userInitiated: false)
        }
    }

    @inline(never) @_optimize(size) func stoppedWatching() {
        stopStream()
        history.stop()
        deferHeldResendsToManual()
        updateBanner()
    }

    // MARK: - Hooks the facade wires to the transport's `SessionHooks`

    /// Spec 6.4: the session halted (`reason`) or resumed (`nil`).
    @inline(never) @_optimize(size) public func haltChanged(_ reason: HaltReason?) {
        guard !isShutDown else { return }
        permission.haltChanged(reason)
        if reason == nil {
            if watched { startStreamIfPossible(); kickDriver() }
        } else {
            stopStream()
            wakeDriver()
        }
        updateBanner()
        publish()
    }

    /// Spec 7.14.3: a new identity token was accepted locally; the sign-in notice clears.
    @_optimize(size) public func identityTokenStaged() {
        permission.identityTokenStaged()
        publish()
    }

    /// A device update that started at permission epoch `epoch` succeeded: a token staged before it was sent.
    @_optimize(size) func deviceUpdated(startedAt epoch: Int) { permission.deviceUpdated(startedAt: epoch) }

    /// Spec 7.12: the service reset the chat. Activity stops, the cache, draft, cursor and conversation facts are
    /// cleared (cooldowns kept), the revision adopted, and the chat starts empty; the next send starts support
    /// again.
    @inline(never) @_optimize(size) public func chatReset(revision: Int) {
        guard !isShutDown, revision >= 0, revision != appliedChatReset else { return }
        if session.chatRevision == revision, messages.isEmpty { return }
        appliedChatReset = revision
        outbox.reset()
        stopStream()
        history.stop()
        driver.stop()
        storing("reset chat") { try $0.resetChat(revision: revision) }
        clearTeam()
        links.clear()
        // Seed 000 "Reset support" deletes the device's images on the service; their copies here go too.
        photoKeeper.clear()
        session = session.afterChatReset(revision: revision)
        composer.chatReset()
        transcript.reset()
        reads.chatReset()
        hideAgentTyping()
        typing.chatReset()
        updateBanner()
        publish()
    }

    /// Spec 6.4: on foreground a session halted as *blocked* sends one probe; success re-enables sending.
    @inline(never) @_optimize(size) func probeBlocked() async {
        do throws(ReceptionError) {
            _ = try await service.unread(probe: true)
            haltChanged(nil)
        } catch {
            logger.write(.debug, "blocked probe failed (\(error.code))")
        }
    }
}
