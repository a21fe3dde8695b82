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

    /// The lines of the screen, top to bottom (without the prompt).
    var lines: [String] {
        var lines = ["\(title ?? "ReceptionKit chat") · \(who) · chat \(chatOpen ? "open" : "closed") · unread \(unreadCount)"]
        if chatOpen {
            if let text = Screen.bannerText(banner) { lines.append("[\(text)]") }
            if messages.isEmpty {
                lines += welcome.map { "  \($0)" }
                lines.append("  (no messages yet: type a line to send it)")
            }
            for (index, message) in messages.enumerated() {
                lines.append(Screen.line(for: message, number: index + 1, authorNames: authorNames))
            }
            if agentTyping { lines.append("  Agent is typing…") }
            if let composer {
                if let replacement = composer.availability.replacementText { lines.append("! \(replacement)") }
                for notice in composer.notices { lines.append("! \(notice.text)") }
            }
        } else {
            lines.append("Unread: \(unreadCount)   (/open shows the chat)")
        }
        for note in notes { lines.append("* \(note)") }
        return lines
    }

    /// One transcript line: number, sender, text, photos, upload progress and delivery status.
    static func line(for message: ChatMessage, number: Int, authorNames: [String: String] = [:]) -> String {
        let sender = message.sender.isIncoming
            ? (message.authorId.flatMap { authorNames[$0] } ?? message.authorId.map { "agent \($0)" } ?? "agent") : "you"
        var parts = ["\(String(number).leftPadded(to: 3))  \(sender):"]
        let photoCount = message.attachments.count + message.localPhotos.count
        if photoCount > 0 { parts.append(photoCount == 1 ? "[photo]" : "[\(photoCount) photos]") }
        if !message.text.isEmpty { parts.append(message.text.replacingOccurrences(of: "\n", with: " ")) }
        if let button = message.buttonTitle { parts.append("[\(button)]") }
        if let progress = message.uploadProgress, message.status == .sending {
            parts.append("(uploading \(Int((min(max(progress, 0), 1) * 100).rounded()))%)")
        }
        if let status = status(of: message, number: number) { parts.append("— \(status)") }
        return parts.joined(separator: " ")
    }

    /// The status words of the seed's bubbles: Sending, Sent, Not delivered with what Retry offers.
    static func status(of message: ChatMessage, number: Int) -> String? {
        switch message.status {
        case .received: return nil
        case .sent: return "Sent"
        case .sending: return message.showsPendingIndicator ? "Sending…" : "Sending"
        case .notDelivered:
            switch message.retry {
            case .available: return "Not delivered · Retry: /retry \(number)"
            case .automaticResend(let seconds): return "Not delivered · resending in \(seconds)s (/cancel \(number))"
            case .disabledFor(let seconds): return "Not delivered · Retry in \(seconds)s"
            case .notAllowed, .none: return "Not delivered"
            }
        }
    }

    static func bannerText(_ banner: ConnectionBanner) -> String? {
        switch banner {
        case .hidden: nil
        case .offline: "No connection"
        case .connecting: "Connecting…"
        case .connected: "Connected"
        case .paused: "Live updates paused"
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
