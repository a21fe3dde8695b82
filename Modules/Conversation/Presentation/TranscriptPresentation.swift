import Foundation
import ReceptionCore

/// Everything a chat screen shows except the composer: the title, the rows, the empty state, the typing line, the
/// connection banner and the reading direction. A screen lays this out from `ChatModel.transcriptPresentation`,
/// which reads no composer state, so a keystroke never invalidates it; the composer reads
/// `ChatModel.composerPresentation` on its own.
public struct TranscriptPresentation: Sendable, Hashable {
    /// The navigation title; `nil` when the appearance hides it.
    public var title: String?
    /// The transcript, oldest first.
    public var rows: [MessageRow]
    /// Shown while the transcript is empty.
    public var emptyState: ChatPresentation.EmptyState?
    /// "Typing…" while a teammate is typing.
    public var typingText: String?
    /// The typing indicator lines up with team bubbles: it keeps the avatar column when team photos are shown.
    public var typingReservesAvatarColumn: Bool
    /// The connection banner; `nil` while hidden (an unused chat keeps it hidden).
    public var banner: ChatPresentation.Banner?
    /// Which way the chat reads.
    public var layoutDirection: LayoutDirection
    /// The opening load has not ended: new rows are history, not arrivals (`ChatAnnouncements`).
    public var isOpening = false
    /// The newest row (opening starts at it; `TranscriptFollowing` decides when a new one is followed).
    public var newestRowID: String? { rows.last?.id }

    /// The transcript part for `rows` (built by `ChatPresentation.rows`) and the rest of the state.
    init(
        rows: [MessageRow], isEmpty: Bool, banner: ConnectionBanner, agentTyping: Bool, texts: ChatTexts,
        appearance: ChatAppearance
    ) {
        self.rows = rows
        typingReservesAvatarColumn = appearance.showsTeamPhotos
        title = appearance.shows(.title) ? texts.title : nil
        emptyState = isEmpty
            ? ChatPresentation.EmptyState(
                title: appearance.shows(.welcomeTitle) ? texts.welcomeTitle : nil,
                text: appearance.shows(.welcomeText) ? texts.welcomeText : nil,
                showsIcon: appearance.shows(.welcomeIcon))
            : nil
        typingText = agentTyping ? texts.text(.typing) : nil
        self.banner = texts.banner(banner).map { ChatPresentation.Banner(kind: banner, text: $0) }
        layoutDirection = texts.layoutDirection
    }
}

/// The rows a `ChatModel` built last, and what they were built from: kept until the transcript, the team, the
/// texts, the appearance, the available paywalls or the day of `now` change.
struct RowMemo {
    struct Inputs: Equatable {
        /// `ChatModel`'s count of transcript and team changes.
        var transcriptVersion: Int
        var texts: ChatTexts
        var appearance: ChatAppearance
        var availablePaywalls: Set<String>?
        var timeZone: TimeZone
        /// The start of `now`'s day in `timeZone`: timestamps are worded against the day, not the instant.
        var day: Date
    }

    var inputs: Inputs
    var rows: [MessageRow]
}

extension ChatModel {
    /// The transcript part of the screen for the model's current state (`presentation(appearance:)` without the
    /// composer). It reads the transcript, the team, the typing flag, the banner and the texts, never the
    /// composer, and the rows are built again only when the transcript, the team, the texts, the appearance, the
    /// available paywalls or the day change: typing, a banner change or a typing indicator reuse them.
    public func transcriptPresentation(
        appearance: ChatAppearance, now: Date = Date(), timeZone: TimeZone = .current,
        availablePaywalls: Set<String>? = nil
    ) -> TranscriptPresentation {
        // Read through the observed properties, so a screen showing this is invalidated when they change.
        let messages = self.messages, team = self.team, texts = self.texts
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let inputs = RowMemo.Inputs(
            transcriptVersion: transcriptVersion, texts: texts, appearance: appearance,
            availablePaywalls: availablePaywalls, timeZone: timeZone, day: calendar.startOfDay(for: now))
        let rows: [MessageRow]
        if let memo = rowMemo, memo.inputs == inputs {
            rows = memo.rows
        } else {
            rows = ChatPresentation.rows(
                messages: messages, team: team, texts: texts, appearance: appearance, now: now, timeZone: timeZone,
                availablePaywalls: availablePaywalls)
            rowMemo = RowMemo(inputs: inputs, rows: rows)
            rowBuilds += 1
        }
        var presentation = TranscriptPresentation(
            rows: rows, isEmpty: messages.isEmpty, banner: banner, agentTyping: agentTyping, texts: texts,
            appearance: appearance)
        presentation.isOpening = isOpening
        return presentation
    }

    /// The composer's part of the screen: it reads the composer and the texts only.
    public var composerPresentation: ComposerPresentation { ComposerPresentation(composer, texts: texts) }
}
