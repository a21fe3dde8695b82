import Foundation

/// When the transcript follows the newest message, and when it leaves the reader where they are (issue 39).
///
/// A screen feeds it what happens (it appeared, the reader's place changed, the rows changed, a teammate started
/// typing, the reader tapped the new-messages control) and obeys what it answers: scroll to the bottom, animated
/// or at once, or stay. The rules:
///
/// - Opening the chat starts at the bottom, at once.
/// - While the reader is at or near the bottom (`nearBottomDistance`), new rows and the typing indicator are
///   followed: the transcript scrolls down, animated.
/// - Scrolled up, the reader keeps their place: team replies that arrive are counted instead, and
///   `newMessagesControl(texts:)` offers "3 new messages", which scrolls down when tapped and clears.
/// - The customer's own send always scrolls down, and clears the count.
/// - Rows that appear above the newest row already shown (older history) are never new, and neither is a
///   transcript that shares no row with the one before (the first load into an empty chat, a reset): it is shown
///   from its bottom at once.
/// - Reaching the bottom by hand clears the count.
/// - Only scrolling leaves the bottom: when the content grows under a following reader or the viewport shrinks (the
///   keyboard), the transcript scrolls back down instead of treating the reader as gone; a scroll up in the same
///   frame as such a change (a lazy row measured again as the reader flicks up) still leaves the bottom.
///
/// It is a value with no clock and no view: every rule is tested on Linux.
public struct TranscriptFollowing: Sendable, Hashable {
    /// How to bring the bottom into view.
    public enum Scroll: Sendable, Hashable {
        /// With the screen's scroll animation (none under Reduce Motion).
        case animated
        /// At once (opening the chat, a first load into an empty transcript).
        case immediate
    }

    /// Where the reader is, as the scroll view's geometry says: reported by the screen whenever it changes.
    ///
    /// The viewport is the scroll view less its bottom inset: the composer (a `.safeAreaInset`), the home
    /// indicator and the keyboard cover the content there, and a transcript at rest at the bottom ends at the
    /// inset's top edge, not at the scroll view's. Measured against the whole scroll view, the reader at the bottom
    /// would sit the inset's height short of it and the near-bottom line would be the inset plus
    /// `nearBottomDistance` away.
    ///
    /// Two positions are equal when the screen need not report the second: the same side of the near-bottom line,
    /// the same sizes, and, near the bottom only, the same distance from it. So a reader scrolling far above the
    /// bottom is reported only when a size changes, and the last report before they cross the line says exactly
    /// where they were.
    public struct Position: Sendable, Hashable {
        /// The bottom of the content is within `nearBottomDistance` of the bottom of the viewport (or the
        /// content is shorter than it).
        public var isNearBottom: Bool
        /// The content's height, in whole points.
        public var contentHeight: Int
        /// The viewport's height (the visible area less its bottom inset), in whole points.
        public var visibleHeight: Int
        /// How far the content's bottom is below the viewport's, in whole points (0 or less at the bottom, 0 when
        /// it cannot be measured).
        public var distanceFromBottom: Int

        /// The distance as far as equality goes: only near the bottom.
        @_optimize(size) private var reportedDistance: Int { isNearBottom ? distanceFromBottom : 0 }

        @inline(never) @_optimize(size) public static func == (lhs: Position, rhs: Position) -> Bool {
            lhs.isNearBottom == rhs.isNearBottom && lhs.contentHeight == rhs.contentHeight
                && lhs.visibleHeight == rhs.visibleHeight && lhs.reportedDistance == rhs.reportedDistance
        }

        @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
            hasher.combine(isNearBottom)
            hasher.combine(contentHeight)
            hasher.combine(visibleHeight)
            hasher.combine(reportedDistance)
        }

        /// The position of content whose bottom edge is at `contentBottom` in the scroll view's coordinates (0 at
        /// its top), `contentHeight` tall, in a scroll view `visibleHeight` tall whose bottom `bottomInset` points
        /// are covered (the composer, the home indicator, the keyboard). Values that are not finite count as at
        /// the bottom, so a geometry the screen cannot measure never strands the reader.
        @inline(never) @_optimize(size)
        public init(contentBottom: Double, contentHeight: Double, visibleHeight: Double, bottomInset: Double = 0) {
            let inset = bottomInset.isFinite ? max(0, bottomInset) : 0
            let viewport = visibleHeight - inset
            let distance = contentBottom - viewport
            isNearBottom = !distance.isFinite || distance <= TranscriptFollowing.nearBottomDistance
            self.contentHeight = Self.points(contentHeight)
            self.visibleHeight = Self.points(viewport)
            distanceFromBottom = Self.points(distance)
        }

        /// The position from a scroll view's own geometry (iOS 18's `ScrollGeometry`): the content
        /// `contentHeight` tall, scrolled so that `visibleTop` (the visible rect's top, in content coordinates) is
        /// at the top of a container `containerHeight` tall, with `bottomInset` points covered at its bottom.
        @inline(never) @_optimize(size)
        public init(contentHeight: Double, visibleTop: Double, containerHeight: Double, bottomInset: Double) {
            self.init(
                contentBottom: contentHeight - visibleTop, contentHeight: contentHeight,
                visibleHeight: containerHeight, bottomInset: bottomInset)
        }

