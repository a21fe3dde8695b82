import Foundation
import ReceptionCore

extension ChatEngine {
    /// Spec 7.13: typing reports for a composer change, sent only for a watched conversation while sending is
    /// permitted and the trimmed draft has text.
    @inline(never) @_optimize(size) func composerChangedForTyping() {
        guard hasConversation, !Limits.trimmedMessageText(composer.text).isEmpty, watched, sendingPermitted
        else { return }
        typing.draftChanged { [weak self] in await self?.sendTypingFalseIfNeeded() }
    }

    /// Sends `false` when `true` was sent before.
    @_optimize(size) func sendTypingFalseIfNeeded() { typing.stop(hasConversation: hasConversation) }

    @_optimize(size) func stopTypingAfterSend() { sendTypingFalseIfNeeded() }

    // MARK: - Agent typing (spec 7.13)

    @_optimize(size) func showAgentTyping() {
        typing.agentStarted { [weak self] in await self?.hideAgentTyping() }
        publish()
    }

    @inline(never) @_optimize(size) func hideAgentTyping() {
        if typing.agentStopped() { publish() }
    }
}
