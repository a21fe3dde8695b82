import Foundation
import ReceptionCore

extension ChatEngine {
    /// Starts one attempt for `id` unless one is already in flight (a message is never posted twice concurrently).
    @inline(never) @_optimize(size) func submit(_ id: String, userInitiated: Bool) {
        guard !isShutDown, !outbox.isInFlight(id), let index = index(of: id), !messages[index].isConfirmed
        else { return }
        // The stored row goes back to *sending*, so a crash during this attempt is rescued at the next launch.
        transcript.setDelivery([], of: id)
        storing("mark sending") { try $0.setDelivery([], of: id) }
        outbox.attemptStarted(id, spawn(.deliver(id, userInitiated: userInitiated))) {
            [weak self] in await self?.showPendingIndicator(id)
        }
        publish()
    }

    @inline(never) @_optimize(size) func showPendingIndicator(_ id: String) {
        if outbox.showPending(id) { publish() }
    }

    @_optimize(size) func setProgress(_ id: String, _ value: Double) {
        if outbox.setProgress(id, value) { publish() }
    }

    /// Spec 7.8.2: the delivery steps of one message.
    @inline(never) @_optimize(size) func deliver(_ id: String, userInitiated: Bool) async {
        do throws(ReceptionError) {
            try await deliverSteps(id, userInitiated: userInitiated)
        } catch {
            await failed(id, error)
        }
        finishAttempt(id)
    }

    @inline(never) @_optimize(size) private func current(_ id: String) throws(ReceptionError) -> StoredMessage {
        guard !isShutDown, !Task.isCancelled else { throw .cancelled }
        guard let index = index(of: id) else { throw .cancelled }
        return messages[index]
    }

    @inline(never)
    @_optimize(size) private func deliverSteps(_ id: String, userInitiated: Bool) async throws(ReceptionError) {
        var message = try current(id)
        // Step 1: the cached photo set must be complete.
        guard message.images.count == message.expectedImageCount else { throw .invalidImage }
        // Step 2: admission of the whole send, so a held send spends no request or upload budget.
        if let wait = blockingWait(for: message) { throw wait.error }
        // Steps 3–4: device update (registers on the first send). In a halted session of a registered device the
        // send itself is the probe.
        permission.observe(halt: await service.halt)
        let registered = (try? await service.isRegistered()) ?? false
        if !(permission.halt != nil && registered) {
            let epoch = permission.epoch
            try await service.updateDevice(probe: userInitiated, allowRegistration: userInitiated || watched)
            deviceUpdated(startedAt: epoch)
        }
        // Step 5: photos without a saved attachment ID, in order; each ID is persisted as it arrives.
        message = try current(id)
        let count = message.images.count
        var uploaded = message.attachmentIds.count
        while uploaded < count {
            if let wait = deps.cooldowns.wait(for: [.uploads, .requests], now: clock.now) { throw wait.error }
            let jpeg = message.images[uploaded]
            guard let size = JPEGSize(jpeg) else { throw .invalidImage }
            setProgress(id, Double(uploaded) / Double(count))
            let reservation = try await service.reserveUpload(
                jpeg: jpeg, width: size.width, height: size.height, clientId: id, index: uploaded, probe: userInitiated)
            let base = uploaded
            try await service.upload(jpeg: jpeg, to: reservation) { [weak self] fraction in
                Task { await self?.setProgress(id, (Double(base) + fraction) / Double(count)) }
            }
            message = try current(id)
            storing("save attachment ID") { try $0.appendAttachmentID(reservation.attachmentId, to: id) }
            transcript.appendAttachmentID(reservation.attachmentId, to: id)
            uploaded += 1
            setProgress(id, Double(uploaded) / Double(count))
            message = try current(id)
        }
        // Step 6: permission re-check. A block learnt meanwhile stops the post. Spec 7.7 would put the message back
        // into the composer; seed 001 wins ("A send rejected as blocked stays Not delivered with its text and
        // photos", issue 52): it fails as blocked, in the transcript with its text and photos, for Retry.
        if permission.sendingDisabled && permission.halt == nil {
            throw ReceptionError(code: .blocked)
        }
        // Step 7: the message POST with the client ID.
        let response = try await service.send(
            clientId: id, text: message.text, attachmentIds: message.attachmentIds, probe: userInitiated,
            allowRegistration: userInitiated || watched)
        _ = try current(id)
        confirmed(id, response)
    }

