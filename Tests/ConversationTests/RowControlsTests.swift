import Foundation
import ReceptionCore
import Testing
@testable import Conversation

/// Issue 50: every control of a row is reachable without touch (Voice Control names, keyboard focus), besides the
/// row's one-sentence label; and the composer stays usable at the accessibility text sizes.
@Suite("RowControlsTests")
struct RowControlsTests {
    typealias P = ChatPresentationTests

    static let photo1 = ReceptionCore.Attachment(
        id: "att1", url: "https://example.com/1.jpg", contentType: "image/jpeg", width: 10, height: 10)
    static let photo2 = ReceptionCore.Attachment(
        id: "att2", url: "https://example.com/2.jpg", contentType: "image/jpeg", width: 10, height: 10)

    @Test("a failed message's Retry is a control named 'Retry', even while its title counts down")
    func retryIsReachable() throws {
        let waiting = P.screen([P.message("a", status: .notDelivered, retry: .disabledFor(secondsLeft: 90))]).rows[0]
        let retry = try #require(waiting.controls.first)
        #expect(retry.kind == .status(.retry))
        #expect(retry.inputLabels.first == "Retry", "Voice Control's 'Tap Retry' names it: \(retry.inputLabels)")
        #expect(retry.inputLabels.contains(retry.label))
        #expect(!retry.isEnabled)
        let available = P.screen([P.message("b", status: .notDelivered, retry: .available)]).rows[0]
        #expect(available.controls.map(\.inputLabels) == [["Retry"]])
        #expect(available.controls.first?.isEnabled == true)
        let counting = P.screen([P.message("c", status: .notDelivered, retry: .automaticResend(secondsLeft: 5))]).rows[0]
        #expect(counting.controls.first?.kind == .status(.cancelAutomaticResend))
        #expect(counting.controls.first?.inputLabels.first == "Cancel")
        // The row still reads as one sentence with the status in it.
        #expect(available.accessibilityLabel.hasPrefix("You: hi. Not delivered"))
    }

    @Test("a card's button and each confirmed photo are controls; several photos are told apart")
    func cardAndPhotos() {
        let card = P.screen([
            P.message("r", .agent, text: "Enjoying it?", kind: .review, reviewUrl: "https://apps.apple.com/x"),
        ]).rows[0]
        #expect(card.controls.map(\.kind) == [.card])
        #expect(card.controls.map(\.label) == ["Rate on the App Store"])
        let two = P.screen([P.message("p", .agent, text: "", attachments: [Self.photo1, Self.photo2])]).rows[0]
        #expect(two.controls.map(\.label) == ["View photo 1 of 2", "View photo 2 of 2"])
        #expect(Set(two.controls.map(\.id)).count == 2)
        let one = P.screen([P.message("q", .agent, text: "", attachments: [Self.photo1])]).rows[0]
        #expect(one.controls.map(\.label) == ["View photo"])
        // A pending local preview is no control: it is not a confirmed attachment.
        let pending = P.screen([P.message("s", status: .sending, localPhotos: [P.jpeg(width: 10, height: 10)])]).rows[0]
        #expect(pending.controls.isEmpty)
    }

    @Test("links in the text are controls too, named by their text")
    func links() {
        let row = P.screen([P.message("l", .agent, text: "See https://example.com/a or call +1 555 123 4567")]).rows[0]
        #expect(row.controls.map(\.label) == ["https://example.com/a", "+1 555 123 4567"])
        #expect(row.controls.compactMap { if case .link(let url) = $0.kind { url.scheme } else { nil } } == ["https", "tel"])
    }

    @Test("the composer's icons stop growing at 44 points, so the field keeps room on an iPhone SE")
    func composerIconsAreCapped() {
        // The body style at the largest accessibility size is about 3.1 times its default.
        let send = ComposerPresentation.iconSize(scaled: 30 * 3.12)
        let photo = ComposerPresentation.iconSize(scaled: 24 * 3.12)
        #expect(send == 44 && photo == 44)
        let field = 320 - 16 - send - photo - 8
        #expect(field >= 320 * 0.6, "the text field keeps \(field) of 320 points")
        #expect(ComposerPresentation.iconSize(scaled: 30) == 30, "default sizes are unchanged")
        #expect(ComposerPresentation.iconSize(scaled: .nan) == 44)
    }

    @Test("a tile lets go of its image off screen; a load finishing after it left keeps nothing")
    func tileMemory() {
        var phase = TilePhase<String>.loading
        phase.loadFinished(.loaded("thumb"), onScreen: true)
        #expect(phase.image == "thumb")
        phase.leftScreen()
        #expect(phase.image == nil, "the decode cache is the only owner off screen")
        phase.loadFinished(.loaded("late"), onScreen: false)
        #expect(phase.image == nil)
        var failed = TilePhase<String>.failed
        failed.leftScreen()
        if case .failed = failed {} else { Issue.record("a failure is remembered across a scroll") }
    }
}