        /// Whole points, clamped so that no measurement can trap.
        @inline(never) @_optimize(size) private static func points(_ value: Double) -> Int {
            guard value.isFinite else { return 0 }
            return Int(min(max(value, -1e9), 1e9).rounded())
        }
    }

    /// The "New messages" control: its title (also its VoiceOver label) and hint.
    public struct NewMessagesControl: Sendable, Hashable {
        /// "1 new message", "3 new messages".
        public var title: String
        /// "Scrolls to the newest message."
        public var accessibilityHint: String

        /// Hashes the title only; `==` compares every field, so equal values hash alike.
        @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(title) }
    }

    /// How far above the bottom (in points) the reader still counts as at the bottom: a short scroll, a bubble's
    /// status line, do not stop the transcript from following.
    public static let nearBottomDistance: Double = 44

    /// The transcript follows new rows and typing (the reader is at or near the bottom).
    public private(set) var isFollowing = true
    /// Team replies that arrived while the reader was scrolled up and that they have not scrolled down to.
    public private(set) var unseenCount = 0
    /// The rows last seen, by ID.
    private var knownRows: Set<String> = []
    /// The last position reported.
    private var lastPosition: Position?
    /// The screen appeared once already (it comes back from a full-screen cover the host or the photo viewer
    /// showed over it).
    private var hasAppeared = false

    /// A transcript with no rows yet, following.
    @_optimize(size) public init() {}

    /// The screen appeared with `rows`. The first time it starts at the bottom, at once, with nothing unseen; when
    /// it appears again (back from a full-screen cover: the host's paywall, the photo viewer) the reader keeps
    /// their place, and what arrived meanwhile is treated as any change (issue 50): followed at the bottom,
    /// counted as new when scrolled up. `nil`: no scroll.
    @inline(never) @_optimize(size) public mutating func appeared(rows: [MessageRow]) -> Scroll? {
        if hasAppeared { return rowsChanged(rows) }
        hasAppeared = true
        knownRows = Set(rows.map(\.id))
        isFollowing = true
        unseenCount = 0
        lastPosition = nil
        return .immediate
    }

    /// The rows are now `rows` (oldest first). Returns the scroll to make, or `nil` to leave the reader's place.
    @inline(never) @_optimize(size) public mutating func rowsChanged(_ rows: [MessageRow]) -> Scroll? {
        // Arrivals are the rows after the newest row already known; unknown rows above it are older history.
        let lastKnown = rows.lastIndex { knownRows.contains($0.id) }
        let arrivals = rows[(lastKnown.map { $0 + 1 } ?? 0)...]
        knownRows = Set(rows.map(\.id))
        guard !rows.isEmpty else {
            unseenCount = 0
            return nil
        }
        guard !arrivals.isEmpty else { return nil }
        // None of the rows seen before: the first load into an empty chat, or a transcript replaced (a chat reset).
        // It is shown from its bottom at once, and nothing in it is new.
        guard lastKnown != nil else {
            isFollowing = true
            unseenCount = 0
            return .immediate
        }
        if arrivals.contains(where: { $0.side == .own }) {
            isFollowing = true
            unseenCount = 0
            return .animated
        }
        if isFollowing { return .animated }
        unseenCount += arrivals.filter { $0.side == .team }.count
        return nil
    }

    /// A teammate started typing: the typing indicator is followed only at the bottom.
    @inline(never) @_optimize(size) public mutating func typingStarted() -> Scroll? {
        isFollowing ? .animated : nil
    }

    /// The reader tapped the new-messages control: down to the newest message, following again.
    @inline(never) @_optimize(size) public mutating func jumpTapped() -> Scroll {
        isFollowing = true
        unseenCount = 0
        return .animated
    }

    /// The scroll view's geometry changed to `position`. Returns the scroll to make, or `nil`.
    @inline(never) @_optimize(size) public mutating func readerMoved(to position: Position) -> Scroll? {
        let last = lastPosition
        lastPosition = position
        if position.isNearBottom {
            isFollowing = true
            unseenCount = 0
            return nil
        }
        guard isFollowing else { return nil }
        // The first report after appearing, before the opening scroll landed.
        guard let last else { return .immediate }
        // The bottom went out of view while following. The content growing (a new row, a status line, a photo, a
        // lazy row's estimated height corrected) moves the bottom down by the growth, the viewport shrinking (the
        // keyboard) by the shrink; whatever else moved it away is the reader's own scroll. So a reader who flicks
        // up in the very frame a row above is measured again is not pulled back down: they are reading above now.
        // Only growth and shrink alone keep the bottom in view.
        // The rounding slack applies only when a size changed: with the sizes as they were, any step away from the
        // bottom is the reader's, and a slow drag leaves the near-bottom zone a point or two at a time.
        let sizesChanged = position.contentHeight != last.contentHeight || position.visibleHeight != last.visibleHeight
        if Self.readerScroll(from: last, to: position) > (sizesChanged ? Self.readerScrollTolerance : 0) {
            isFollowing = false
            return nil
        }
        return .animated
    }

    /// How far (in points) the reader may seem to scroll up between two reports in which a size changed, from
    /// rounding, and still count as not having scrolled.
    public static let readerScrollTolerance = 2

    /// How far the reader scrolled up between two reports: the change in distance from the bottom that neither the
    /// content's growth nor the viewport's shrink accounts for.
    @inline(never) @_optimize(size) static func readerScroll(from last: Position, to position: Position) -> Int {
        let moved = Int64(position.distanceFromBottom) - Int64(last.distanceFromBottom)
        let grown = Int64(position.contentHeight) - Int64(last.contentHeight)
        let shrunk = Int64(last.visibleHeight) - Int64(position.visibleHeight)
        return Int(clamping: moved - grown - shrunk)
    }

    /// The control to show over the transcript, in `texts`' language; `nil` while nothing is unseen.
    @inline(never) @_optimize(size) public func newMessagesControl(texts: ChatTexts) -> NewMessagesControl? {
        guard unseenCount > 0 else { return nil }
        return NewMessagesControl(
            title: texts.text(.newMessages, count: unseenCount), accessibilityHint: texts.text(.newMessagesHint))
    }

    /// Hashes the number of known rows only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(knownRows.count) }
}
