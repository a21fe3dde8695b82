import Foundation
import ReceptionCore

/// Everything a chat screen shows at one moment, in the chat language: the title, the transcript's rows, the empty
/// state, the typing indicator, the connection banner and the composer (seed 001, spec 7.18, 7.24).
///
/// It is a pure function of the model's state, the texts and the appearance. The SwiftUI chat (`ReceptionUI`) lays
/// it out and `reception-chat` prints it, so both show the same chat and every rule is tested on Linux.
///
/// It is made of two parts, so a screen can lay out the transcript without reading the composer: `transcript` and
/// `composer`. The transcript's properties read (and write) through: `presentation.rows` is
/// `presentation.transcript.rows`.
@dynamicMemberLookup
public struct ChatPresentation: Sendable, Hashable {
    /// What an empty chat shows instead of the transcript.
    public struct EmptyState: Sendable, Hashable {
        /// The welcome title; `nil` when the appearance hides it.
        public var title: String?
        /// The welcome text; `nil` when hidden.
        public var text: String?
        /// Whether the welcome icon shows.
        public var showsIcon: Bool

        /// Hashes the title only; `==` compares every field, so equal values hash alike.
        @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(title) }
    }

    /// The connection banner above the composer (seed 001 "Connection status").
    public struct Banner: Sendable, Hashable {
        /// Which status.
        public var kind: ConnectionBanner
        /// Its text ("No connection", "Connecting", "Connected", "Live updates paused").
        public var text: String

        /// Hashes the kind only; `==` compares every field, so equal values hash alike.
        @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
    }

    /// Everything but the composer: the title, rows, empty state, typing line, banner and reading direction.
    public var transcript: TranscriptPresentation
    /// The composer, or the notice that replaces it.
    public var composer: ComposerPresentation

    /// A property of the transcript part (`title`, `rows`, `emptyState`, `typingText`,
    /// `typingReservesAvatarColumn`, `banner`, `layoutDirection`, `newestRowID`), read and written through.
    @inline(never) @_optimize(size)
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<TranscriptPresentation, Value>) -> Value {
        get { transcript[keyPath: keyPath] }
        set { transcript[keyPath: keyPath] = newValue }
    }

    /// A read-only property of the transcript part (`newestRowID`).
    @inline(never)
    @_optimize(size) public subscript<Value>(dynamicMember keyPath: KeyPath<TranscriptPresentation, Value>) -> Value {
        transcript[keyPath: keyPath]
    }

    /// Spec 7.24: a timestamp row appears before a group that starts more than 5 minutes after the message before.
    public static let timestampGap: TimeInterval = 5 * 60

    /// The screen for this state. `team` is the model's roster (`ChatModel.team`); names and photos show only when
    /// `appearance` enables them. `now` and `timeZone` word the timestamps ("14:05" today, else with the day).
    /// `availablePaywalls` are the paywall IDs an offer card can open now (none without a handler); `nil` when the
    /// caller does not know, which leaves every offer card enabled.
    @inline(never) @_optimize(size) public init(
        messages: [ChatMessage], composer: ComposerState, banner: ConnectionBanner, agentTyping: Bool,
        team: [TeamProfile], texts: ChatTexts, appearance: ChatAppearance, now: Date, timeZone: TimeZone = .current,
        availablePaywalls: Set<String>? = nil
    ) {
        let rows = Self.rows(
            messages: messages, team: team, texts: texts, appearance: appearance, now: now, timeZone: timeZone,
            availablePaywalls: availablePaywalls)
        transcript = TranscriptPresentation(
            rows: rows, isEmpty: messages.isEmpty, banner: banner, agentTyping: agentTyping, texts: texts,
            appearance: appearance)
        self.composer = ComposerPresentation(composer, texts: texts)
    }

    /// A screen made of its two parts.
    @inline(never) @_optimize(size) public init(transcript: TranscriptPresentation, composer: ComposerPresentation) {
        self.transcript = transcript
        self.composer = composer
    }

    /// The transcript's rows for this state (what `init` builds; `ChatModel` keeps them and builds again only the
    /// rows that change).
    @inline(never) @_optimize(size) static func rows(
        messages: [ChatMessage], team: [TeamProfile], texts: ChatTexts, appearance: ChatAppearance, now: Date,
        timeZone: TimeZone, availablePaywalls: Set<String>?
    ) -> [MessageRow] {
        let context = RowContext(
            team: team, texts: texts, appearance: appearance, now: now, timeZone: timeZone,
            availablePaywalls: availablePaywalls)
        let lastOwn = messages.lastIndex { !$0.sender.isIncoming }
        return messages.indices.map { index in
            row(at: index, of: messages, place: place(at: index, of: messages, lastOwn: lastOwn, context), context)
        }
    }

    // MARK: Rows

    /// What every row is built with. A class: it is made once per rebuild and only read, and a struct of five fields
    /// carried its own copy, move and destroy functions (Docs/Footprint.md, "Size on iOS").
    final class RowContext {
        let profiles: [String: TeamProfile]
        let texts: ChatTexts
        let appearance: ChatAppearance
        let wording: TimestampWording
        let availablePaywalls: Set<String>?

        @inline(never) @_optimize(size) init(
            team: [TeamProfile], texts: ChatTexts, appearance: ChatAppearance, now: Date, timeZone: TimeZone,
            availablePaywalls: Set<String>?
        ) {
            // The first profile of an ID wins; a loop, not a merge closure (Docs/Footprint.md).
            var profiles: [String: TeamProfile] = [:]
            for profile in team where profiles[profile.id] == nil { profiles[profile.id] = profile }
            self.profiles = profiles
            self.texts = texts
            self.appearance = appearance
            wording = TimestampWording(now: now, timeZone: timeZone, language: texts.language)
            self.availablePaywalls = availablePaywalls
        }
    }

    /// What a row shows because of its neighbours (spec 7.24's groups, timestamps and status, spec 7.20's fade): a
    /// row whose message and place stay the same stays the same.
    struct RowPlace: Equatable {
        var startsGroup: Bool
        var endsGroup: Bool
        var timestamp: Date?
        var isLastOwn: Bool
        var fade: Double
    }

    /// The place of `messages[index]`; `lastOwn` is the position of the last own message.
    @inline(never) @_optimize(size)
    static func place(at index: Int, of messages: [ChatMessage], lastOwn: Int?, _ context: RowContext) -> RowPlace {
        let message = messages[index]
        let previous = index > 0 ? messages[index - 1] : nil
        let next = index + 1 < messages.count ? messages[index + 1] : nil
        let startsGroup = previous.map { !Self.sameGroup($0, message) } ?? true
        let gap = previous.map { message.createdAt.timeIntervalSince($0.createdAt) > timestampGap } ?? true
        var fade = 0.0
        if !message.sender.isIncoming, context.appearance.fadesOlderMessages {
            // Spec 7.20: an own bubble lightens per newer text message, up to `ChatAppearance.fadeSteps` of them.
            var newer = 0
            var later = index + 1
            while later < messages.count, newer < ChatAppearance.fadeSteps {
                if isText(messages[later]) { newer += 1 }
                later += 1
            }
            fade = context.appearance.fade(newerTextMessages: newer)
        }
        return RowPlace(
            startsGroup: startsGroup, endsGroup: next.map { !Self.sameGroup(message, $0) } ?? true,
            timestamp: startsGroup && gap ? message.createdAt : nil, isLastOwn: index == lastOwn, fade: fade)
    }

    /// A message that counts for spec 7.20's fade.
    @inline(never) @_optimize(size)
    static func isText(_ message: ChatMessage) -> Bool { message.kind == .text && !message.text.isEmpty }

    /// Spec 7.24: messages group when sender, author and calendar minute match.
    @inline(never) @_optimize(size) static func sameGroup(_ a: ChatMessage, _ b: ChatMessage) -> Bool {
        a.sender.isIncoming == b.sender.isIncoming && a.authorId == b.authorId
            && minute(a.createdAt) == minute(b.createdAt)
    }

    /// The minute a date falls in (minutes start on the same instants in every time zone with whole-minute offsets).
    @inline(never) @_optimize(size) private static func minute(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e15 else { return 0 }
        return Int64((seconds / 60).rounded(.down))
    }

    /// The row of `messages[index]` at `place`.
    @inline(never) @_optimize(size)
    static func row(at index: Int, of messages: [ChatMessage], place: RowPlace, _ context: RowContext) -> MessageRow {
        let message = messages[index]
        let profile = message.authorId.flatMap { context.profiles[$0] }
        let startsGroup = place.startsGroup, endsGroup = place.endsGroup
        let texts = context.texts, appearance = context.appearance
        let side: MessageRow.Side = message.sender.isIncoming ? .team : .own
        let trimmed = message.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let text = trimmed.isEmpty ? nil : message.text
        var author: MessageRow.Author?
        if side == .team, let profile, appearance.showsTeamNames || appearance.showsTeamPhotos {
            author = MessageRow.Author(
                name: appearance.showsTeamNames && startsGroup ? profile.name : nil,
                photo: appearance.showsTeamPhotos ? profile.photo : nil,
                photoKey: appearance.showsTeamPhotos && profile.photo != nil ? profile.photoKey ?? profile.id : nil,
                initial: profile.initial, showsAvatar: appearance.showsTeamPhotos && endsGroup)
        }
        let status = Self.status(of: message, isLastOwn: place.isLastOwn, texts: texts)
        let photos = Self.photos(of: message, texts: texts)
        let card = Self.card(of: message, texts: texts, availablePaywalls: context.availablePaywalls)
        let sender = side == .own
            ? texts.text(.you)
            : (appearance.showsTeamNames ? profile?.name : nil) ?? texts.text(.team)
        var spoken = text.map { "\(sender): \($0)" } ?? sender
        let photoCount = photos.isEmpty ? nil : texts.text(.photoCount, count: photos.count)
        if let photoCount { spoken += ". " + photoCount }
        if let card { spoken += ". " + card.buttonTitle }
        let content = [text, photoCount, card?.buttonTitle].compactMap { $0 }
        let announcement = content.isEmpty ? sender : "\(sender): " + content.joined(separator: ". ")
        if let status { spoken += ". " + status.accessibilityLabel }
        let runs = text.map { LinkDetector.runs(in: $0) } ?? []
        let progress = message.status == .sending ? message.uploadProgress.map { min(max($0, 0), 1) } : nil
        return MessageRow(
            id: message.id, side: side, text: text, textRuns: runs,
            textDirection: text.flatMap(Self.direction(of:)),
            isTextSelectable: message.status == .sent || message.status == .received, timestamp: place.timestamp,
            timestampText: place.timestamp.map(context.wording.text), createdAt: message.createdAt,
            startsGroup: startsGroup, endsGroup: endsGroup, author: author,
            reservesAvatarColumn: side == .team && appearance.showsTeamPhotos, photos: photos,
            uploadProgress: progress.flatMap { $0.isNaN ? nil : $0 }, card: card, status: status,
            isPending: message.status == .sending && message.showsPendingIndicator,
            tapRetries: message.status == .notDelivered && message.retry == .available, fade: place.fade,
            announcement: announcement, accessibilityLabel: spoken,
            controls: Self.controls(status: status, card: card, photos: photos, runs: runs, texts: texts))
    }

    /// Issue 50: the row's controls as their own elements, named for Voice Control.
    @inline(never) @_optimize(size) static func controls(
        status: MessageRow.Status?, card: MessageRow.Card?, photos: [MessageRow.Photo], runs: [MessageRow.TextRun],
        texts: ChatTexts
    ) -> [MessageRow.Control] {
        var controls: [MessageRow.Control] = []
        if let status, let action = status.action, let title = status.actionTitle {
            let short = texts.text(action == .retry ? .retry : .cancel)
            controls.append(MessageRow.Control(
                kind: .status(action), id: "status", label: title,
                inputLabels: short == title ? [title] : [short, title], isEnabled: status.isActionEnabled))
        }
        if let card {
            controls.append(MessageRow.Control(
                kind: .card, id: "card", label: card.buttonTitle, inputLabels: [card.buttonTitle],
                isEnabled: card.isEnabled))
        }
        // Each photo's label is its own already ("View photo 2 of 3"), so Voice Control can tell them apart.
        for photo in photos where photo.isConfirmed {
            let name = photo.accessibilityLabel
            controls.append(MessageRow.Control(
                kind: .photo(id: photo.id), id: photo.id, label: name, inputLabels: [name], isEnabled: true))
        }
        for (index, run) in runs.enumerated() {
            guard let link = run.link else { continue }
            controls.append(MessageRow.Control(
                kind: .link(link), id: "link-\(index)", label: run.text, inputLabels: [run.text], isEnabled: true))
        }
        return controls
    }

    /// The direction of the first scalar of `text` with a strong direction (issue 50: a message aligns by its own
    /// script). Right-to-left: Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic and their presentation
    /// forms; any other letter reads left to right.
    @inline(never) @_optimize(size) static func direction(of text: String) -> MessageRow.TextDirection? {
        let rightToLeft: [ClosedRange<UInt32>] = [
            0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF,
        ]
        for scalar in text.unicodeScalars where scalar.properties.isAlphabetic {
            // Combining marks and the like carry no direction of their own.
            guard scalar.properties.generalCategory != .nonspacingMark else { continue }
            return rightToLeft.contains { $0.contains(scalar.value) } ? .rightToLeft : .leftToRight
        }
        return nil
    }

    /// Seed 001 "Sending status" with spec 7.24's grouping: a failure always shows, with Retry, a countdown with
    /// Cancel, or a disabled Retry; "Sending…" (once the pending indicator shows) and "Sent" only under the last
    /// own message; team replies have none.
    @inline(never) @_optimize(size)
    static func status(of message: ChatMessage, isLastOwn: Bool, texts: ChatTexts) -> MessageRow.Status? {
        guard !message.sender.isIncoming, let label = texts.status(message.status) else { return nil }
        switch message.status {
        case .notDelivered:
            var status = MessageRow.Status(
                text: label, detail: nil, action: nil, actionTitle: nil, isActionEnabled: false, isFailure: true,
                accessibilityLabel: label)
            switch message.retry {
            case .available:
                status.action = .retry
                status.actionTitle = texts.retry
                status.isActionEnabled = true
            case .automaticResend(let seconds):
                status.detail = texts.text(.resendCountdown, texts.relativeTime(seconds: Double(seconds)))
                status.action = .cancelAutomaticResend
                status.actionTitle = texts.cancel
                status.isActionEnabled = true
            case .disabledFor(let seconds):
                status.action = .retry
                status.actionTitle = texts.text(.retryAfter, texts.relativeTime(seconds: Double(seconds)))
            case .notAllowed, .none:
                break
            }
            status.accessibilityLabel = [status.text, status.detail, status.actionTitle].compactMap { $0 }
                .joined(separator: ". ")
            return status
        case .sending:
            guard isLastOwn, message.showsPendingIndicator else { return nil }
            let detail = message.uploadProgress == nil ? nil : texts.text(.uploading)
            return MessageRow.Status(
                text: label, detail: detail, action: nil, actionTitle: nil, isActionEnabled: false, isFailure: false,
                accessibilityLabel: [label, detail].compactMap { $0 }.joined(separator: ". "))
        case .sent:
            guard isLastOwn else { return nil }
            return MessageRow.Status(
                text: label, detail: nil, action: nil, actionTitle: nil, isActionEnabled: false, isFailure: false,
                accessibilityLabel: label)
        case .received:
            return nil
        }
    }

    /// Confirmed attachments, else the local previews (spec 7.24's aspect ratios).
    @inline(never)
    @_optimize(size) static func photos(of message: ChatMessage, texts: ChatTexts) -> [MessageRow.Photo] {
        if !message.attachments.isEmpty {
            let count = message.attachments.count
            return message.attachments.enumerated().map { index, attachment in
                // Several photos are told apart by their position ("View photo 2 of 3").
                MessageRow.Photo(
                    id: MessageRow.Photo.id(at: index), source: .confirmed(attachment),
                    aspectRatio: aspectRatio(width: attachment.width, height: attachment.height),
                    accessibilityLabel: count == 1
                        ? texts.text(.viewPhoto) : texts.text(.viewNumberedPhoto, String(index + 1), String(count)))
            }
        }
        return message.localPhotos.enumerated().map { index, jpeg in
            let size = JPEGSize(jpeg)
            return MessageRow.Photo(
                id: MessageRow.Photo.id(at: index), source: .pending(jpeg),
                aspectRatio: aspectRatio(width: size?.width, height: size?.height),
                accessibilityLabel: texts.text(.photoPending))
        }
    }

    /// Width over height, square when unknown, within 1/4…4.
    @inline(never) @_optimize(size) static func aspectRatio(width: Int?, height: Int?) -> Double {
        guard let width, let height, width > 0, height > 0 else { return 1 }
        return min(max(Double(width) / Double(height), 0.25), 4)
    }

    /// Seed 001: a review card with a link and a paywall card get a button; a review without a link shows its text
    /// alone. Spec 4.2: an offer whose paywall is not available now (or without a handler) is disabled and says
    /// "No longer available".
    @inline(never) @_optimize(size) static func card(
        of message: ChatMessage, texts: ChatTexts, availablePaywalls: Set<String>? = nil
    ) -> MessageRow.Card? {
        guard let title = texts.buttonTitle(for: message) else { return nil }
        switch message.kind {
        case .review:
            return MessageRow.Card(buttonTitle: title, action: .review, isEnabled: true)
        case .paywall:
            guard let id = message.paywallId, !id.isEmpty else { return nil }
            let available = availablePaywalls.map { $0.contains(id) } ?? true
            return MessageRow.Card(
                buttonTitle: available ? title : texts.text(.offerUnavailable), action: .paywall(id: id),
                isEnabled: available)
        default:
            return nil
        }
    }

    /// Hashes the transcript only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(transcript) }
}

