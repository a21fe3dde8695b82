import ReceptionCore

extension UnreadMonitor {
    /// Spec 7.6: sends `PATCH devices/me` until the service has the current `updatesAppBadge` — only for a used,
    /// registered, unhalted session while the app is active — with its own retry budget. Choosing the setting never
    /// registers a device (seed 004).
    @_optimize(size) func startPreferenceSync() {
        guard preferenceTask == nil, session != nil, appActive else { return }
        let epoch = self.epoch
        preferenceTask = Task { await self.runPreferenceSync(epoch: epoch) }
    }

    @_optimize(size) private func runPreferenceSync(epoch: Int) async {
        while epoch == self.epoch, appActive, !preferenceBudget.isStopped, !Task.isCancelled, let session {
            guard await isUsed(session), await session.service.halt == nil, epoch == self.epoch else { break }
            let wanted = updatesAppBadge
            if await session.synchronisedUpdatesAppBadge() == wanted { break }
            do {
                try await session.service.updateDevice(probe: false, allowRegistration: false)
                preferenceBudget.recordSuccess()
                // The update carried `wanted`; go on only when the host changed the value meanwhile.
                if updatesAppBadge == wanted { break }
            } catch {
                guard epoch == self.epoch else { break }
                preferenceBudget.recordFailure(error, random: deps.random)
                guard !preferenceBudget.isStopped, let delay = preferenceBudget.nextDelay else {
                    deps.logger.write(.info, "preference sync: \(error.code); paused until the app becomes active")
                    break
                }
                do { try await deps.clock.sleep(for: delay) } catch { break }
            }
        }
        if epoch == self.epoch, !Task.isCancelled { preferenceTask = nil }
    }
}
