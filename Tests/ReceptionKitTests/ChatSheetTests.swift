import Foundation
@testable import ReceptionCore
@testable import ReceptionKit
import ReceptionTesting
import Testing

/// Stands in for UIKit's presentation: records what the facade asked for, and lets a test play the person (a
/// swipe-down) and the system: a window becoming available after a cold start, a presentation refused because
/// another transition is in progress (and that transition's end), and a presentation whose completion comes late.
@MainActor
final class RecordingSheetPresenter: ChatSheetPresenting {
    /// Whether a window can show the sheet now.
    var windowAvailable = true
    /// While set, UIKit refuses every presentation (another presentation or dismissal is in progress).
    var transitionInProgress = false
    /// While set, an accepted presentation's completion waits for `finishPresentation()`.
    var completesLate = false
    /// Requests the presenter received, accepted or not.
    private(set) var requests = 0
    /// Presentations UIKit accepted.
    private(set) var presentations = 0
    private(set) var dismissals = 0
    private(set) var isShowing = false
    private var dismissedByPerson: (@MainActor () -> Void)?
    private var sceneChanged: (@MainActor (ChatSheetScene) -> Void)?

    // The run-loop turn (issue 50): with `defersToTurnEnd`, work scheduled for after this turn's transitions waits
    // for `endTurn()`, which first starts what the host asked for in the turn (a SwiftUI dismissal), as UIKit does.
    var defersToTurnEnd = false
    private var afterTurn: [@MainActor () -> Void] = []
    private var hostActionsAtTurnEnd: [@MainActor () -> Void] = []

    // The host's own sheet (a Settings screen): while it is up, the chat sheet goes over it, and dismissing it
    // takes the chat sheet down too.
    var hostSheetUp = false
    /// The chat sheet was presented over the host's sheet.
    private(set) var sheetOverHostSheet = false

    // iPad windows: the scene a request presents in now, and the one the sheet is in.
    var requestingScene = "A"
    private(set) var sheetScene: String?

    /// The host's screens presented, each with what it went over ("sheet": the chat sheet; "root": the app).
    private(set) var hostScreens: [(name: String, over: String)] = []
    private var ready: (@MainActor () -> Void)?
    private var transitionEnded: (@MainActor (ChatSheetTransitionEnd) -> Void)?
    private var lateAnswer: (@MainActor (ChatSheetAnswer) -> Void)?

    func presentChat(
        answer: @escaping @MainActor (ChatSheetAnswer) -> Void,
        dismissedByPerson: @escaping @MainActor () -> Void,
        sceneChanged: @escaping @MainActor (ChatSheetScene) -> Void
    ) {
        requests += 1
        // As UIKit's presenter: a request ends the wait for a window; a `.noWindow` answer starts a new one.
        ready = nil
        guard windowAvailable else { return answer(.noWindow) }
        guard !transitionInProgress else { return answer(.busy) }
        presentations += 1
        isShowing = true
        sheetOverHostSheet = hostSheetUp
        sheetScene = requestingScene
        self.dismissedByPerson = dismissedByPerson
        self.sceneChanged = sceneChanged
        if completesLate { lateAnswer = answer } else { answer(.presented) }
    }

    func waitForWindow(_ ready: @escaping @MainActor () -> Void) { self.ready = ready }

    func afterPendingTransitionsStart(_ work: @escaping @MainActor () -> Void) {
        if defersToTurnEnd { afterTurn.append(work) } else { work() }
    }

    /// While set, a host screen's presentation completes only at `finishHostScreens()` (its animation runs).
    var hostScreensCompleteLate = false
    private var hostScreenAnswers: [@MainActor (ChatSheetAnswer) -> Void] = []

    func presentHostScreen(_ screen: HostScreen, answer: @escaping @MainActor (ChatSheetAnswer) -> Void) {
        guard windowAvailable else { return answer(.noWindow) }
        guard !transitionInProgress, !isPresenting, hostScreenAnswers.isEmpty else { return answer(.busy) }
        hostScreens.append(((screen.content as? Named)?.name ?? "?", isShowing ? "sheet" : "root"))
        if hostScreensCompleteLate { hostScreenAnswers.append(answer) } else { answer(.presented) }
    }

    /// The host screens' presentations complete.
    func finishHostScreens() {
        let answers = hostScreenAnswers
        hostScreenAnswers = []
        for answer in answers { answer(.presented) }
    }

    var sheetIsInRequestingScene: Bool { sheetScene == nil || sheetScene == requestingScene }

