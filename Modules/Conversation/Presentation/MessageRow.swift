import Foundation
import ReceptionCore

/// One row of the transcript as a chat screen shows it (seed 001, spec 7.24): which side, what text and photos, who
/// wrote it, its card button, its status line and what VoiceOver reads. `ChatPresentation` decides every field, so
/// the SwiftUI chat and the terminal app show the same chat, and the rules are tested on any platform.
public struct MessageRow: Sendable, Hashable, Identifiable {
    /// Which side of the transcript the bubble sits on (leading for the team, trailing for the person's own).
    public enum Side: Sendable, Hashable {
        /// The person's own message.
        case own
        /// A reply from the team.
        case team
    }

    /// A photo in the bubble.
    public struct Photo: Sendable, Hashable, Identifiable {
        /// What the photo is.
        public indirect enum Source: Sendable, Hashable {
            /// A confirmed attachment: load it with `ChatModel.photo(_:)`; tapping opens the full-screen viewer.
            case confirmed(Attachment)
            /// A local JPEG preview of a photo the service has not confirmed: marked pending, never opened in the
            /// viewer; tapping it retries the message when Retry is available.
            case pending(Data)

            /// Hashes the case only; `==` compares the values too, so equal values hash alike.
            @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
                switch self {
                case .confirmed: hasher.combine(0)
                case .pending: hasher.combine(1)
                }
            }

            /// Written rather than synthesized, and compiled for size: the synthesized `==` takes in `Data`'s comparison,
            /// up to 0.7 kB on iOS (Docs/Footprint.md). It compares every case and value (`WrittenEqualityTests`).
            @inline(never) @_optimize(size) public static func == (lhs: Source, rhs: Source) -> Bool {
                switch (lhs, rhs) {
                case (.confirmed(let left), .confirmed(let right)): left == right
                case (.pending(let left), .pending(let right)): left == right
                case (.confirmed, _), (.pending, _): false
                }
            }
        }

        /// Its place in the row, `photo-<index>`: the same for the pending preview and the confirmed attachment
        /// that replaces it, so a screen keeps the tile (and the image it shows) when a sent photo is confirmed
        /// instead of starting over with a spinner (issue 39). The attachment is `source`'s.
        public var id: String
        /// The photo.
        public var source: Source
        /// Width over height (spec 7.24: the attachment's ratio, else the local image's, else square), clamped to
        /// 1/4…4 so a hostile size cannot make a bubble a hairline.
        public var aspectRatio: Double
        /// What VoiceOver reads for it ("View photo", or "Not sent yet").
        public var accessibilityLabel: String

        /// The `id` of the photo at `index` of its row.
        @_optimize(size) static func id(at index: Int) -> String { "photo-\(index)" }

        /// Whether it is a confirmed attachment (it opens the viewer).
        @inline(never) @_optimize(size) public var isConfirmed: Bool {
            if case .confirmed = source { return true }
            return false
        }

