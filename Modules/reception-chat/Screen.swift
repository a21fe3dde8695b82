import Conversation
import Foundation

/// Everything the screen shows, copied from the SDK's observable state on the main actor. Rendering it is a pure
/// function (`lines`), so the full-screen and the plain-line output show the same words.
struct Screen: Equatable, Sendable {
    /// The chat's title and welcome lines from `Reception.chatAppearance` (the host's, or the dashboard's).
    var title: String?
    var welcome: [String] = []
    /// Teammates' first names by author ID, when the appearance shows team names (seed 001).
    var authorNames: [String: String] = [:]
    var who: String
    var chatOpen: Bool
    var unreadCount: Int
    var messages: [ChatMessage]
    var banner: ConnectionBanner
    var agentTyping: Bool
    var composer: ComposerState?
    /// The app's own recent notes (push received, logged out, errors), oldest first.
    var notes: [String]
    /// The chat's built-in texts and direction in the chat language (`Reception.chatTexts`).
    var texts: ChatTexts = .english
    /// The width right-to-left lines are aligned to.
    var width = 80

    /// The lines of the screen, top to bottom (without the prompt). The header, hints and notes are the app's own
    /// English; the chat's texts are in the chat language, and right-to-left chat lines are shown right-aligned
    /// (see `rightToLeft(_:)`).
    var lines: [String] {
        let direction = texts.isRightToLeft ? " (right to left)" : ""
        var lines = [
            "\(title ?? "ReceptionKit chat") · \(who) · chat \(chatOpen ? "open" : "closed") · unread \(unreadCount)"
                + " · \(texts.language)\(direction)"
        ]
        if chatOpen {
            var chat: [String] = []
            if let text = texts.banner(banner) { chat.append("[\(text)]") }
            if messages.isEmpty { chat += welcome.map { "  \($0)" } }
            for (index, message) in messages.enumerated() {
                chat.append(Screen.line(for: message, number: index + 1, authorNames: authorNames, texts: texts))
            }
            if let composer {
                if let replacement = texts.replacement(composer.availability) { chat.append("! \(replacement)") }
                for notice in composer.notices { chat.append("! \(texts.notice(notice))") }
            }
            lines += texts.isRightToLeft ? chat.map { Screen.rightToLeft($0, width: width) } : chat
            if messages.isEmpty { lines.append("  (no messages yet: type a line to send it)") }
            if agentTyping { lines.append("  Agent is typing…") }
        } else {
            lines.append("Unread: \(unreadCount)   (/open shows the chat)")
        }
        for note in notes { lines.append("* \(note)") }
        return lines
    }

    /// A right-to-left line for a terminal: most terminals draw characters in the order they arrive, so the line is
    /// wrapped in a right-to-left isolate (U+2067 … U+2069, which bidi-aware terminals honour) and padded on the left
    /// so it ends at the right edge, as a right-to-left chat is laid out.
    static func rightToLeft(_ line: String, width: Int) -> String {
        let padding = max(0, width - line.count)
        return String(repeating: " ", count: padding) + "\u{2067}" + line + "\u{2069}"
    }

    /// One transcript line: number, sender, text, photos, upload progress and delivery status.
    static func line(
        for message: ChatMessage, number: Int, authorNames: [String: String] = [:], texts: ChatTexts = .english
    ) -> String {
        let sender = message.sender.isIncoming
            ? (message.authorId.flatMap { authorNames[$0] } ?? message.authorId.map { "agent \($0)" } ?? "agent") : "you"
        var parts = ["\(String(number).leftPadded(to: 3))  \(sender):"]
        let photoCount = message.attachments.count + message.localPhotos.count
        if photoCount > 0 { parts.append(photoCount == 1 ? "[photo]" : "[\(photoCount) photos]") }
        if !message.text.isEmpty { parts.append(message.text.replacingOccurrences(of: "\n", with: " ")) }
        if let button = texts.buttonTitle(for: message) { parts.append("[\(button)]") }
        if let progress = message.uploadProgress, message.status == .sending {
            parts.append("(uploading \(Int((min(max(progress, 0), 1) * 100).rounded()))%)")
        }
        if let status = status(of: message, number: number, texts: texts) { parts.append("— \(status)") }
        return parts.joined(separator: " ")
    }

    /// The status words of the seed's bubbles in the chat language: Sending, Sent, Not delivered with what Retry
    /// offers (the commands stay as typed).
    static func status(of message: ChatMessage, number: Int, texts: ChatTexts = .english) -> String? {
        guard let status = texts.status(message.status) else { return nil }
        guard message.status == .notDelivered else { return status }
        switch message.retry {
        case .available: return "\(status) · \(texts.retry): /retry \(number)"
        case .automaticResend(let seconds):
            return "\(status) · \(texts.relativeTime(seconds: Double(seconds))) · \(texts.cancel): /cancel \(number)"
        case .disabledFor(let seconds): return "\(status) · \(texts.retry) \(texts.relativeTime(seconds: Double(seconds)))"
        case .notAllowed, .none: return status
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