    /// The host asks, in this turn, for something that starts at the turn's end (SwiftUI's `dismiss()`).
    func atTurnEnd(_ action: @escaping @MainActor () -> Void) { hostActionsAtTurnEnd.append(action) }

    /// The run-loop turn ends: the host's transitions start, then the work scheduled after them runs.
    func endTurn() {
        let actions = hostActionsAtTurnEnd
        hostActionsAtTurnEnd = []
        for action in actions { action() }
        let work = afterTurn
        afterTurn = []
        for item in work { item() }
    }

    /// The host's sheet starts going (its dismissal is a transition in progress); a chat sheet over it goes too.
    func hostSheetStartsDismissing() {
        hostSheetUp = false
        transitionInProgress = true
        if isShowing, sheetOverHostSheet { loseSheetSilently() }
    }

    /// The sheet's window goes to the background (`otherInFront`: another window of the app stays in front), or
    /// comes back.
    func sheetSceneMoved(toForeground: Bool, otherInFront: Bool) {
        sceneChanged?(ChatSheetScene(isForeground: toForeground, otherSceneInForeground: otherInFront))
    }

    func waitForTransition(_ ended: @escaping @MainActor (ChatSheetTransitionEnd) -> Void) { transitionEnded = ended }

    var showsSheet: Bool { isShowing }

    func dismissChat() {
        dismissals += 1
        isShowing = false
        sheetScene = nil
    }

    /// The person swipes the sheet down.
    func swipeDown() {
        isShowing = false
        dismissedByPerson?()
    }

    /// The first scene became active.
    func sceneActivated() {
        windowAvailable = true
        let ready = self.ready
        self.ready = nil
        ready?()
    }

    /// The transition that refused the sheet ends.
    func endTransition(stillBusy: Bool = false) {
        transitionInProgress = stillBusy
        let ended = transitionEnded
        transitionEnded = nil
        ended?(.ended)
    }

    /// The transition that refused the sheet does not end within the presenter's bound.
    func timeOutTransition(stillBusy: Bool = true) {
        transitionInProgress = stillBusy
        let ended = transitionEnded
        transitionEnded = nil
        ended?(.timedOut)
    }

    /// The sheet goes with no report: the host dismisses the whole stack it was in (a paywall presented over it,
    /// then the root's `dismiss(animated:)`), or the scene holding it is closed before any callback.
    func loseSheetSilently() {
        isShowing = false
        sheetScene = nil
    }

    /// UIKit's completion of the presentation in progress.
    func finishPresentation() {
        let answer = lateAnswer
        lateAnswer = nil
        answer?(.presented)
    }

    var isWaitingForWindow: Bool { ready != nil }
    var isWaitingForTransition: Bool { transitionEnded != nil }
    var isPresenting: Bool { lateAnswer != nil }
}

/// A stand-in for a host's view controller, named for the test.
final class Named {
    let name: String
    init(_ name: String) { self.name = name }
}

/// `openChat()` presents the SDK sheet once, the dismissals of seed 000, and `ReceptionChatView`'s embedding
/// (seed 004 "Dedicated Support tab"): who keeps the chat open, over the real emulator.
@Suite("ChatSheetTests", .serialized)
@MainActor
struct ChatSheetTests {
    func launch(_ service: Service, window: Bool = true) async -> (App, RecordingSheetPresenter) {
        let app = App(service)
        await app.launch()
        let presenter = RecordingSheetPresenter()
        presenter.windowAvailable = window
        app.reception.sheetPresenter = presenter
        return (app, presenter)
    }

    func unreadRequests(_ app: App) -> Int { app.transport.log.filter { $0.path.hasSuffix("conversation/unread") }.count }

