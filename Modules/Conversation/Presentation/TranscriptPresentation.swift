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
    @_optimize(size) public var newestRowID: String? { rows.last?.id }

    /// The transcript part for `rows` (built by `ChatPresentation.rows`) and the rest of the state.
    @inline(never) @_optimize(size) init(
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

    /// Hashes the number of rows only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(rows.count) }

    /// Written rather than synthesized, compiled for size and never inlined: at `-O` the synthesized `==` takes
    /// in every field's comparison (Docs/Footprint.md). It compares every field (`WrittenEqualityTests`).
    @inline(never) @_optimize(size)
    public static func == (lhs: TranscriptPresentation, rhs: TranscriptPresentation) -> Bool {
        lhs.isOpening == rhs.isOpening && lhs.typingReservesAvatarColumn == rhs.typingReservesAvatarColumn
            && lhs.layoutDirection == rhs.layoutDirection && lhs.title == rhs.title && lhs.typingText == rhs.typingText
            && lhs.banner == rhs.banner && lhs.emptyState == rhs.emptyState && lhs.rows == rhs.rows
    }
}

extension ChatModel {
    /// The transcript part of the screen for the model's current state (`presentation(appearance:)` without the
    /// composer). It reads the transcript, the team, the typing flag, the banner and the texts, never the
    /// composer. The rows are built again only when the texts, the appearance, the available paywalls, the day or
    /// the team change; a transcript change builds only the rows it touches (issue 53), and typing, a banner change
    /// or a typing indicator build none.
    @inline(never) @_optimize(size) public func transcriptPresentation(
        appearance: ChatAppearance, now: Date = Date(), timeZone: TimeZone = .current,
        availablePaywalls: Set<String>? = nil
    ) -> TranscriptPresentation {
        // Read through the observed properties, so a screen showing this is invalidated when they change.
        let messages = self.messages
        prepareRows(appearance: appearance, now: now, timeZone: timeZone, availablePaywalls: availablePaywalls)
        let rows = rowMemo?.flatRows ?? rowSlots.map(\.row)
        rowMemo?.flatRows = rows
        return transcriptPart(rows: rows, isEmpty: messages.isEmpty, appearance: appearance)
    }

    /// The transcript part with its rows in slots the model updates in place (issue 53), for a screen that draws
    /// each row from its slot: the part's `rows` stay empty. It reads the list of slots, never a row nor
    /// `messages`, so a row that changes invalidates the view drawing that row alone; a screen reading this is
    /// invalidated only when rows come, go or move, or the banner, the typing line, the texts or the team change.
    @inline(never) @_optimize(size) package func transcriptSlots(
        appearance: ChatAppearance, now: Date = Date(), timeZone: TimeZone = .current,
        availablePaywalls: Set<String>? = nil
    ) -> (transcript: TranscriptPresentation, slots: [RowSlot]) {
        prepareRows(appearance: appearance, now: now, timeZone: timeZone, availablePaywalls: availablePaywalls)
        let slots = rowSlots
        return (transcriptPart(rows: [], isEmpty: slots.isEmpty, appearance: appearance), slots)
    }

    /// The composer's part of the screen: it reads the composer and the texts only.
    @inline(never) @_optimize(size)
    public var composerPresentation: ComposerPresentation { ComposerPresentation(composer, texts: texts) }

    @inline(never) @_optimize(size) private func transcriptPart(
        rows: [MessageRow], isEmpty: Bool, appearance: ChatAppearance
    ) -> TranscriptPresentation {
        var presentation = TranscriptPresentation(
            rows: rows, isEmpty: isEmpty, banner: banner, agentTyping: agentTyping, texts: texts,
            appearance: appearance)
        presentation.isOpening = isOpening
        return presentation
    }

    /// Builds every row when what all rows depend on differs from what they were built with.
    @inline(never) @_optimize(size) private func prepareRows(
        appearance: ChatAppearance, now: Date, timeZone: TimeZone, availablePaywalls: Set<String>?
    ) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let inputs = RowMemo.Inputs(
            teamChanges: teamChanges, texts: texts, appearance: appearance, availablePaywalls: availablePaywalls,
            timeZone: timeZone, day: calendar.startOfDay(for: now))
        if rowMemo?.inputs != inputs { rebuildRows(inputs, now: now) }
    }

    /// Builds every row for `inputs`.
    @inline(never) @_optimize(size) func rebuildRows(_ inputs: RowMemo.Inputs, now: Date) {
        let memo = RowMemo(
            inputs: inputs, now: now,
            context: ChatPresentation.RowContext(
                team: team, texts: inputs.texts, appearance: inputs.appearance, now: now, timeZone: inputs.timeZone,
                availablePaywalls: inputs.availablePaywalls))
        // `transcript`, not `messages`: a screen's body that builds the rows must not depend on every message.
        var slots = rowSlots
        if memo.rebuild(transcript, slots: &slots) { rowSlots = slots }
        rowMemo = memo
        rowBuilds += 1
        rowsBuilt += transcript.count
    }

    /// Builds again the rows `change` touches, once rows were built; the list of slots is published again only
    /// when rows came, went or moved.
    @inline(never) @_optimize(size) func refreshRows(_ change: TranscriptChange) {
        guard let memo = rowMemo else { return }
        let moves = change.kept < transcript.count || change.kept < rowSlots.count
        var slots = rowSlots
        // The model's list is let go first, so new rows are appended in place rather than to a copy.
        if moves { rowSlots = [] }
        let built = memo.update(transcript, change, slots: &slots)
        if moves { rowSlots = slots }
        if built > 0 { rowBuilds += 1 }
        rowsBuilt += built
    }
}
