import Foundation
@testable import ReceptionCore
import ReceptionTesting
import Testing

@testable import ReceptionKit

/// Issue 50: the chat inside a real app. The host's paywall goes over the SDK sheet through the documented path
/// (`onPaywall` calling `Reception.present`), `openChat()` in the same action as a SwiftUI dismissal, and the sheet
/// on an iPad with two windows: each decided by the facade, played here against the recording presenter.
@Suite("HostScreenTests", .serialized)
@MainActor
struct HostScreenTests {
    func launch(_ service: Service) async -> (App, RecordingSheetPresenter) {
        let app = App(service)
        await app.launch()
        let presenter = RecordingSheetPresenter()
        app.reception.sheetPresenter = presenter
        return (app, presenter)
    }

    /// A paywall card delivered by the service and shown in the open chat.
    func paywallCard(_ app: App, _ service: Service) async throws -> ChatMessage {
        app.reception.paywalls = [ReceptionPaywall(id: "pro", title: "Pro")]
        try await app.send("hi")
        app.reception.openChat()
        return try await app.receivePaywallCard()
    }

    @Test("a host following the documented path sees its paywall over the chat sheet, and the chat stays open")
    func paywallOverTheSheet() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        let reception = app.reception
        // The documented code: onPaywall hands the host's screen to `present`, not to its own root's `.sheet`.
        reception.onPaywall = { [weak reception] id in
            reception?.presentHostScreen(HostScreen(content: Named("paywall-\(id)")))
        }
        let card = try await paywallCard(app, service)
        #expect(presenter.isShowing)
        #expect(reception.tapCard(card))
        #expect(presenter.hostScreens.map(\.name) == ["paywall-pro"])
        #expect(presenter.hostScreens.map(\.over) == ["sheet"], "the paywall goes on the chat sheet, not the host's root")
        #expect(reception.isChatOpen, "the chat is under the paywall, there again when it is dismissed")
        #expect(app.events.contains(.paywallOpened))
    }

    @Test("a double tap on an offer card opens one paywall, not two stacked")
    func doubleTapOnOffer() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        let reception = app.reception
        var asked = 0
        reception.onPaywall = { [weak reception] id in
            asked += 1
            reception?.presentHostScreen(HostScreen(content: Named("paywall-\(id)")))
        }
        let card = try await paywallCard(app, service)
        presenter.hostScreensCompleteLate = true
        #expect(reception.tapCard(card))
        #expect(reception.tapCard(card), "the second tap is the same tap: handled")
        presenter.finishHostScreens()
        #expect(asked == 1)
        #expect(presenter.hostScreens.map(\.name) == ["paywall-pro"])
        // Once the paywall is up (and closed again), a later tap opens it again.
        #expect(reception.tapCard(card))
        presenter.finishHostScreens()
        #expect(asked == 2)
    }

    @Test("iPad: a move refused while the old sheet's dismissal runs keeps the chat open and lands when it ends")
    func moveRefusedByATransition() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        app.reception.openChat()
        presenter.requestingScene = "B"
        presenter.transitionInProgress = true
        app.reception.openChat()
        #expect(presenter.isWaitingForTransition)
        #expect(app.reception.isChatOpen, "a move waiting for a transition is still the open chat")
        presenter.endTransition()
        #expect(presenter.sheetScene == "B")
        #expect(app.reception.isChatOpen)
        #expect(app.events.filter { $0 == .chatOpened }.count == 1)
    }

    @Test("a screen asked for while the sheet is on its way waits for it, then goes over it")
    func screenWaitsForTheSheet() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        presenter.completesLate = true
        app.reception.openChat()
        #expect(presenter.isPresenting)
        app.reception.presentHostScreen(HostScreen(content: Named("offer")))
        #expect(presenter.hostScreens.isEmpty, "not into a refused presentation while the sheet is still coming")
        presenter.finishPresentation()
        #expect(presenter.hostScreens.map(\.name) == ["offer"])
        #expect(presenter.hostScreens.map(\.over) == ["sheet"])
    }

    @Test("a screen refused by a transition in progress is asked again when it ends; without a sheet it goes over the app")
    func refusedScreenAgain() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        presenter.transitionInProgress = true
        app.reception.presentHostScreen(HostScreen(content: Named("web")))
        #expect(presenter.hostScreens.isEmpty)
        #expect(presenter.isWaitingForTransition)
        presenter.endTransition()
        #expect(presenter.hostScreens.map(\.name) == ["web"])
        #expect(presenter.hostScreens.map(\.over) == ["root"])
    }

    @Test("openChat() in the same action as the host's SwiftUI dismiss(): the sheet goes up once that dismissal ends")
    func openChatDuringSwiftUIDismissal() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        presenter.defersToTurnEnd = true
        presenter.hostSheetUp = true
        // The "Contact support" row: `dismiss()` (SwiftUI starts it at the next view update), then `openChat()`.
        presenter.atTurnEnd { presenter.hostSheetStartsDismissing() }
        app.reception.openChat()
        #expect(presenter.requests == 0, "no controller is picked before the turn's transitions have started")
        presenter.endTurn()
        #expect(presenter.presentations == 0)
        #expect(presenter.isWaitingForTransition, "the dismissal in progress refuses the sheet; it waits for its end")
        presenter.endTransition()
        #expect(presenter.presentations == 1)
        #expect(!presenter.sheetOverHostSheet, "the sheet is not on the host's sheet that was going away")
        #expect(presenter.isShowing)
        #expect(app.reception.isChatOpen)
        #expect(app.events.filter { $0 == .chatOpened }.count == 1)
    }

    @Test("closeChat() in the same turn as openChat(): nothing is presented")
    func closedBeforeTheTurnEnds() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        presenter.defersToTurnEnd = true
        app.reception.openChat()
        app.reception.closeChat()
        presenter.endTurn()
        #expect(presenter.requests == 0)
        #expect(!app.reception.isChatOpen)
        app.reception.openChat()
        presenter.endTurn()
        #expect(presenter.presentations == 1, "a later openChat presents")
    }

    @Test("iPad: openChat() from window B while the sheet is in window A moves it to B; the chat stays open")
    func twoWindowsMove() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        app.reception.openChat()
        #expect(presenter.sheetScene == "A")
        presenter.requestingScene = "B"
        app.reception.openChat()
        #expect(presenter.dismissals == 1, "the sheet leaves window A")
        #expect(presenter.presentations == 2)
        #expect(presenter.sheetScene == "B", "the chat opens where it was asked for")
        #expect(app.reception.isChatOpen)
        #expect(app.events.filter { $0 == .chatOpened }.count == 1, "a move is no new opening")
        app.reception.openChat()
        #expect(presenter.presentations == 2, "asked again in the same window: nothing more")
    }

    @Test("iPad: the chat counts as open only while a window in front shows it")
    func windowInTheBackground() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        app.reception.openChat()
        #expect(app.reception.isChatOpen)
        presenter.sheetSceneMoved(toForeground: false, otherInFront: true)
        #expect(!app.reception.isChatOpen, "behind another window nobody reads it: no reads, no held badge")
        presenter.sheetSceneMoved(toForeground: true, otherInFront: true)
        #expect(app.reception.isChatOpen)
        // The whole app to the background: the app's own lifecycle pauses the chat; it is not a new opening.
        presenter.sheetSceneMoved(toForeground: false, otherInFront: false)
        #expect(app.reception.isChatOpen)
        presenter.sheetSceneMoved(toForeground: true, otherInFront: false)
        #expect(app.events.filter { $0 == .chatOpened }.count == 2)
    }

    @Test("a link tapped in a message opens through the host's openURL; only http, https, mailto and tel")
    func messageLinks() async throws {
        let service = try Service()
        let (app, _) = await launch(service)
        try await app.send("Order help: https://shop.example/track?id=9, mail help@shop.example or call +1 555 123 4567")
        let chat = try #require(app.reception.chat)
        let row = try #require(chat.transcriptPresentation(appearance: app.reception.chatAppearance).rows.first { $0.text?.contains("Order help") == true })
        let links = row.textRuns.compactMap(\.link)
        #expect(links.count == 3)
        for link in links { #expect(app.reception.openMessageLink(link)) }
        #expect(app.openedURLs.map(\.absoluteString) == [
            "https://shop.example/track?id=9", "mailto:help@shop.example", "tel:+15551234567",
        ])
        for other in ["javascript:alert(1)", "file:///etc/passwd", "sms:123", "data:text/html,x"] {
            let url = try #require(URL(string: other))
            #expect(!app.reception.openMessageLink(url), "\(other) stays text")
        }
        #expect(app.openedURLs.count == 3)
    }
}
