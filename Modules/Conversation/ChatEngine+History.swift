import Foundation
import ReceptionCore

extension ChatEngine {
    // MARK: - Opening load (spec 7.2, 3.6, 7.10)

    @inline(never) @_optimize(size) func startOpeningLoad() {
        guard session.hasStartedChat, permission.halt == nil, history.canLoad, !isShutDown else {
            if session.hasStartedChat { seedRecovery() }
            // Nothing to load (an unused chat, a halted session), or a load already runs and ends the opening.
            if !history.isLoading { isOpening = false }
            return
        }
        history.loadStarted(spawn(.openingLoad))
    }

    @inline(never) @_optimize(size) func openingLoad() async {
        defer { history.loadEnded() }
        var registered = false
        do throws(ReceptionError) { registered = try await service.isRegistered() } catch {
            logger.write(.error, "registration state unavailable (\(error.code))")
        }
        guard registered else {
            // The very first submission failed offline: no history request, but recovery is seeded and the
            // recovered submission may register.
            seedRecovery()
            kickDriver()
            openingEnded()
            return
        }
        do throws(ReceptionError) {
            let epoch = permission.epoch
            try await service.updateDevice(probe: false, allowRegistration: false)
            deviceUpdated(startedAt: epoch)
        } catch {
            logger.write(.info, "device update before load failed (\(error.code))")
            if error.code == ReceptionError.Code.chatReset, let revision = error.resetRevision {
                chatReset(revision: revision)
                openingEnded()
                return
            }
        }
        await loadHistory(opening: true)
    }

    /// The opening brought its history (or has none to bring): rows that appear from now on arrive while the chat
    /// is open (`ChatSnapshot.isOpening`). Published after the loaded rows, so they are never taken for arrivals.
    /// A failed load that will be tried again keeps the opening on, so its retry's rows are history too.
    @inline(never) @_optimize(size) func openingEnded() {
        guard isOpening else { return }
        isOpening = false
        publish()
    }

    /// `GET conversation` and its processing order (spec 3.6). A response that returns after the read generation
    /// moved is discarded and replaced by one coalesced reload.
    @inline(never) @_optimize(size) func loadHistory(opening: Bool) async {
        guard watched, !isShutDown else { return }
        let recheck = opening ? limitRecheckScopes() : []
        // Beside `recheck`, position by position (a list: a dictionary of scopes compiled its own table code).
        let changeCounts = recheck.map { deps.cooldowns.changeCount(of: $0) }
        let generation = reads.generation
        let epoch = permission.epoch
        let response: HistoryResponse
        do throws(ReceptionError) {
            response = try await service.history(limits: !recheck.isEmpty)
        } catch {
            guard !isShutDown, error.code != ReceptionError.Code.cancelled else { return }
            logger.write(.info, "history load failed (\(error.code))")
            if error.code == ReceptionError.Code.chatReset, let revision = error.resetRevision {
                chatReset(revision: revision)
                if opening { openingEnded() }
                return
            }
            history.loadFailed(error, random: deps.random)
            permission.observeAfterFailure(halt: await service.halt)
            // A failed or held history GET still seeds recovery (spec 7.8.7).
            if opening { seedRecovery(); releaseLimits() }
            kickDriver()
            updateBanner()
            publish()
            scheduleLoadRetry(error)
            // No retry to come (the budget is spent): the opening is over without its history.
            if opening, history.retryDelay(after: error) == nil { openingEnded() }
            return
        }
        guard !isShutDown, watched else { return }
        history.loadSucceeded()
        if generation != reads.generation {
            if history.reloadNeeded() {
                await loadHistory(opening: opening)
                history.reloadDone()
            }
            return
        }
        applyHistory(response, epoch: epoch)
        if !recheck.isEmpty, let limits = response.limits {
            for (index, scope) in recheck.enumerated() {
                guard deps.cooldowns.changeCount(of: scope) == changeCounts[index],
                      let seconds = limits.seconds(for: scope) else { continue }
                deps.cooldowns.applyRecheck(scope: scope, seconds: seconds, now: clock.now)
            }
        }
        if opening {
            seedRecovery()
            releaseLimits()
        }
        kickDriver()
        startStreamIfPossible()
        updateBanner()
        publish()
        if opening { openingEnded() }
        await markRead(messagesSeqs: response.messages.map(\.seq), conversationID: response.conversation?.id)
    }

