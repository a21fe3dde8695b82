import Foundation

/// What VoiceOver announces as the chat changes, in the chat language (issue 39): a new team reply ("Anna: Hello",
/// or "Support: Hello" when no name is shown; a photo-only reply "Anna: 1 photo"), the typing line when a teammate
/// starts typing, and the connection banner when it changes.
///
/// A screen keeps one value from the moment it appears and hands it every presentation it shows; it posts what
/// comes back. The rules:
///
/// - The first presentation announces nothing: its rows, its typing line and its banner are the chat as opened.
/// - The history an opening loads is not announced: a reply counts only when written after the chat opened (by
///   the device's clock, less `clockAllowance` for the service's clock and the network).
/// - Each reply is announced once: the same row presented again (its status, a refreshed link, a new name) never
///   is, nor a row that comes back after it was gone.
/// - The customer's own messages are never announced.
/// - Typing is announced when it starts, not on every presentation while it lasts.
/// - The banner is announced when it changes to a shown state, not in its initial state and not when it hides.
public struct ChatAnnouncements: Sendable, Hashable {
    /// How much earlier than the opening a reply may be stamped and still count as new: the service stamps replies
    /// with its own clock, and a reply written as the chat opened may reach it a moment later.
    public static let clockAllowance: TimeInterval = 10

    /// Replies written before this are the history an opening loads.
    private let cutoff: Date
    /// Whether the first presentation was seen.
    private var started = false
    /// Every row presented so far, by ID.
    private var seenRows: Set<String> = []
    /// Whether the last presentation showed the typing line.
    private var typing = false
    /// The banner the last presentation showed.
    private var banner: ConnectionBanner = .hidden

    /// The announcements of a chat that opened at `openedAt`.
    public init(openedAt: Date) {
        cutoff = openedAt.addingTimeInterval(-Self.clockAllowance)
    }

    /// What to announce now that the screen shows `presentation`, in order: the banner, the new replies oldest
    /// first, then the typing line. Empty when nothing is new.
    public mutating func announcements(for presentation: ChatPresentation) -> [String] {
        announcements(for: presentation.transcript)
    }

    /// What to announce now that the screen shows `presentation` (the transcript part a screen lays out; the
    /// composer is never announced).
    public mutating func announcements(for presentation: TranscriptPresentation) -> [String] {
        let bannerNow = presentation.banner?.kind ?? .hidden
        let typingNow = presentation.typingText != nil
        defer {
            started = true
            seenRows.formUnion(presentation.rows.map(\.id))
            typing = typingNow
            banner = bannerNow
        }
        guard started else { return [] }
        var spoken: [String] = []
        if bannerNow != banner, let text = presentation.banner?.text { spoken.append(text) }
        for row in presentation.rows
        where row.side == .team && !seenRows.contains(row.id) && row.createdAt >= cutoff {
            spoken.append(row.announcement)
        }
        if typingNow, !typing, let text = presentation.typingText { spoken.append(text) }
        return spoken
    }
}