    /// Spec 3.8: on success the read generation moves, the conversation exists, the server copy is merged without
    /// advancing the cursor, a verification requirement is cleared, and `messageSent` (+`imageSent`) is emitted.
    @inline(never) @_optimize(size) func confirmed(_ id: String, _ response: SendMessageResponse) {
        reads.move()
        hadPhotosEvent(id)
        if !hasConversation { persistSession { $0.unread.hasConversation = true } }
        transcript.conversation(exists: true, id: response.conversation.id)
        permission.sendSucceeded()
        var incoming = response.message
        if incoming.clientId == nil { incoming.clientId = id }
        outbox.succeeded(id)
        merge([incoming], advanceCursor: false)
        outbox.leaveBatch([id])
        updateBanner()
        if !stream.isRunning { startStreamIfPossible() }
    }

    @_optimize(size) private func hadPhotosEvent(_ id: String) {
        emit(.messageSent)
        if let index = index(of: id), messages[index].expectedImageCount > 0 { emit(.imageSent) }
    }

    /// Spec 7.8.4: failure bookkeeping, plus the reactions of spec 3.8's error table.
    @inline(never) @_optimize(size) func failed(_ id: String, _ error: ReceptionError) async {
        guard !isShutDown, error.code != ReceptionError.Code.cancelled else { return }
        logger.write(.info, "send failed (\(error.code), status \(error.status))")
        switch error.code {
        case ReceptionError.Code.invalidAttachment, ReceptionError.Code.uploadIncomplete:
            storing("forget attachment IDs") { try $0.clearAttachmentIDs(of: id) }
            transcript.clearAttachmentIDs(of: id)
        case ReceptionError.Code.blocked:
            permission.sendBlocked()
        case ReceptionError.Code.verificationRequired:
            permission.sendNeedsVerification()
        case ReceptionError.Code.chatReset:
            if let revision = error.resetRevision { chatReset(revision: revision); return }
        default: break
        }
        permission.observeAfterFailure(halt: await service.halt)
        guard let index = index(of: id), !messages[index].isConfirmed else { return }
        var flags: DeliveryFlags = [.failed]
        if error.isTransient, error.code != ReceptionError.Code.cooldown, error.status != 429, error.retryScope == nil {
            flags.insert(.retryAfterTransientFailure)
        }
        let wait = blockingWait(for: messages[index])
        outbox.hold(id, by: wait?.scope)
        if let wait {
            if error.status > 0, error.retryScope != nil, error.retryAfter != nil,
               wait.scope == .messages || wait.scope == .uploads {
                flags.insert(.retryAfterLimitRelease)
            }
            if !(wait.automatic && watched) { flags.insert(.awaitsManualRetry) }
        }
        if permission.halt == nil {
            outbox.failed(id, error, random: deps.random)
        }
        if outbox[id]?.budget?.isStopped == true, outbox.inBatch(id) { flags.insert(.awaitsManualRetry) }
        transcript.setDelivery(flags, of: id)
        storing("save failure") { try $0.setDelivery(flags, of: id) }
        if outbox.inBatch(id) { stopReleaseBatch() }
        updateBanner()
    }

    @inline(never) @_optimize(size) func finishAttempt(_ id: String) {
        outbox.attemptFinished(id)
        guard !isShutDown else { return }
        startTicker()
        kickDriver()
        publish()
    }
}