    @Test("openChat presents the sheet once; a second call while it shows does nothing")
    func presentsOnce() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        app.reception.openChat()
        app.reception.openChat()
        #expect(presenter.presentations == 1)
        #expect(app.reception.isChatOpen)
        #expect(app.events.filter { $0 == .chatOpened }.count == 1)
    }

    @Test("closeChat dismisses the sheet, the chat closes, and the count is refreshed")
    func closeDismisses() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        try await app.send("hi")
        app.reception.openChat()
        let before = unreadRequests(app)
        app.reception.closeChat()
        #expect(presenter.dismissals == 1)
        #expect(!app.reception.isChatOpen)
        #expect(await until { unreadRequests(app) > before }, "closing refreshes the count")
        app.reception.openChat()
        #expect(presenter.presentations == 2, "a closed chat presents again")
    }

    @Test("a swipe-down leaves isChatOpen false and refreshes the count, as closeChat does")
    func swipeDown() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        try await app.send("hi")
        app.reception.openChat()
        let before = unreadRequests(app)
        presenter.swipeDown()
        #expect(!app.reception.isChatOpen)
        #expect(presenter.dismissals == 0, "the sheet is already gone")
        #expect(await until { unreadRequests(app) > before }, "the swipe refreshes the count")
        app.reception.openChat()
        #expect(presenter.presentations == 2)
    }

    @Test("a notification tap after a cold start presents as soon as a window can show the sheet")
    func coldStartPushTap() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service, window: false)
        #expect(app.reception.handlePushNotification(userInfo: ["reception": ["conversationId": "c"]]))
        #expect(presenter.presentations == 0)
        #expect(presenter.isWaitingForWindow)
        #expect(!app.reception.isChatOpen, "nothing is on screen yet")
        app.reception.openChat()
        #expect(presenter.requests == 2, "a second openChat looks for a window again")
        #expect(presenter.isWaitingForWindow)
        #expect(!app.reception.isChatOpen)
        presenter.sceneActivated()
        #expect(presenter.presentations == 1)
        #expect(app.reception.isChatOpen)
        #expect(app.events.filter { $0 == .chatOpened }.count == 1)
    }

    @Test("a presentation UIKit refuses during another transition is asked again when it ends; closed until then")
    func refusedWhileBusy() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        presenter.transitionInProgress = true
        app.reception.openChat()
        #expect(presenter.requests == 1)
        #expect(presenter.presentations == 0)
        #expect(!app.reception.isChatOpen, "a refused sheet is not open")
        #expect(!app.events.contains(.chatOpened))
        #expect(presenter.isWaitingForTransition)
        app.reception.openChat()
        #expect(presenter.requests == 1, "the request stands: no second one while it waits")
        presenter.endTransition()
        #expect(presenter.presentations == 1)
        #expect(app.reception.isChatOpen)
        #expect(app.events.filter { $0 == .chatOpened }.count == 1)
    }

    @Test("after repeated refusals the request is dropped, and a later openChat presents afresh")
    func refusedUntilGivenUp() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        presenter.transitionInProgress = true
        app.reception.openChat()
        for _ in 1..<Reception.maximumSheetRefusals { presenter.endTransition(stillBusy: true) }
        #expect(presenter.requests == Reception.maximumSheetRefusals)
        #expect(!presenter.isWaitingForTransition, "no endless retry")
        #expect(!app.reception.isChatOpen)
        presenter.transitionInProgress = false
        app.reception.openChat()
        #expect(presenter.presentations == 1, "the next openChat is not swallowed")
        #expect(app.reception.isChatOpen)
    }

    @Test("a sheet gone with no report (the host dismissed the stack it was in) is presented again by openChat")
    func sheetLostSilently() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        app.reception.openChat()
        presenter.loseSheetSilently()
        app.reception.openChat()
        #expect(presenter.presentations == 2, "openChat does not trust a sheet the presenter no longer shows")
        #expect(app.reception.isChatOpen)
        #expect(presenter.isShowing)
    }

    @Test("a transition wait ends once: the completion, the retry delay and the timeout after it do nothing")
    func transitionWaitEndsOnce() {
        var ends: [ChatSheetTransitionEnd] = []
        let wait = ChatSheetTransitionWait { ends.append($0) }
        #expect(!wait.isOver)
        wait.end(.ended)
        wait.end(.ended)
        wait.end(.timedOut)
        #expect(ends == [.ended])
        #expect(wait.isOver)
    }

    @Test("a transition wait that times out counts as a refusal: the request is dropped, not left waiting")
    func transitionTimeoutCountsAsRefusal() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        presenter.transitionInProgress = true
        app.reception.openChat()
        presenter.timeOutTransition()
        #expect(presenter.requests == Reception.maximumSheetRefusals - 1, "a timeout asks again")
        #expect(!presenter.isWaitingForTransition, "the timeout and the refusal after it used up the refusals")
        #expect(!app.reception.isChatOpen)
        presenter.transitionInProgress = false
        app.reception.openChat()
        #expect(presenter.presentations == 1, "the next openChat is not swallowed")
        #expect(app.reception.isChatOpen)
    }

    @Test("a transition wait that times out asks again, and opens if UIKit accepts then")
    func transitionTimeoutRetries() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        presenter.transitionInProgress = true
        app.reception.openChat()
        presenter.timeOutTransition(stillBusy: false)
        #expect(presenter.presentations == 1)
        #expect(app.reception.isChatOpen)
    }

    @Test("the chat opens when UIKit's completion comes, not before")
    func lateCompletion() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        presenter.completesLate = true
        app.reception.openChat()
        #expect(presenter.presentations == 1)
        #expect(!app.reception.isChatOpen)
        presenter.finishPresentation()
        #expect(app.reception.isChatOpen)
        #expect(app.events.filter { $0 == .chatOpened }.count == 1)
    }

    @Test("a closeChat during the presentation dismisses the sheet as soon as it arrives")
    func closedWhilePresenting() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        presenter.completesLate = true
        app.reception.openChat()
        app.reception.closeChat()
        #expect(presenter.dismissals == 0, "nothing to dismiss yet")
        presenter.finishPresentation()
        #expect(presenter.dismissals == 1)
        #expect(!app.reception.isChatOpen)
        #expect(!app.events.contains(.chatOpened))
        presenter.completesLate = false
        app.reception.openChat()
        #expect(presenter.presentations == 2)
        #expect(app.reception.isChatOpen)
    }

    @Test("closed and opened again during the presentation: one sheet, open when it arrives")
    func reopenedWhilePresenting() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        presenter.completesLate = true
        app.reception.openChat()
        app.reception.closeChat()
        app.reception.openChat()
        #expect(presenter.requests == 1, "the sheet on its way is the one")
        presenter.finishPresentation()
        #expect(presenter.dismissals == 0)
        #expect(app.reception.isChatOpen)
    }

    @Test("a window that arrives with no signal (no scene activation, no key window change): the next openChat presents")
    func windowWithoutSignal() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service, window: false)
        app.reception.openChat()
        #expect(presenter.isWaitingForWindow)
        presenter.windowAvailable = true
        app.reception.openChat()
        #expect(presenter.presentations == 1)
        #expect(app.reception.isChatOpen)
        #expect(!presenter.isWaitingForWindow, "the wait ended with the presentation")
        app.reception.openChat()
        #expect(presenter.requests == 2, "nothing more once it shows")
    }

    @Test("a chat closed before any window appeared is not presented later")
    func closedWhileWaiting() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service, window: false)
        app.reception.openChat()
        app.reception.closeChat()
        presenter.sceneActivated()
        #expect(presenter.presentations == 0)
        #expect(!app.reception.isChatOpen)
    }

    @Test("seed 000: logout dismisses the SDK sheet")
    func logoutDismisses() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        app.reception.openChat()
        app.reception.logout()
        #expect(presenter.dismissals == 1)
        #expect(!app.reception.isChatOpen)
    }

    @Test("seed 000: a completed deleteData dismisses the SDK sheet")
    func deletionDismisses() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        try await app.send("hi")
        app.reception.openChat()
        try await app.reception.deleteData()
        #expect(presenter.dismissals == 1)
        #expect(!app.reception.isChatOpen)
        #expect(app.events.contains(.dataDeleted))
    }

    @Test("seed 000: a token for another user resets the session as logout does, and dismisses the SDK sheet")
    func userSwitchDismisses() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        app.reception.identify(token: try service.token(userId: "alice"))
        try await app.send("alice here")
        app.reception.openChat()
        app.reception.identify(token: try service.token(userId: "bob"))
        #expect(presenter.dismissals == 1)
        #expect(!app.reception.isChatOpen)
    }

    @Test("spec 7.12: a support reset from the dashboard keeps the sheet on screen, emptied")
    func supportResetKeepsTheSheet() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        try await app.send("hi")
        app.reception.openChat()
        let device = try #require(try await service.devices().first?["id"] as? String)
        try await service.admin("POST", "devices/\(device)/reset")
        let emptied = await until { await app.reception.chat?.refresh(); return app.texts.isEmpty }
        #expect(emptied)
        #expect(presenter.dismissals == 0)
        #expect(presenter.isShowing)
        #expect(app.reception.isChatOpen)
    }

    @Test("an embedded chat screen opens the chat while it shows: it loads and reads, without the sheet")
    func embeddedScreenOpensTheChat() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        try await app.send("hi")
        let device = try #require(try await service.devices().first?["id"] as? String)
        try await service.admin("POST", "devices/\(device)/messages", ["text": "a reply"])
        app.reception.chatScreenAppeared()
        #expect(app.reception.isChatOpen)
        #expect(app.events.contains(.chatOpened))
        #expect(await until { (try? await service.devices().first?["readSeq"] as? Int) == 2 }, "the screen's chat read")
        app.reception.openChat()
        #expect(presenter.presentations == 0, "the chat already shows: openChat does nothing")
        app.reception.chatScreenDisappeared()
        #expect(!app.reception.isChatOpen, "leaving the screen closes the chat")
    }

    @Test("two embedded screens: the chat stays open until the last one leaves; closeChat leaves them to the host")
    func twoEmbeddedScreens() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        app.reception.chatScreenAppeared()
        app.reception.chatScreenAppeared()
        app.reception.closeChat()
        #expect(app.reception.isChatOpen, "an embedded chat is the host's to dismiss")
        #expect(presenter.dismissals == 0)
        app.reception.chatScreenDisappeared()
        #expect(app.reception.isChatOpen)
        app.reception.chatScreenDisappeared()
        #expect(!app.reception.isChatOpen)
    }

    @Test("a chat screen shown before configure opens the chat once configure starts the session")
    func screenBeforeConfigure() async throws {
        let service = try Service()
        let app = App(service)
        app.reception.chatScreenAppeared()
        #expect(!app.reception.isChatOpen, "no chat before configure")
        app.reception.onEvent = { [weak app] in app?.events.append($0) }
        app.reception.configure(appId: service.appID, configuration: app.configuration)
        await app.reception.waitUntilReady()
        #expect(app.reception.isChatOpen)
        #expect(app.events.contains(.chatOpened))
        app.reception.chatScreenDisappeared()
        #expect(!app.reception.isChatOpen)
    }

    @Test("after logout an embedded screen stays open on the new, empty session")
    func embeddedSurvivesLogout() async throws {
        let service = try Service()
        let (app, _) = await launch(service)
        try await app.send("hi")
        app.reception.chatScreenAppeared()
        app.reception.logout()
        #expect(app.reception.isChatOpen)
        let fresh = await until { await app.reception.chat?.refresh(); return app.reception.chat?.messages.isEmpty == true }
        #expect(fresh)
    }

    @Test("spec 4.2: the screen's offer cards open only available paywalls, and none without a handler")
    func availablePaywallsForTheScreen() async throws {
        let service = try Service()
        let (app, _) = await launch(service)
        app.reception.paywalls = [ReceptionPaywall(id: "pro", title: "Pro")]
        #expect(app.reception.availablePaywallIDs.isEmpty, "no onPaywall handler: every offer card is disabled")
        app.reception.onPaywall = { _ in }
        #expect(app.reception.availablePaywallIDs == ["pro"])
        app.reception.paywalls = []
        #expect(app.reception.availablePaywallIDs.isEmpty)
    }

    @Test("a card's button in the screen taps the card of the current transcript")
    func cardTapByID() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("hi")
        app.reception.chatScreenAppeared()
        let card = try await app.receiveReviewCard()
        app.reception.tapCard(messageID: "no-such-message")
        #expect(app.openedURLs.isEmpty)
        app.reception.tapCard(messageID: card.id)
        #expect(app.openedURLs.map(\.host) == ["apps.apple.com"])
        #expect(app.events.contains(.reviewOpened))
    }
}