    @inline(never) @_optimize(size) private func scheduleLoadRetry(_ error: ReceptionError) {
        guard let delay = history.retryDelay(after: error) else { return }
        Task { [weak self, clock = deps.clock] in
            guard (try? await clock.sleep(for: delay)) != nil else { return }
            await self?.startOpeningLoadIfWatched()
        }
    }

    @_optimize(size) private func startOpeningLoadIfWatched() { if watched { startOpeningLoad() } }

    @inline(never) @_optimize(size) func applyHistory(_ response: HistoryResponse, epoch: Int) {
        let exists = response.conversation != nil
        if exists != hasConversation || session.unread.hasConversation != exists {
            persistSession { $0.unread.hasConversation = exists }
        }
        transcript.conversation(exists: exists, id: response.conversation?.id)
        permission.apply(response.device, startedAt: epoch)
        reads.setBounded(response.boundedRead ?? false)
        // Drop every cached confirmed message whose seq is not in this window, in memory and in the store.
        let window = Set(response.messages.map(\.seq))
        if transcript.keepOnly(window) {
            storing("drop messages outside the window") { try $0.removeConfirmed(notIn: window) }
        }
        applyTeam(response.team, replacing: true)
        merge(response.messages, advanceCursor: true)
        if !exists { persistSession { $0.cursor = 0 } }
    }

    // MARK: - Polling (spec 7.10, 3.7)

    /// Fetches newer messages; coalesced while one runs, deferred while a `requests` wait is active.
    @inline(never) @_optimize(size) func poll() {
        guard watched, permission.halt == nil, !history.isLoading, !isShutDown else { return }
        if let wait = deps.cooldowns.wait(for: [.requests], now: clock.now) {
            history.deferPoll(for: .seconds(wait.remainingSeconds)) { [weak self] in await self?.deferredPollFired() }
            return
        }
        guard history.pollRequested() else { return }
        history.pollStarted(spawn(.poll))
    }

    @_optimize(size) private func deferredPollFired() {
        history.deferredPollFired()
        poll()
    }

    @inline(never) @_optimize(size) func runPoll() async {
        repeat {
            history.pollRoundStarted()
            await pollOnce()
        } while history.pollAgain && watched && !isShutDown
        history.pollEnded()
    }

    @inline(never) @_optimize(size) private func pollOnce() async {
        let generation = reads.generation
        let epoch = permission.epoch
        let pages: [MessagesPage]
        do throws(ReceptionError) {
            pages = try await service.messages(after: session.cursor ?? 0)
        } catch {
            guard !isShutDown, error.code != ReceptionError.Code.cancelled else { return }
            logger.write(.info, "poll failed (\(error.code))")
            if error.code == ReceptionError.Code.chatReset, let revision = error.resetRevision {
                chatReset(revision: revision)
            }
            updateBanner()
            publish()
            return
        }
        guard !isShutDown, watched else { return }
        if generation != reads.generation {
            history.pollStale()
            return
        }
        var seqs: [Int64] = []
        var conversation: String?
        var exists = true
        for page in pages {
            permission.apply(page.device, startedAt: epoch)
            if let bounded = page.boundedRead { reads.setBounded(bounded) }
            applyTeam(page.team, replacing: false)
            merge(page.messages, advanceCursor: true)
            seqs += page.messages.map(\.seq)
            if let compact = page.conversation { conversation = compact.id ?? conversationID } else { exists = false }
        }
        if !exists {
            // Spec 3.7: without a conversation the cursor resets and nothing is read.
            persistSession { $0.cursor = 0 }
            publish()
            return
        }
        if !hasConversation { persistSession { $0.unread.hasConversation = true } }
        transcript.conversation(exists: true, id: conversation ?? conversationID)
        publish()
        await markRead(messagesSeqs: seqs, conversationID: conversationID)
    }