        /// Hashes the ID only; `==` compares every field, so equal values hash alike.
        @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }

    /// The teammate shown beside a team reply (seed 001 "Team photos and names", spec 7.24).
    public struct Author: Sendable, Hashable {
        /// The first name, shown above the first bubble of a group when the appearance shows team names.
        public var name: String?
        /// The photo's bytes when team photos are shown and it is downloaded.
        public var photo: Data?
        /// A key that names these photo bytes (the teammate's `photoKey`), for a screen's cache of decoded avatars.
        public var photoKey: String?
        /// The placeholder avatar's letter (the name's first character).
        public var initial: String
        /// Whether this row draws the avatar (the last bubble of a group, team photos on, known author).
        public var showsAvatar: Bool

        /// Hashes the name only; `==` compares every field, so equal values hash alike.
        @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    /// A review or paywall card's button (seed 001 "Review cards", "Paywall cards").
    public struct Card: Sendable, Hashable {
        /// What tapping the button does.
        public indirect enum Action: Sendable, Hashable {
            /// Opens the App Store review link through the system URL action and records the click.
            case review
            /// Calls the host's `onPaywall` with the paywall's ID and records the click.
            case paywall(id: String)

            /// Hashes the case only; `==` compares the values too, so equal values hash alike.
            @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
                switch self {
                case .review: hasher.combine(0)
                case .paywall: hasher.combine(1)
                }
            }
        }
        /// The button's title: the agent's label, or the localized default; "No longer available" when disabled.
        public var buttonTitle: String
        /// What the button does.
        public var action: Action
        /// Spec 4.2: an offer card's button works only while the host has a paywall handler and the paywall is
        /// among the available ones; otherwise it shows a disabled "No longer available" state.
        public var isEnabled: Bool

        /// Hashes the button title only; `==` compares every field, so equal values hash alike.
        @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(buttonTitle) }
    }

    /// The status line under an own message (seed 001 "Sending status", spec 7.24).
    public struct Status: Sendable, Hashable {
        /// What the status line's control does.
        public enum Action: Sendable, Hashable {
            /// "Retry" (enabled or not: see `isActionEnabled`).
            case retry
            /// "Cancel" of an automatic resend countdown.
            case cancelAutomaticResend
        }
        /// "Sending…", "Sent" or "Not delivered".
        public var text: String
        /// A wait beside it: "Sending again in 5 seconds", or "Uploading photos" while photos upload.
        public var detail: String?
        /// The control shown beside it, if any.
        public var action: Action?
        /// The control's title: "Retry", "Retry in 30 seconds" (disabled) or "Cancel".
        public var actionTitle: String?
        /// Whether the control can be tapped (Retry is disabled while a wait holds the message).
        public var isActionEnabled: Bool
        /// The message was not delivered (drawn as a failure).
        public var isFailure: Bool
        /// What VoiceOver reads, e.g. "Not delivered. Retry".
        public var accessibilityLabel: String

        /// Hashes the text only; `==` compares every field, so equal values hash alike.
        @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(text) }
    }

    /// A piece of a message's text: plain, or a link the person can tap (issue 50).
    public struct TextRun: Sendable, Hashable {
        /// The text as written.
        public var text: String
        /// What tapping it opens: an `http`, `https`, `mailto` or `tel` URL, handed to the host's `openURL`;
        /// `nil` for plain text.
        public var link: URL?

        /// Hashes the text only; `==` compares every field, so equal values hash alike.
        @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(text) }
    }

    /// The direction a text reads in, from its own script.
    public enum TextDirection: Sendable, Hashable {
        /// Latin, Cyrillic, CJK, …
        case leftToRight
        /// Arabic, Hebrew, …
        case rightToLeft
    }

    /// A control of the row reachable on its own (issue 50): by Voice Control's names, Full Keyboard Access focus and
    /// VoiceOver, besides the row's one-sentence label and its actions menu.
    public struct Control: Sendable, Hashable, Identifiable {
        /// Which control.
        public indirect enum Kind: Sendable, Hashable {
            /// The status line's Retry or Cancel.
            case status(Status.Action)
            /// The card's button.
            case card
            /// The confirmed photo `id` (`Photo.id`): opens the viewer.
            case photo(id: String)
            /// A link in the text (`TextRun.link`): opens through the host's `openURL`.
            case link(URL)

            /// Hashes the case only; `==` compares the values too, so equal values hash alike.
            @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
                switch self {
                case .status: hasher.combine(0)
                case .card: hasher.combine(1)
                case .photo: hasher.combine(2)
                case .link: hasher.combine(3)
                }
            }
        }
        /// What it is.
        public var kind: Kind
        /// Unique in the row.
        public var id: String
        /// What VoiceOver reads ("Retry in 30 seconds", "View offer", "View photo").
        public var label: String
        /// The names Voice Control answers to, the shortest first so "Tap Retry" works while the label says
        /// "Retry in 30 seconds"; photos are told apart by their labels ("View photo 2 of 3").
        public var inputLabels: [String]
        /// Whether it can be used now (a Retry held by a wait cannot).
        public var isEnabled: Bool

        /// Hashes the ID only; `==` compares every field, so equal values hash alike.
        @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }

    /// The message's local ID (stable across confirmation).
    @inline(never) @_optimize(size) public var id: String {
        get { values.id }
        set { unique().id = newValue }
    }
    /// Own or team.
    @inline(never) @_optimize(size) public var side: Side {
        get { values.side }
        set { unique().side = newValue }
    }
    /// The text; `nil` when the message has none (a photo-only message, a card without text).
    @inline(never) @_optimize(size) public var text: String? {
        get { values.text }
        set { unique().text = newValue }
    }
    /// `text` in runs, with its web links, e-mail addresses and phone numbers tappable (`LinkDetector`); the runs'
    /// texts joined are `text`. Empty when there is no text. The message stays plain text: no Markdown, no HTML.
    @inline(never) @_optimize(size) public var textRuns: [TextRun] {
        get { values.textRuns }
        set { unique().textRuns = newValue }
    }
    /// The direction of the text's first letter that has one, so a Hebrew message in an English chat aligns to
    /// the right and an English one in an Arabic chat to the left; `nil` when it has none (digits, emoji).
    @inline(never) @_optimize(size) public var textDirection: TextDirection? {
        get { values.textDirection }
        set { unique().textDirection = newValue }
    }
    /// Seed 001: text can be selected once sent (not while sending or after a failure).
    @inline(never) @_optimize(size) public var isTextSelectable: Bool {
        get { values.isTextSelectable }
        set { unique().isTextSelectable = newValue }
    }
    /// When more than 5 minutes passed since the previous message, the time shown above this row (spec 7.24).
    @inline(never) @_optimize(size) public var timestamp: Date? {
        get { values.timestamp }
        set { unique().timestamp = newValue }
    }
    /// `timestamp` in the chat language: the time alone today, else the day and the time (the year when it is not
    /// this year's).
    @inline(never) @_optimize(size) public var timestampText: String? {
        get { values.timestampText }
        set { unique().timestampText = newValue }
    }
    /// When the message was written (the service's time for a reply): what tells a reply written while the chat is
    /// open from the history an opening loads (`ChatAnnouncements`).
    @inline(never) @_optimize(size) public var createdAt: Date {
        get { values.createdAt }
        set { unique().createdAt = newValue }
    }
    /// The row starts a group (spec 7.24: same side, author and minute): a screen spaces groups apart.
    @inline(never) @_optimize(size) public var startsGroup: Bool {
        get { values.startsGroup }
        set { unique().startsGroup = newValue }
    }
    /// The row ends its group.
    @inline(never) @_optimize(size) public var endsGroup: Bool {
        get { values.endsGroup }
        set { unique().endsGroup = newValue }
    }
    /// The teammate, for team replies whose author is known while the appearance shows names or photos.
    @inline(never) @_optimize(size) public var author: Author? {
        get { values.author }
        set { unique().author = newValue }
    }
    /// Spec 7.24: team rows keep an avatar column when team photos are shown, drawn or not.
    @inline(never) @_optimize(size) public var reservesAvatarColumn: Bool {
        get { values.reservesAvatarColumn }
        set { unique().reservesAvatarColumn = newValue }
    }
    /// The photos: confirmed attachments, else the local previews.
    @inline(never) @_optimize(size) public var photos: [Photo] {
        get { values.photos }
        set { unique().photos = newValue }
    }
    /// Spec 7.9: the upload's progress, 0…1, while the photos of a sending message upload.
    @inline(never) @_optimize(size) public var uploadProgress: Double? {
        get { values.uploadProgress }
        set { unique().uploadProgress = newValue }
    }
    /// The card's button, if the message is a card that has one.
    @inline(never) @_optimize(size) public var card: Card? {
        get { values.card }
        set { unique().card = newValue }
    }
    /// The status line, shown only where the grouping rule puts it.
    @inline(never) @_optimize(size) public var status: Status? {
        get { values.status }
        set { unique().status = newValue }
    }
    /// Spec 7.8.3: still sending after 400 ms: the bubble is dimmed (opacity 0.6).
    @inline(never) @_optimize(size) public var isPending: Bool {
        get { values.isPending }
        set { unique().isPending = newValue }
    }
    /// Seed 001: tapping the failed bubble, its indicator or a failed photo retries the message.
    @inline(never) @_optimize(size) public var tapRetries: Bool {
        get { values.tapRetries }
        set { unique().tapRetries = newValue }
    }
    /// Spec 7.20 `fadesOlderMessages`: how much the own bubble lightens (0…0.24).
    @inline(never) @_optimize(size) public var fade: Double {
        get { values.fade }
        set { unique().fade = newValue }
    }
    /// What VoiceOver announces when this reply arrives (`ChatAnnouncements` says when; own messages never are):
    /// "Name: text", the team ("Support: text") when no name is shown, with its photos and card button after the
    /// text, or in place of it ("Anna: 1 photo").
    @inline(never) @_optimize(size) public var announcement: String {
        get { values.announcement }
        set { unique().announcement = newValue }
    }
    /// What VoiceOver reads for the whole row, e.g. "You: Hello. Not delivered. Retry".
    @inline(never) @_optimize(size) public var accessibilityLabel: String {
        get { values.accessibilityLabel }
        set { unique().accessibilityLabel = newValue }
    }
    /// The row's controls, each reachable on its own: the status line's control, the card's button, then each
    /// confirmed photo, in reading order.
    @inline(never) @_optimize(size) public var controls: [Control] {
        get { values.controls }
        set { unique().controls = newValue }
    }

    /// Every field, held once behind a reference: a row is copied into each view that draws part of it and into the
    /// closures those views keep, and one reference keeps each copy small. A class of its own rather than a struct in
    /// a `ValueBox`, whose value witnesses (copy, move and destruction, field by field) cost some 5 kB
    /// (Docs/Footprint.md, "Size on iOS").
    private var values: Values

    /// Copy on write: a change to a row whose values another row shares copies them first.
    /// The values to write to (a setter writes through it rather than through an `update` closure, which would be
    /// compiled at the host's `-O` once per property).
    @inline(never) @_optimize(size) private mutating func unique() -> Values {
        if !isKnownUniquelyReferenced(&values) { values = values.copy() }
        return values
    }

    @inline(never) @_optimize(size) public static func == (lhs: MessageRow, rhs: MessageRow) -> Bool {
        lhs.values === rhs.values || lhs.values.equals(rhs.values)
    }

    /// Hashes the ID, the text and the status: equal rows hash alike, and the rest is left to `==`.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(text)
        hasher.combine(status)
    }

    /// `@unchecked Sendable`: its fields change only through `update`, on a reference no other row holds.
    private final class Values: @unchecked Sendable {
        var id: String
        var side: Side
        var text: String?
        var textRuns: [TextRun]
        var textDirection: TextDirection?
        var isTextSelectable: Bool
        var timestamp: Date?
        var timestampText: String?
        var createdAt: Date
        var startsGroup: Bool
        var endsGroup: Bool
        var author: Author?
        var reservesAvatarColumn: Bool
        var photos: [Photo]
        var uploadProgress: Double?
        var card: Card?
        var status: Status?
        var isPending: Bool
        var tapRetries: Bool
        var fade: Double
        var announcement: String
        var accessibilityLabel: String
        var controls: [Control]

        @inline(never) @_optimize(size) init(
            id: String, side: Side, text: String?, textRuns: [TextRun], textDirection: TextDirection?,
            isTextSelectable: Bool, timestamp: Date?, timestampText: String?, createdAt: Date, startsGroup: Bool,
            endsGroup: Bool, author: Author?, reservesAvatarColumn: Bool, photos: [Photo], uploadProgress: Double?,
            card: Card?, status: Status?, isPending: Bool, tapRetries: Bool, fade: Double, announcement: String,
            accessibilityLabel: String, controls: [Control]
        ) {
            self.id = id
            self.side = side
            self.text = text
            self.textRuns = textRuns
            self.textDirection = textDirection
            self.isTextSelectable = isTextSelectable
            self.timestamp = timestamp
            self.timestampText = timestampText
            self.createdAt = createdAt
            self.startsGroup = startsGroup
            self.endsGroup = endsGroup
            self.author = author
            self.reservesAvatarColumn = reservesAvatarColumn
            self.photos = photos
            self.uploadProgress = uploadProgress
            self.card = card
            self.status = status
            self.isPending = isPending
            self.tapRetries = tapRetries
            self.fade = fade
            self.announcement = announcement
            self.accessibilityLabel = accessibilityLabel
            self.controls = controls
        }

        @inline(never) @_optimize(size) func copy() -> Values {
            Values(
                id: id, side: side, text: text, textRuns: textRuns, textDirection: textDirection,
                isTextSelectable: isTextSelectable, timestamp: timestamp, timestampText: timestampText,
                createdAt: createdAt, startsGroup: startsGroup, endsGroup: endsGroup, author: author,
                reservesAvatarColumn: reservesAvatarColumn, photos: photos, uploadProgress: uploadProgress,
                card: card, status: status, isPending: isPending, tapRetries: tapRetries, fade: fade,
                announcement: announcement, accessibilityLabel: accessibilityLabel, controls: controls)
        }

        /// Every field (`MessageRowValueTests` changes each one and expects the rows to differ).
        @inline(never) @_optimize(size) func equals(_ other: Values) -> Bool {
            // The arrays through `sameElements`, compiled once for every element type (Docs/Footprint.md).
            id == other.id && side == other.side && text == other.text && sameElements(textRuns, other.textRuns)
                && textDirection == other.textDirection && isTextSelectable == other.isTextSelectable
                && timestamp == other.timestamp && timestampText == other.timestampText && createdAt == other.createdAt
                && startsGroup == other.startsGroup && endsGroup == other.endsGroup && author == other.author
                && reservesAvatarColumn == other.reservesAvatarColumn && sameElements(photos, other.photos)
                && uploadProgress == other.uploadProgress && card == other.card && status == other.status
                && isPending == other.isPending && tapRetries == other.tapRetries && fade == other.fade
                && announcement == other.announcement && accessibilityLabel == other.accessibilityLabel
                && sameElements(controls, other.controls)
        }
    }

    /// A row; `ChatPresentation` makes every row a screen shows.
    @inline(never) @_optimize(size) init(
        id: String, side: Side, text: String?, textRuns: [TextRun] = [], textDirection: TextDirection? = nil,
        isTextSelectable: Bool, timestamp: Date?, timestampText: String?, createdAt: Date, startsGroup: Bool,
        endsGroup: Bool, author: Author?, reservesAvatarColumn: Bool, photos: [Photo], uploadProgress: Double?,
        card: Card?, status: Status?, isPending: Bool, tapRetries: Bool, fade: Double, announcement: String,
        accessibilityLabel: String, controls: [Control] = []
    ) {
        values = Values(
            id: id, side: side, text: text, textRuns: textRuns, textDirection: textDirection,
            isTextSelectable: isTextSelectable, timestamp: timestamp, timestampText: timestampText,
            createdAt: createdAt, startsGroup: startsGroup, endsGroup: endsGroup, author: author,
            reservesAvatarColumn: reservesAvatarColumn, photos: photos, uploadProgress: uploadProgress, card: card,
            status: status, isPending: isPending, tapRetries: tapRetries, fade: fade, announcement: announcement,
            accessibilityLabel: accessibilityLabel, controls: controls)
    }
}