/// Which iPad window the SDK sheet opens in (`ChatSceneChoice`).
@Suite("ChatSceneChoiceTests")
struct ChatSceneChoiceTests {
    typealias Scene = ChatSceneChoice.Scene

    static func scene(active: Bool = true, present: Bool = true, key: Bool = false, used: Int? = nil) -> Scene {
        Scene(isForegroundActive: active, canPresent: present, holdsKeyWindow: key, lastUse: used)
    }

    @Test("two windows side by side: the chat opens in the one used last, not the first UIKit lists")
    func lastUsedWins() {
        let scenes = [Self.scene(key: true, used: 3), Self.scene(key: true, used: 7)]
        #expect(ChatSceneChoice.pick(scenes) == 1)
        #expect(ChatSceneChoice.pick(scenes.reversed()) == 0)
    }

    @Test("a background or inactive scene is never chosen, however recently used")
    func onlyForegroundActive() {
        let scenes = [Self.scene(active: false, used: 9), Self.scene(used: 2)]
        #expect(ChatSceneChoice.pick(scenes) == 1)
        #expect(ChatSceneChoice.pick([Self.scene(active: false, key: true, used: 1)]) == nil)
        #expect(ChatSceneChoice.pick([]) == nil)
    }

    @Test("a scene without a window to present from is skipped")
    func needsAWindow() {
        #expect(ChatSceneChoice.pick([Self.scene(present: false, used: 5), Self.scene(used: 1)]) == 1)
        #expect(ChatSceneChoice.pick([Self.scene(present: false)]) == nil)
    }

