import Foundation

/// What VoiceOver announces as the chat changes, in the chat language (issue 39): a new team reply ("Anna: Hello",
/// or "Support: Hello" when no name is shown; a photo-only reply "Anna: 1 photo"), the typing line when a teammate
/// starts typing, and the connection banner when it changes.
///
/// A screen keeps one value from the moment it appears and hands it every presentation it shows; it posts what
/// comes back. The rules:
///
/// - The first presentation announces nothing: its rows, its typing line and its banner are the chat as opened.
/// - The history an opening loads is not announced: a reply counts only when it arrives after the opening load
///   ended (`TranscriptPresentation.isOpening`), whatever the service's and the device's clocks say (issue 50).
/// - A screen that comes back (from a full-screen cover over it) goes on with the same value: it shows
///   (`seen(_:)`) without announcing what it shows, and nothing is announced twice.
/// - Each reply is announced once: the same row presented again (its status, a refreshed link, a new name) never
///   is, nor a row that comes back after it was gone.
/// - The customer's own messages are never announced.
/// - Typing is announced when it starts, not on every presentation while it lasts.
/// - The banner is announced when it changes to a shown state, not in its initial state and not when it hides.
public struct ChatAnnouncements: Sendable, Hashable {
    /// Whether the first presentation was seen.
    private var started = false
    /// Every row presented so far, by ID.
    private var seenRows: Set<String> = []
    /// Whether the last presentation showed the typing line.
    private var typing = false
    /// The banner the last presentation showed.
    private var banner: ConnectionBanner = .hidden

    /// The announcements of a chat screen that appears.
    @_optimize(size) public init() {}

    /// The announcements of a chat that opened at `openedAt` (the time is no longer used: arrivals are told by
    /// the opening load's end).
    @available(*, deprecated, renamed: "init()")
    @_optimize(size) public init(openedAt: Date) {}

    /// The screen shows `presentation` without announcing it (it appears again): its rows count as seen.
    @inline(never) @_optimize(size) public mutating func seen(_ presentation: TranscriptPresentation) {
        record(presentation)
    }

    /// What to announce now that the screen shows `presentation`, in order: the banner, the new replies oldest
    /// first, then the typing line. Empty when nothing is new.
    @inline(never) @_optimize(size) public mutating func announcements(for presentation: ChatPresentation) -> [String] {
        announcements(for: presentation.transcript)
    }

    /// What to announce now that the screen shows `presentation` (the transcript part a screen lays out; the
    /// composer is never announced).
    @inline(never)
    @_optimize(size) public mutating func announcements(for presentation: TranscriptPresentation) -> [String] {
        defer { record(presentation) }
        guard started else { return [] }
        let typingNow = presentation.typingText != nil
        var spoken: [String] = []
        if presentation.banner?.kind ?? .hidden != banner, let text = presentation.banner?.text { spoken.append(text) }
        // While the opening load runs, new rows are the history it brings.
        for row in presentation.rows where row.side == .team && !seenRows.contains(row.id) && !presentation.isOpening {
            spoken.append(row.announcement)
        }
        if typingNow, !typing, let text = presentation.typingText { spoken.append(text) }
        return spoken
    }

    /// Takes `presentation` as shown: its rows seen, its typing line and banner the last ones.
    @inline(never) @_optimize(size) private mutating func record(_ presentation: TranscriptPresentation) {
        started = true
        seenRows.formUnion(presentation.rows.map(\.id))
        typing = presentation.typingText != nil
        banner = presentation.banner?.kind ?? .hidden
    }

    /// Hashes the number of rows seen only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(seenRows.count) }
}
