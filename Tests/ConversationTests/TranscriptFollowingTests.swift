import Foundation
import ReceptionCore
import Testing
@testable import Conversation

/// When the transcript follows the newest message and when it leaves the reader's place (issue 39), rule by rule,
/// through `TranscriptFollowing` fed the way `TranscriptView` feeds it.
@Suite("TranscriptFollowingTests")
struct TranscriptFollowingTests {
    typealias Position = TranscriptFollowing.Position

    /// The rows of `ids`, each `own` when it starts with "o", else from the team.
    static func rows(_ ids: String...) -> [MessageRow] {
        ChatPresentationTests.screen(
            ids.map { ChatPresentationTests.message($0, $0.hasPrefix("o") ? .user : .agent, text: "text \($0)") }
        ).rows
    }

    /// At the bottom of 1,000 points of content in a 600-point viewport.
    static let bottom = Position(contentBottom: 600, contentHeight: 1000, visibleHeight: 600)
    /// The same content, scrolled 300 points up.
    static let above = Position(contentBottom: 900, contentHeight: 1000, visibleHeight: 600)

    /// A transcript opened on `ids`, the reader at the bottom.
    static func atBottom(_ ids: String...) -> TranscriptFollowing {
        var following = TranscriptFollowing()
        _ = following.appeared(rows: ids.flatMap { rows($0) })
        _ = following.readerMoved(to: bottom)
        return following
    }

    /// A transcript opened on `ids`, then scrolled up by the reader.
    static func scrolledUp(_ ids: String...) -> TranscriptFollowing {
        var following = TranscriptFollowing()
        _ = following.appeared(rows: ids.flatMap { rows($0) })
        _ = following.readerMoved(to: bottom)
        _ = following.readerMoved(to: above)
        return following
    }

    @Test("opening the chat starts at the bottom, at once, following, with nothing unseen")
    func openingStartsAtTheBottom() {
        var following = TranscriptFollowing()
        #expect(following.appeared(rows: Self.rows("a", "b")) == .immediate)
        #expect(following.isFollowing)
        #expect(following.unseenCount == 0)
        // The first geometry report, before the opening scroll landed, scrolls there at once too.
        var fresh = TranscriptFollowing()
        _ = fresh.appeared(rows: Self.rows("a"))
        #expect(fresh.readerMoved(to: Self.above) == .immediate)
        #expect(fresh.isFollowing)
    }

    @Test("issue 50: back from a full-screen cover the reader keeps their place; what came meanwhile counts as new")
    func backFromACoverKeepsThePlace() {
        var following = Self.scrolledUp("a")
        // The host's paywall (or the photo viewer) covered the chat; a reply arrived; the screen appears again.
        #expect(following.appeared(rows: Self.rows("a", "b")) == nil, "no jump to the bottom")
        #expect(!following.isFollowing)
        #expect(following.unseenCount == 1)
        // At the bottom before the cover: it still follows.
        var atBottom = Self.atBottom("a")
        #expect(atBottom.appeared(rows: Self.rows("a")) == nil)
        #expect(atBottom.appeared(rows: Self.rows("a", "b")) == .animated)
    }

    @Test("at the bottom, a team reply and the typing indicator are followed, animated")
    func atTheBottomNewRowsAndTypingAreFollowed() {
        var following = Self.atBottom("a")
        #expect(following.rowsChanged(Self.rows("a", "b")) == .animated)
        #expect(following.typingStarted() == .animated)
        #expect(following.unseenCount == 0)
    }

    @Test("near the bottom (within 44 points) counts as at the bottom; beyond it does not")
    func nearTheBottomCountsAsTheBottom() {
        #expect(Position(contentBottom: 644, contentHeight: 1000, visibleHeight: 600).isNearBottom)
        #expect(!Position(contentBottom: 645, contentHeight: 1000, visibleHeight: 600).isNearBottom)
        // Content shorter than the viewport is always at its bottom; so is a geometry that cannot be measured.
        #expect(Position(contentBottom: 200, contentHeight: 200, visibleHeight: 600).isNearBottom)
        #expect(Position(contentBottom: 900, contentHeight: 1000, visibleHeight: .infinity).isNearBottom)
        #expect(Position(contentBottom: .nan, contentHeight: .nan, visibleHeight: 600).isNearBottom)
    }