    // MARK: - Merge (spec 7.10)

    /// Merges service messages: an existing message with the same `seq`, or whose local ID or client ID equals
    /// the incoming client ID, is replaced in place keeping its local ID (and its local photos and saved IDs
    /// unless confirmed with attachments); otherwise the message is appended. Malformed messages are dropped with
    /// a log line. GET results advance the cursor to the highest `seq`; send confirmations do not.
    @inline(never) @_optimize(size) func merge(_ incoming: [Message], advanceCursor: Bool) {
        let merge = transcript.merge(incoming)
        for _ in 0..<merge.malformed { logger.write(.info, "dropped a malformed message from the service") }
        for message in merge.completed {
            storing("complete message") { try $0.complete(message.id, with: message) }
            outbox.confirmedByMerge(message.id)
        }
        keepUploadedPhotos(merge.uploadedPhotos)
        if merge.agentReplied { hideAgentTyping() }
        if !merge.changed.isEmpty { storing("save window") { try $0.save(merge.changed) } }
        if advanceCursor, merge.highestSeq > (session.cursor ?? 0) { persistSession { $0.cursor = merge.highestSeq } }
    }

    // MARK: - Reads (spec 7.11, 3.9)

    /// Reports loaded messages as read while the chat is watched (spec 3.9: never for a send confirmation, and
    /// never for a cache shown without a GET). Bounded when the last GET said so, else legacy.
    @inline(never) @_optimize(size) func markRead(messagesSeqs seqs: [Int64], conversationID: String?) async {
        guard watched, hasConversation, !isShutDown else { return }
        if reads.bounded {
            await boundedMarkRead(seqs, conversationID: conversationID)
        } else {
            await legacyMarkRead()
        }
    }

    /// Spec 3.9 bounded: `throughSeq` = max(previous for this conversation, highest seq of the GET).
    @inline(never) @_optimize(size) private func boundedMarkRead(_ seqs: [Int64], conversationID: String?) async {
        guard let conversationID, !conversationID.isEmpty,
              seqs.allSatisfy({ (1...Limits.maximumSafeSequence).contains($0) }) else {
            logger.write(.info, "read skipped: invalid history for a bounded read")
            return
        }
        guard let through = reads.boundedTarget(conversationID: conversationID, seqs: seqs) else { return }
        // Spec 7.11: a read moves the generation when it starts and when it finishes.
        reads.move()
        let started = reads.generation
        defer { reads.move() }
        do throws(ReceptionError) {
            let answer = try await service.markRead(conversationId: conversationID, throughSeq: through)
            guard answer.conversationId == conversationID, answer.readSeq >= through,
                  answer.readSeq <= Limits.maximumSafeSequence, answer.unreadCount >= 0 else {
                logger.write(.info, "read answer rejected (invalid_response)")
                return
            }
            // A read response updates the count only if no other read or send happened meanwhile.
            if !isShutDown, reads.accept(unreadCount: answer.unreadCount, startedAt: started) { publish() }
        } catch {
            logger.write(.info, "read failed (\(error.code))")
        }
    }

    /// Spec 3.9 legacy: `POST conversation/read` without a body, then `GET conversation/unread` for the count.
    @inline(never) @_optimize(size) private func legacyMarkRead() async {
        reads.move()
        do throws(ReceptionError) {
            try await service.markReadLegacy()
        } catch {
            reads.move()
            logger.write(.info, "legacy read failed (\(error.code))")
            return
        }
        reads.move()
        guard watched, !isShutDown else { return }
        // Spec 7.11: an unread response that returns after the generation moved does not change the count.
        let generation = reads.generation
        do throws(ReceptionError) {
            let answer = try await service.unread(probe: false)
            if !isShutDown, answer.unreadCount >= 0, reads.accept(unreadCount: answer.unreadCount, startedAt: generation) {
                publish()
            }
        } catch {
            logger.write(.info, "unread after a legacy read failed (\(error.code))")
        }
    }
}