/// Spec 7.24's timestamp rows in the chat language: the time alone on the day of `now`, the weekday, day, month and
/// time within the year, and the year too before that. A class: made once per rebuild and only read.
final class TimestampWording: Sendable {
    let now: Date
    let calendar: Calendar
    let locale: Locale

    @inline(never) @_optimize(size) init(now: Date, timeZone: TimeZone, language: String) {
        self.now = now
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
        locale = Locale(identifier: language)
    }

    @inline(never) @_optimize(size) func text(_ date: Date) -> String {
        var style = Date.FormatStyle(date: .omitted, time: .shortened, locale: locale, calendar: calendar,
                                     timeZone: calendar.timeZone)
        if !calendar.isDate(date, inSameDayAs: now) {
            style = style.weekday(.abbreviated).day().month(.abbreviated)
            if calendar.component(.year, from: date) != calendar.component(.year, from: now) { style = style.year() }
        }
        return date.formatted(style)
    }
}

extension ChatModel {
    /// The screen for the model's current state in its texts, with `appearance`'s names, photos and hidden parts;
    /// timestamps are worded against `now` in `timeZone`. It reads the composer too: a screen that lays out the
    /// transcript reads `transcriptPresentation` and lets its composer read `composerPresentation`, so typing
    /// invalidates only the composer.
    @inline(never) @_optimize(size) public func presentation(
        appearance: ChatAppearance, now: Date = Date(), timeZone: TimeZone = .current,
        availablePaywalls: Set<String>? = nil
    ) -> ChatPresentation {
        ChatPresentation(
            transcript: transcriptPresentation(
                appearance: appearance, now: now, timeZone: timeZone, availablePaywalls: availablePaywalls),
            composer: composerPresentation)
    }

    /// What a chat screen shows before the SDK has a chat (not configured yet): the empty state in `texts`.
    @inline(never) @_optimize(size) public nonisolated static func unconfiguredPresentation(
        texts: ChatTexts = .english, appearance: ChatAppearance
    ) -> ChatPresentation {
        ChatPresentation(
            messages: [], composer: idleComposer, banner: .hidden, agentTyping: false, team: [], texts: texts,
            appearance: appearance, now: Date(timeIntervalSince1970: 0))
    }
}