    @Test("with no use seen yet: the scene holding a key window, else the first")
    func noUseSeen() {
        #expect(ChatSceneChoice.pick([Self.scene(), Self.scene(key: true)]) == 1)
        #expect(ChatSceneChoice.pick([Self.scene(), Self.scene()]) == 0)
        #expect(ChatSceneChoice.pick([Self.scene(key: true), Self.scene(used: 1)]) == 1, "a seen use beats a key window")
    }
}

/// Which window of the scene the SDK sheet is presented from (`ChatWindowChoice`).
@Suite("ChatWindowChoiceTests")
struct ChatWindowChoiceTests {
    static func window(root: Bool = true, visible: Bool = true, normal: Bool = true, key: Bool = false) -> ChatWindowChoice.Window {
        ChatWindowChoice.Window(hasRootViewController: root, isVisible: visible, isNormalLevel: normal, isKey: key)
    }

    @Test("a key window without a root view controller (being set up) is passed over for one that has one")
    func keyWithoutRoot() {
        #expect(ChatWindowChoice.pick([Self.window(root: false, key: true), Self.window()]) == 1)
        #expect(ChatWindowChoice.pick([Self.window(root: false, key: true)]) == nil)
    }

    @Test("an alert or overlay window that is key is passed over for the app's own window")
    func overlayKey() {
        #expect(ChatWindowChoice.pick([Self.window(), Self.window(normal: false, key: true)]) == 0)
        #expect(ChatWindowChoice.pick([Self.window(normal: false, key: true)]) == 0, "the only window that can present")
    }

