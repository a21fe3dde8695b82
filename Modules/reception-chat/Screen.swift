import Conversation
import Foundation

/// Everything the screen shows, copied from the SDK's observable state on the main actor. The chat part is the
/// SDK's own `ChatPresentation` (the types the iPhone chat lays out), so the terminal and the phone show the same
/// rows, statuses, cards, banner and notices; rendering it is a pure function (`lines`), so the full-screen and the
/// plain-line output show the same words.
struct Screen: Equatable, Sendable {
    /// What the chat shows: title, rows, empty state, typing, banner and composer, in the chat language.
    var chat: ChatPresentation
    /// Teammates' first names by author ID, when the appearance shows team names (seed 001): a terminal line stands
    /// alone, so every team line names its author, not only the first of a group.
    var authorNames: [String: String] = [:]
    /// The author ID of each row (the presentation names authors only where the phone draws them).
    var authorIDs: [String: String] = [:]
    var who: String
    var chatOpen: Bool
    var unreadCount: Int
    /// Whether a session exists (a composer to describe).
    var hasChat: Bool
    /// The app's own recent notes (push received, logged out, errors), oldest first.
    var notes: [String]
    /// The chat's built-in texts and direction in the chat language (`Reception.chatTexts`).
    var texts: ChatTexts = .english
    /// Whether the terminal gets links as hyperlinks (OSC 8, which current terminals make clickable and others
    /// ignore): in the full-screen mode; the plain-line output keeps the text alone.
    var hyperlinks = false
    /// The width right-to-left lines are aligned to.
    var width = 80

    /// The lines of the screen, top to bottom (without the prompt). The header, hints and notes are the app's own
    /// English; the chat's texts are in the chat language, and right-to-left chat lines are shown right-aligned
    /// (see `rightToLeft(_:)`).
    var lines: [String] {
        let direction = texts.isRightToLeft ? " (right to left)" : ""
        var lines = [
            "\(chat.title ?? "ReceptionKit chat") · \(who) · chat \(chatOpen ? "open" : "closed") · unread \(unreadCount)"
                + " · \(texts.language)\(direction)"
        ]
        if chatOpen {
            var shown: [String] = []
            if let banner = chat.banner { shown.append("[\(banner.text)]") }
            if let empty = chat.emptyState { shown += [empty.title, empty.text].compactMap { $0 }.map { "  \($0)" } }
            for (index, row) in chat.rows.enumerated() {
                if let time = row.timestampText { shown.append("  · \(time) ·") }
                shown.append(Screen.line(
                    for: row, number: index + 1, author: authorIDs[row.id].map { authorNames[$0] ?? "agent \($0)" },
                    hyperlinks: hyperlinks))
            }
            if hasChat {
                if let replacement = chat.composer.replacement { shown.append("! \(replacement)") }
                for notice in chat.composer.notices { shown.append("! \(notice)") }
            }
            lines += texts.isRightToLeft ? shown.map { Screen.rightToLeft($0, width: width) } : shown
            if chat.rows.isEmpty { lines.append("  (no messages yet: type a line to send it)") }
            if let typing = chat.typingText { lines.append("  \(typing)") }
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

    /// One transcript line: number, sender, photos, text, card button, upload progress and the status the row
    /// shows (grouped as on the phone: "Sent" only under the last own message). `author` names a team line's
    /// writer; `nil` gives "agent".
    /// With `hyperlinks`, the web links, e-mail addresses and phone numbers the phone makes tappable
    /// (`MessageRow.textRuns`) are terminal hyperlinks to the same URLs.
    static func line(for row: MessageRow, number: Int, author: String? = nil, hyperlinks: Bool = false) -> String {
        let sender = row.side == .team ? (author ?? "agent") : "you"
        var parts = ["\(String(number).leftPadded(to: 3))  \(sender):"]
        if !row.photos.isEmpty { parts.append(row.photos.count == 1 ? "[photo]" : "[\(row.photos.count) photos]") }
        if row.text != nil {
            let text = row.textRuns.map { run in
                guard hyperlinks, let link = run.link else { return run.text }
                return "\u{1B}]8;;\(link.absoluteString)\u{1B}\\\(run.text)\u{1B}]8;;\u{1B}\\"
            }.joined()
            parts.append(text.replacingOccurrences(of: "\n", with: " "))
        }
        if let card = row.card { parts.append("[\(card.buttonTitle)]") }
        if let progress = row.uploadProgress { parts.append("(uploading \(Int((progress * 100).rounded()))%)") }
        if let status = status(of: row, number: number) { parts.append("— \(status)") }
        return parts.joined(separator: " ")
    }

    /// The row's status line with the command that does what its control does (the commands stay as typed).
    static func status(of row: MessageRow, number: Int) -> String? {
        guard let status = row.status else { return nil }
        var words = [status.text]
        if let detail = status.detail { words.append(detail) }
        if let title = status.actionTitle {
            switch status.action {
            case .retry where status.isActionEnabled: words.append("\(title): /retry \(number)")
            case .cancelAutomaticResend: words.append("\(title): /cancel \(number)")
            default: words.append(title)
            }
        }
        return words.joined(separator: " · ")
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
