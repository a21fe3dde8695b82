import Foundation
import ReceptionCore

extension ChatEngine {
    /// What a screen shows now. Its transcript is the one published last unless a message changed since, with the
    /// revision and the change that let `ChatModel` touch only the rows that changed (issue 53).
    @_optimize(size) public var snapshot: ChatSnapshot { snapshot(refreshingTranscript: true) }

    /// The snapshot; without `refreshingTranscript` it carries the transcript published last without building it
    /// again (a draft edit changes no message: typing costs the engine nothing per message either).
    @inline(never) @_optimize(size) func snapshot(refreshingTranscript: Bool) -> ChatSnapshot {
        if refreshingTranscript { published.update(messages.map(chatMessage)) }
        return ChatSnapshot(
            version: observers.version, messages: published.messages, composer: composerState, banner: status.banner,
            agentTyping: typing.agentTyping, unreadCount: reads.unreadCount, hasConversation: hasConversation, team: team.roster.profiles,
            teamVersion: team.version, isOpening: isOpening, transcriptRevision: published.revision,
            transcriptChange: published.change)
    }

    /// Spec 6.3.2: the scopes that gate a whole send of `message`.
    @_optimize(size) func gates(for message: StoredMessage) -> [RetryScope] {
        message.expectedImageCount > 0 || !message.images.isEmpty
            ? [.messages, .requests, .session, .uploads] : [.messages, .requests, .session]
    }

    /// The wait that holds `message` now, if any.
    @_optimize(size) func blockingWait(for message: StoredMessage) -> CooldownWait? {
        deps.cooldowns.wait(for: gates(for: message), now: clock.now)
    }

    /// Sending is allowed by the permission states (spec 7.7).
    @_optimize(size) var sendingPermitted: Bool { permission.permitted }

    /// Spec 6.3.5: held messages are going out again (an automatic wait or a release batch in progress).
    @inline(never) @_optimize(size) var resendingHeld: Bool {
        if !outbox.releaseBatch.isEmpty { return true }
        return messages.contains { message in
            guard !message.isConfirmed, message.delivery.contains(.failed),
                  !message.delivery.contains(.awaitsManualRetry), let state = outbox[message.id] else { return false }
            return state.heldBy != nil && watched
        }
    }

    /// Spec 6.3.5: the composer's wait: the latest-ending text-scope wait, else an uploads wait.
    @inline(never) @_optimize(size) var cooldownNotice: CooldownNotice? {
        let now = clock.now
        if let wait = deps.cooldowns.wait(for: [.messages, .requests, .session], now: now) {
            return CooldownNotice(scope: wait.scope, secondsLeft: wait.remainingSeconds)
        }
        if let wait = deps.cooldowns.wait(for: [.uploads], now: now) {
            return CooldownNotice(scope: .uploads, secondsLeft: wait.remainingSeconds)
        }
        return nil
    }

    @inline(never) @_optimize(size) var composerState: ComposerState {
        let now = clock.now
        return composer.state(Composer.Gates(
            availability: permission.availability, cooldown: cooldownNotice,
            textBlocked: deps.cooldowns.wait(for: [.messages, .requests, .session], now: now) != nil,
            uploadsBlocked: deps.cooldowns.wait(for: [.uploads], now: now) != nil, resendingHeld: resendingHeld))
    }

    @inline(never) @_optimize(size) func chatMessage(_ message: StoredMessage) -> ChatMessage {
        let state = outbox[message.id]
        let status: DeliveryStatus
        var retry = RetryOption.none
        if message.isConfirmed {
            status = message.sender == .user ? .sent : .received
        } else if state?.inFlight == true || !message.delivery.contains(.failed) {
            status = .sending
        } else {
            status = .notDelivered
            // Seed 001: a blocked or unverified chat keeps Retry (a tap is the probe, spec 6.4); an app the
            // service no longer serves offers nothing.
            if permission.halt == .appUnavailable {
                retry = .notAllowed
            } else if let wait = blockingWait(for: message) {
                let automatic = wait.automatic && watched && !message.delivery.contains(.awaitsManualRetry)
                    && state?.budget.map { !$0.isStopped } == true
                retry = automatic
                    ? .automaticResend(secondsLeft: wait.remainingSeconds) : .disabledFor(secondsLeft: wait.remainingSeconds)
            } else {
                retry = .available
            }
        }
        return ChatMessage(
            id: message.id, seq: message.seq, sender: message.sender, text: message.text, kind: message.kind,
            reviewUrl: message.reviewUrl, paywallId: message.paywallId, buttonLabel: message.buttonLabel,
            authorId: message.authorId, attachments: message.attachments,
            localPhotos: message.attachments.isEmpty ? message.images : [], createdAt: message.createdAt,
            status: status, showsPendingIndicator: status == .sending && state?.pendingVisible == true,
            uploadProgress: status == .sending ? state?.progress : nil, retry: retry)
    }
}
