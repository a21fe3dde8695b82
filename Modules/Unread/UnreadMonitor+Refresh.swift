import Foundation
import ReceptionCore

extension UnreadMonitor {
    /// Refreshes the unread state for `trigger` (spec 3.10, 7.11). A refresh already running coalesces later
    /// triggers into one more refresh after it. Nothing happens for an unused session.
    @_optimize(size) public func refresh(_ trigger: UnreadTrigger) {
        guard session != nil else { return }
        if refreshTask != nil {
            // The foreground trigger carries the device update and the blocked probe, so it wins a merge.
            if queuedTrigger?.isActivation != true { queuedTrigger = trigger }
            return
        }
        let epoch = self.epoch
        refreshTask = Task { await self.runRefreshes(first: trigger, epoch: epoch) }
    }

    @_optimize(size) private func runRefreshes(first: UnreadTrigger, epoch: Int) async {
        var next: UnreadTrigger? = first
        while let trigger = next, epoch == self.epoch {
            await performRefresh(trigger, epoch: epoch)
            next = queuedTrigger
            queuedTrigger = nil
        }
        if epoch == self.epoch { refreshTask = nil }
    }

    @_optimize(size) private func performRefresh(_ trigger: UnreadTrigger, epoch: Int) async {
        guard let session, await isUsed(session), epoch == self.epoch else {
            deps.logger.write(.debug, "unread: \(trigger.rawValue) skipped, session unused")
            return
        }
        var probe = false
        switch await session.service.halt {
        case .appUnavailable?:
            // Spec 6.4: an app-unavailable halt sends nothing on its own.
            return
        case .blocked?:
            // Spec 6.4: only the foreground check of a blocked session goes through, as a probe, without update.
            guard trigger.isActivation else { return }
            probe = true
        case nil:
            if trigger.isActivation { await updateDevice(session, epoch: epoch) }
        }
        guard epoch == self.epoch else { return }
        let generation = readGeneration
        let response: UnreadResponse
        do {
            response = try await session.service.unread(probe: probe)
        } catch {
            guard epoch == self.epoch else { return }
            recordFailure(error, trigger: trigger, epoch: epoch)
            return
        }
        guard epoch == self.epoch else { return }
        budget.recordSuccess()
        snapshot = UnreadSnapshot(response)
        await session.saveSnapshot(snapshot)
        guard epoch == self.epoch else { return }
        if chatVisible {
            deps.logger.write(.debug, "unread: answer not applied, chat visible")
        } else if generation != readGeneration {
            deps.logger.write(.debug, "unread: answer not applied, a read or send happened meanwhile")
        } else {
            await apply(response.unreadCount)
        }
        await armPoll(epoch: epoch)
    }

    /// Spec 7.2: the activation's `PATCH devices/me` before the unread GET; it also carries a changed
    /// `updatesAppBadge`, so a failure leaves the preference loop to retry.
    @_optimize(size) private func updateDevice(_ session: UnreadSession, epoch: Int) async {
        do {
            try await session.service.updateDevice(probe: false, allowRegistration: false)
        } catch {
            deps.logger.write(.info, "unread: device update before refresh failed (\(error.code))")
            // The update carried every preference; only a failed one leaves the preference loop work to do.
            guard epoch == self.epoch else { return }
            startPreferenceSync()
        }
    }

    /// Spec 6.2: count the failure on the unread budget and schedule the retry while the app stays active.
    @_optimize(size) private func recordFailure(_ error: ReceptionError, trigger: UnreadTrigger, epoch: Int) {
        switch error.code {
        case ReceptionError.Code.cancelled, ReceptionError.Code.chatNotStarted, ReceptionError.Code.sessionHalted:
            deps.logger.write(.debug, "unread: \(trigger.rawValue) ended with \(error.code)")
            return
        default:
            break
        }
        budget.recordFailure(error, random: deps.random)
        // A failed refresh arms no periodic check: the retry (or the next trigger) re-arms it.
        cancelTimers()
        guard appActive, !budget.isStopped, let delay = budget.nextDelay else {
            deps.logger.write(.info, "unread: \(error.code); retries paused until the app becomes active")
            return
        }
        deps.logger.write(.info, "unread: \(error.code); retry scheduled")
        retryTask = timer(after: delay, epoch: epoch, trigger: .retry)
    }

    /// Spec 7.11: arms the periodic check after a refresh when the schedule says so.
    @_optimize(size) func armPoll(epoch: Int) async {
        guard let session else { return }
        let permission = await deps.permission.authorization()
        let newest = await session.newestCachedMessageAt()
        let halted = await session.service.halt != nil
        guard epoch == self.epoch else { return }
        let decision = UnreadSchedule.decide(UnreadSchedule.Inputs(
            appActive: appActive, chatVisible: chatVisible, halted: halted, budgetStopped: budget.isStopped,
            snapshot: snapshot, permission: permission, newestCachedMessageAt: newest, now: deps.clock.now))
        lastDecision = decision
        cancelTimers()
        guard case .poll(let delay) = decision else {
            deps.logger.write(.debug, "unread: no periodic check (\(decision))")
            return
        }
        pollTask = timer(after: delay, epoch: epoch, trigger: .poll)
    }

    /// The retry or the periodic check, `trigger`, after `delay`, unless re-armed or cancelled meanwhile: one task
    /// closure for both (Docs/Footprint.md, "A task closure per call site").
    @inline(never) @_optimize(size)
    private func timer(after delay: Duration, epoch: Int, trigger: UnreadTrigger) -> Task<Void, Never> {
        let token = timerToken
        let clock = deps.clock
        return Task {
            do { try await clock.sleep(for: delay) } catch { return }
            self.timerFired(token: token, epoch: epoch, trigger: trigger)
        }
    }

    @_optimize(size) private func timerFired(token: Int, epoch: Int, trigger: UnreadTrigger) {
        guard token == timerToken, epoch == self.epoch else { return }
        pollTask = nil
        retryTask = nil
        refresh(trigger)
    }
}
