import Foundation
import ReceptionCore

extension ChatEngine {
    // MARK: - The automatic resend driver (spec 7.8.5)

    /// Whether `message` may be resent automatically now.
    @inline(never) @_optimize(size) func isEligible(_ message: StoredMessage) -> Bool {
        guard !message.isConfirmed, message.delivery.contains(.failed),
              !message.delivery.contains(.awaitsManualRetry), let state = outbox[message.id], !state.inFlight,
              let budget = state.budget, !budget.isStopped else { return false }
        return true
    }

    /// The driver may run at all: never while sending is disabled, verification is required, the session is
    /// halted, or the chat is not watched.
    @_optimize(size) var driverAllowed: Bool { watched && sendingPermitted && !isShutDown }

    /// Starts the driver, or wakes it to re-evaluate when it is already waiting.
    @_optimize(size) func kickDriver() {
        guard driverAllowed, !driver.isRunning else { wakeDriver(); return }
        driver.started(spawn(.driver))
    }

    @_optimize(size) func wakeDriver() { driver.wake() }

    @_optimize(size) private func waitForWake() async {
        await withCheckedContinuation { continuation in driver.park(continuation) }
    }

    @inline(never) @_optimize(size) private func sleepOrWake(_ duration: Duration) async {
        let sleeper = driver.sleep(for: duration)
        await sleeper.value
        driver.sleepEnded(sleeper)
    }

    /// Exactly one driver runs; it works on the first eligible message in list order and never overtakes an
    /// earlier message in flight.
    @inline(never) @_optimize(size) func runDriver() async {
        while !Task.isCancelled, driverAllowed,
              let position = messages.firstIndex(where: isEligible) {
            let message = messages[position]
            let id = message.id
            if messages[..<position].contains(where: { outbox.isInFlight($0.id) }) {
                await waitForWake()
                continue
            }
            let wait = blockingWait(for: message)
            if let wait, !wait.automatic {
                // Step 1: only waits of at most 60 s are waited out automatically.
                markManual([id])
                continue
            }
            var delay = Duration.zero
            if let wait { delay = .milliseconds(Int64(wait.until.timeIntervalSince(clock.now) * 1000)) }
            if let next = outbox[id]?.nextAttemptAt { delay = max(delay, next - clock.uptime) }
            if delay > .zero {
                outbox.hold(id, by: wait?.scope)
                publish()
                await sleepOrWake(delay)
                continue
            }
            outbox.attemptDue(id)
            submit(id, userInitiated: false)
            await outbox.attempt(id)?.value
        }
        driver.finished()
        publish()
    }

    /// Marks messages as waiting for a tap on Retry, clearing their release and recovery flags.
    @inline(never) @_optimize(size) func markManual(_ ids: [String]) {
        for id in ids {
            guard let index = index(of: id), !messages[index].isConfirmed else { continue }
            var flags = messages[index].delivery
            flags.insert(.awaitsManualRetry)
            flags.subtract([.retryAfterLimitRelease, .retryAfterTransientFailure])
            transcript.setDelivery(flags, of: id)
            storing("mark manual") { try $0.setDelivery(flags, of: id) }
        }
        outbox.leaveBatch(ids)
        publish()
    }

    // MARK: - Manual retry and cancel (spec 7.8.6)

    /// Retry on a failed message: allowed when no wait blocks it and it is not already in flight (so it never
    /// duplicates an automatic resend); clears the manual and release flags, gives a fresh budget and sends as a
    /// user action (the probe of a halted session). Returns whether an attempt started.
    @discardableResult
    @inline(never) @_optimize(size) public func retry(_ id: String) -> Bool {
        guard !isShutDown, permission.halt != .appUnavailable, let index = index(of: id), !messages[index].isConfirmed,
              messages[index].delivery.contains(.failed), !outbox.isInFlight(id),
              blockingWait(for: messages[index]) == nil else { return false }
        transcript.setDelivery(messages[index].delivery.subtracting([.awaitsManualRetry, .retryAfterLimitRelease]), of: id)
        outbox.renewBudget(id, clearingHold: true)
        submit(id, userInitiated: true)
        return true
    }