    @Test("a hidden window is never chosen; the key one among the app's windows comes first")
    func hiddenAndKey() {
        #expect(ChatWindowChoice.pick([Self.window(visible: false, key: true), Self.window()]) == 1)
        #expect(ChatWindowChoice.pick([Self.window(), Self.window(key: true)]) == 1)
        #expect(ChatWindowChoice.pick([Self.window(), Self.window()]) == 0)
        #expect(ChatWindowChoice.pick([]) == nil)
    }
}

/// How `dismissChat()` goes about the sheet (`ChatSheetDismissal`): UIKit ignores a dismissal during a transition.
@Suite("ChatSheetDismissalTests")
struct ChatSheetDismissalTests {
    typealias Facts = ChatSheetDismissal.Facts

    @Test("a sheet UIKit no longer presents is forgotten, whatever else is said of it")
    func gone() {
        #expect(ChatSheetDismissal.step(Facts(isPresented: false)) == .forget)
        #expect(ChatSheetDismissal.step(Facts(isPresented: false, isBeingDismissed: true, presenterInTransition: true)) == .forget)
    }

    @Test("a sheet resting on screen is dismissed at once: its presenter presenting it is no transition")
    func resting() {
        #expect(ChatSheetDismissal.step(Facts(isPresented: true)) == .dismiss)
    }

    @Test("the person's swipe in progress is followed, not interrupted, even during another transition")
    func swipe() {
        #expect(ChatSheetDismissal.step(Facts(isPresented: true, isBeingDismissed: true)) == .followTheSwipe)
        #expect(ChatSheetDismissal.step(Facts(isPresented: true, isBeingDismissed: true, isBeingPresented: true)) == .followTheSwipe)
    }

    @Test("each transition UIKit would let swallow the dismissal makes it wait")
    func transitions() {
        #expect(ChatSheetDismissal.step(Facts(isPresented: true, isBeingPresented: true)) == .waitForTransition,
                "closeChat right after openChat")
        #expect(ChatSheetDismissal.step(Facts(isPresented: true, presenterInTransition: true)) == .waitForTransition)
        #expect(ChatSheetDismissal.step(Facts(isPresented: true, coverIsLeaving: true)) == .waitForTransition,
                "the photo viewer over the sheet is closing")
    }

    @Test("a dismissal UIKit ignored without saying (still presented, not going) is tried again")
    func ignored() {
        #expect(ChatSheetDismissal.ignored(Facts(isPresented: true)))
        #expect(!ChatSheetDismissal.ignored(Facts(isPresented: true, isBeingDismissed: true)))
        #expect(!ChatSheetDismissal.ignored(Facts(isPresented: false)))
    }
}