    @Test("the bottom is the composer's top edge: the inset under the composer is not part of the viewport")
    func nearTheBottomIsMeasuredAboveTheComposer() {
        // An 800-point scroll view with the composer and the home indicator (130 points) over its bottom.
        let atRest = Position(contentBottom: 670, contentHeight: 2000, visibleHeight: 800, bottomInset: 130)
        #expect(atRest.isNearBottom)
        #expect(atRest.visibleHeight == 670)
        let justWithin = Position(contentBottom: 714, contentHeight: 2000, visibleHeight: 800, bottomInset: 130)
        #expect(justWithin.isNearBottom)
        // 60 points up is past the 44-point line, though its bottom is still 70 points inside the scroll view.
        let scrolledUp = Position(contentBottom: 730, contentHeight: 2000, visibleHeight: 800, bottomInset: 130)
        #expect(!scrolledUp.isNearBottom)
        #expect(Position(contentBottom: 730, contentHeight: 2000, visibleHeight: 800, bottomInset: .nan).isNearBottom,
                "an inset that cannot be measured counts as none")
    }

    @Test("iOS 18's scroll geometry (visible rect, content insets) gives the same position as the frames")
    func positionFromScrollGeometry() {
        // At the bottom the content offset is the content height plus the bottom inset less the container.
        let atRest = Position(contentHeight: 2000, visibleTop: 2000 + 130 - 800, containerHeight: 800, bottomInset: 130)
        #expect(atRest.isNearBottom)
        #expect(atRest == Position(contentBottom: 670, contentHeight: 2000, visibleHeight: 800, bottomInset: 130))
        let scrolledUp = Position(contentHeight: 2000, visibleTop: 1230, containerHeight: 800, bottomInset: 130)
        #expect(!scrolledUp.isNearBottom)
    }

    @Test("the keyboard growing the bottom inset shrinks the viewport: a following transcript scrolls back down")
    func keyboardInsetKeepsFollowing() {
        var following = Self.atBottom("a")
        _ = following.readerMoved(
            to: Position(contentBottom: 670, contentHeight: 2000, visibleHeight: 800, bottomInset: 130))
        let keyboard = Position(contentBottom: 670, contentHeight: 2000, visibleHeight: 800, bottomInset: 400)
        #expect(!keyboard.isNearBottom)
        #expect(following.readerMoved(to: keyboard) == .animated)
        #expect(following.isFollowing)
    }

    @Test("scrolled up, a team reply keeps the reader's place and is counted")
    func scrolledUpRepliesAreCountedNotFollowed() {
        var following = Self.scrolledUp("a")
        #expect(!following.isFollowing)
        #expect(following.rowsChanged(Self.rows("a", "b")) == nil)
        #expect(following.rowsChanged(Self.rows("a", "b", "c", "d")) == nil)
        #expect(following.unseenCount == 3)
    }

    @Test("scrolled up, typing does not scroll and is not counted")
    func scrolledUpTypingStays() {
        var following = Self.scrolledUp("a")
        #expect(following.typingStarted() == nil)
        #expect(following.unseenCount == 0)
        #expect(following.newMessagesControl(texts: .english) == nil)
    }

    @Test("the control counts in the chat language's plural: 1 new message, 3 new messages")
    func theControlCountsInPlural() throws {
        var following = Self.scrolledUp("a")
        _ = following.rowsChanged(Self.rows("a", "b"))
        let one = try #require(following.newMessagesControl(texts: .english))
        #expect(one.title == "1 new message")
        #expect(one.accessibilityHint == "Scrolls to the newest message.")
        _ = following.rowsChanged(Self.rows("a", "b", "c", "d"))
        #expect(following.newMessagesControl(texts: .english)?.title == "3 new messages")
        #expect(following.newMessagesControl(texts: ChatTexts(language: "ru"))?.title == "3 новых сообщения")
        #expect(following.newMessagesControl(texts: ChatTexts(language: "de"))?.title == "3 neue Nachrichten")
    }

    @Test("tapping the control scrolls down, animated, follows again and clears the count")
    func jumpScrollsDownAndClears() {
        var following = Self.scrolledUp("a")
        _ = following.rowsChanged(Self.rows("a", "b"))
        #expect(following.jumpTapped() == .animated)
        #expect(following.unseenCount == 0)
        #expect(following.newMessagesControl(texts: .english) == nil)
        #expect(following.isFollowing)
        #expect(following.rowsChanged(Self.rows("a", "b", "c")) == .animated)
    }

    @Test("the customer's own send always scrolls down and clears the count")
    func ownSendAlwaysScrollsDown() {
        var following = Self.scrolledUp("a")
        _ = following.rowsChanged(Self.rows("a", "b"))
        #expect(following.rowsChanged(Self.rows("a", "b", "o1")) == .animated)
        #expect(following.unseenCount == 0)
        #expect(following.isFollowing)
        // A reply and the own message in one change: still down.
        var other = Self.scrolledUp("a")
        #expect(other.rowsChanged(Self.rows("a", "c", "o2")) == .animated)
        #expect(other.unseenCount == 0)
    }

    @Test("own messages are never counted as new")
    func ownMessagesAreNotCounted() {
        var following = Self.scrolledUp("a")
        _ = following.rowsChanged(Self.rows("a", "o1"))
        _ = following.readerMoved(to: Self.bottom)
        _ = following.readerMoved(to: Self.above)
        _ = following.rowsChanged(Self.rows("a", "o1", "b"))
        #expect(following.unseenCount == 1)
    }

    @Test("older history loaded above the rows shown is not new and does not scroll")
    func olderHistoryIsNotNew() {
        var following = Self.scrolledUp("c", "d")
        #expect(following.rowsChanged(Self.rows("a", "b", "c", "d")) == nil)
        #expect(following.unseenCount == 0)
        var atBottom = TranscriptFollowing()
        _ = atBottom.appeared(rows: Self.rows("c", "d"))
        #expect(atBottom.rowsChanged(Self.rows("a", "b", "c", "d")) == nil)
    }

    @Test("a re-presented row (status, link or name refresh) is not new")
    func refreshedRowsAreNotNew() {
        var following = Self.scrolledUp("a", "b")
        #expect(following.rowsChanged(Self.rows("a", "b")) == nil)
        #expect(following.unseenCount == 0)
    }

    @Test("the first load into an empty chat, and a replaced transcript, show their bottom at once, nothing new")
    func firstLoadShowsTheBottomAtOnce() {
        var following = TranscriptFollowing()
        _ = following.appeared(rows: [])
        #expect(following.rowsChanged(Self.rows("a", "b", "c")) == .immediate)
        #expect(following.unseenCount == 0)
        var reset = Self.scrolledUp("a", "b")
        #expect(reset.rowsChanged(Self.rows("x", "y")) == .immediate)
        #expect(reset.unseenCount == 0)
        #expect(reset.isFollowing)
        // An emptied transcript has nothing unseen.
        var emptied = Self.scrolledUp("a")
        _ = emptied.rowsChanged(Self.rows("a", "b"))
        #expect(emptied.rowsChanged([]) == nil)
        #expect(emptied.unseenCount == 0)
    }

    @Test("reaching the bottom by hand follows again and clears the count")
    func reachingTheBottomClears() {
        var following = Self.scrolledUp("a")
        _ = following.rowsChanged(Self.rows("a", "b", "c"))
        #expect(following.readerMoved(to: Self.bottom) == nil)
        #expect(following.unseenCount == 0)
        #expect(following.isFollowing)
    }

    @Test("only the reader's scroll leaves the bottom: growing content or a shrinking viewport scrolls back down")
    func onlyScrollingLeavesTheBottom() {
        var following = Self.atBottom("a")
        // A new row made the content taller before its change arrived: still following, back down.
        let grown = Position(contentBottom: 700, contentHeight: 1100, visibleHeight: 600)
        #expect(following.readerMoved(to: grown) == .animated)
        #expect(following.isFollowing)
        #expect(following.rowsChanged(Self.rows("a", "b")) == .animated)
        #expect(following.unseenCount == 0)
        // The keyboard shrank the viewport: still following, back down.
        _ = following.readerMoved(to: Position(contentBottom: 600, contentHeight: 1100, visibleHeight: 600))
        let keyboard = Position(contentBottom: 600, contentHeight: 1100, visibleHeight: 300)
        #expect(following.readerMoved(to: keyboard) == .animated)
        #expect(following.isFollowing)
        // The same content and viewport, further from the bottom: the reader scrolled up.
        let scrolled = Position(contentBottom: 900, contentHeight: 1100, visibleHeight: 300)
        _ = following.readerMoved(to: Position(contentBottom: 300, contentHeight: 1100, visibleHeight: 300))
        #expect(following.readerMoved(to: scrolled) == nil)
        #expect(!following.isFollowing)
    }

    @Test("a flick up in the frame a lazy row above is measured again leaves the bottom: no pull back down")
    func flickDuringRowCorrectionLeavesTheBottom() {
        var following = Self.atBottom("a")
        // The reader scrolled 30 points up (still near the bottom, reported: the distance counts there) ...
        let near = Position(contentBottom: 630, contentHeight: 1000, visibleHeight: 600)
        #expect(near.isNearBottom)
        #expect(near != Self.bottom, "near the bottom every point of distance is reported")
        #expect(following.readerMoved(to: near) == nil)
        // ... then, in one frame, flicked 40 points further while a row above grew by 120 once measured.
        let flicked = Position(contentBottom: 630 + 40 + 120, contentHeight: 1120, visibleHeight: 600)
        #expect(following.readerMoved(to: flicked) == nil, "the reader is not scrolled back down")
        #expect(!following.isFollowing)
        // The same correction with no scroll keeps the bottom in view.
        var still = Self.atBottom("a")
        #expect(still.readerMoved(to: Position(contentBottom: 720, contentHeight: 1120, visibleHeight: 600)) == .animated)
        #expect(still.isFollowing)
    }

    @Test("a slow drag up leaves the bottom a point at a time: the reader is not pulled back down")
    func slowDragLeavesTheBottom() {
        var following = Self.atBottom("a")
        // A reading drag on a 120 Hz screen: 1 pt per frame, sizes unchanged, from 44 pt (near) to 45 pt (not).
        let edge = Position(contentBottom: 644, contentHeight: 1000, visibleHeight: 600)
        #expect(edge.isNearBottom)
        #expect(following.readerMoved(to: edge) == nil)
        let past = Position(contentBottom: 645, contentHeight: 1000, visibleHeight: 600)
        #expect(!past.isNearBottom)
        #expect(following.readerMoved(to: past) == nil, "the drag was taken for rounding and scrolled back")
        #expect(!following.isFollowing)
        // With a size change in the same report, the 2 pt rounding slack still applies.
        var growing = Self.atBottom("a")
        #expect(growing.readerMoved(to: edge) == nil)
        #expect(growing.readerMoved(to: Position(contentBottom: 646 + 20, contentHeight: 1020, visibleHeight: 600)) == .animated)
        #expect(growing.isFollowing)
    }

    @Test("far from the bottom a scroll is not reported; near it, or a size change, is")
    func positionsEqualWhereNoReportIsNeeded() {
        let far = Position(contentBottom: 900, contentHeight: 1000, visibleHeight: 600)
        #expect(far == Position(contentBottom: 1000, contentHeight: 1000, visibleHeight: 600))
        #expect(far.distanceFromBottom == 300)
        #expect(far != Position(contentBottom: 900, contentHeight: 1010, visibleHeight: 600))
        #expect(Position(contentBottom: 610, contentHeight: 1000, visibleHeight: 600)
            != Position(contentBottom: 620, contentHeight: 1000, visibleHeight: 600))
        #expect(Set([far, Position(contentBottom: 1000, contentHeight: 1000, visibleHeight: 600)]).count == 1)
    }

    @Test("scrolled up, later geometry changes leave the reader's place")
    func scrolledUpGeometryStays() {
        var following = Self.scrolledUp("a")
        #expect(following.readerMoved(to: Position(contentBottom: 1000, contentHeight: 1100, visibleHeight: 600)) == nil)
        #expect(following.readerMoved(to: Position(contentBottom: 1000, contentHeight: 1100, visibleHeight: 300)) == nil)
        #expect(!following.isFollowing)
    }
}