    /// Cancel on an automatic countdown: this message and every later one held for an automatic resend (or
    /// flagged for limit release or transient recovery) become manual; a driver on an earlier message continues.
    @inline(never) @_optimize(size) public func cancelAutomaticResend(_ id: String) {
        guard let start = index(of: id) else { return }
        let ids = messages[start...].filter { message in
            guard !message.isConfirmed, message.delivery.contains(.failed), !outbox.isInFlight(message.id)
            else { return false }
            return message.id == id || outbox[message.id]?.heldBy != nil
                || message.delivery.contains(.retryAfterLimitRelease)
                || message.delivery.contains(.retryAfterTransientFailure)
        }.map(\.id)
        markManual(ids)
        wakeDriver()
    }

    /// Spec 7.8.6: closing the chat or backgrounding turns every held automatic resend into a manual one and ends
    /// any release batch.
    @inline(never) @_optimize(size) func deferHeldResendsToManual() {
        let held = messages.filter { message in
            !message.isConfirmed && message.delivery.contains(.failed)
                && !message.delivery.contains(.awaitsManualRetry)
                && (outbox[message.id]?.heldBy != nil || outbox.inBatch(message.id))
        }.map(\.id)
        if !held.isEmpty { markManual(held) }
        outbox.endBatch()
        wakeDriver()
    }

    /// Spec 7.8.8: the batch stops at its first new failure; the remaining members become manual.
    @_optimize(size) func stopReleaseBatch() {
        markManual(outbox.endBatch())
    }

    // MARK: - Recovery and limit release on an opening load (spec 7.8.7, 7.8.8)

    /// Seeds recovery: every failed message flagged for transient recovery, not manual, not held by a long wait and
    /// without a budget in this process gets a fresh one. A budget that exists is never renewed.
    @inline(never) @_optimize(size) func seedRecovery() {
        for message in messages where !message.isConfirmed && message.delivery.contains(.failed)
            && message.delivery.contains(.retryAfterTransientFailure)
            && !message.delivery.contains(.awaitsManualRetry) {
            if let wait = blockingWait(for: message), !wait.automatic { continue }
            outbox.seedBudget(message.id)
        }
    }

    /// Releases held messages whose limit is over into the release batch.
    @inline(never) @_optimize(size) func releaseLimits() {
        for message in messages where !message.isConfirmed && message.delivery.contains(.failed)
            && message.delivery.contains(.retryAfterLimitRelease) {
            guard blockingWait(for: message) == nil, let index = index(of: message.id) else { continue }
            var flags = messages[index].delivery
            flags.remove(.awaitsManualRetry)
            transcript.setDelivery(flags, of: message.id)
            storing("release limit") { try $0.setDelivery(flags, of: message.id) }
            outbox.renewBudget(message.id, clearingHold: false)
            outbox.joinBatch(message.id)
        }
    }

    /// Spec 6.3.6: whether an opening load should ask for `limits=1`, and for which scopes.
    @inline(never) @_optimize(size) func limitRecheckScopes() -> [RetryScope] {
        let now = clock.now
        let candidates = [RetryScope.messages, .uploads].filter { scope in
            guard let wait = deps.cooldowns.wait(for: [scope], now: now) else { return false }
            return !wait.automatic && wait.remainingSeconds > CooldownBook.automaticLimitSeconds
        }
        guard !candidates.isEmpty else { return [] }
        if let last = session.lastLimitCheck {
            if last > now {
                // Rule 3: a timestamp in the future (clock moved back) is reset and no check is made this time.
                persistSession { $0.lastLimitCheck = now }
                return []
            }
            if now.timeIntervalSince(last) < 60 { return [] }
        }
        persistSession { $0.lastLimitCheck = now }
        return candidates
    }
}
