import Foundation
import ReceptionCore

extension ChatEngine {
    /// Spec 7.13: typing reports for a composer change. `true` at most once per 3 s while typing; each change
    /// re-arms a 1.5 s idle timer that sends `false` (only after a `true`).
    func composerChangedForTyping() {
        guard hasConversation else { return }
        let typing = !Limits.trimmedMessageText(composerText).isEmpty
        guard typing, watched, sendingPermitted else { return }
        let now = clock.uptime
        if typingTrueSentAt.map({ now - $0 >= .seconds(3) }) ?? true {
            typingTrueSentAt = now
            typingTrueSent = true
            enqueueTyping(true)
        }
        typingIdleTimer?.cancel()
        typingIdleTimer = Task { [weak self, clock = deps.clock] in
            guard (try? await clock.sleep(for: .milliseconds(1500))) != nil else { return }
            await self?.sendTypingFalseIfNeeded()
        }
    }

    /// Sends `false` when `true` was sent before.
    func sendTypingFalseIfNeeded() {
        typingIdleTimer?.cancel()
        typingIdleTimer = nil
        guard typingTrueSent, hasConversation else { return }
        typingTrueSent = false
        typingTrueSentAt = nil
        enqueueTyping(false)
    }

    func stopTypingAfterSend() { sendTypingFalseIfNeeded() }

    /// Requests are serialised: each waits for the previous one. Errors are ignored (spec 3.11).
    private func enqueueTyping(_ value: Bool) {
        let previous = typingTail
        let service = deps.service
        typingTail = Task {
            await previous?.value
            do throws(ReceptionError) { try await service.typing(value) } catch {}
        }
    }
}
