/// What presents the SDK's chat sheet: UIKit on iOS (`UIKitChatSheetPresenter`), nothing on platforms without it,
/// a recording fake in tests.
@MainActor
protocol ChatSheetPresenting: AnyObject {
    /// Asks for the chat sheet over the top-most view controller of the foreground active scene, with a close
    /// control. The presenter calls `answer` exactly once: `.presented` when the sheet is on screen (UIKit's
    /// completion), `.noWindow` when no scene can show it yet (a cold start), `.busy` when UIKit refused because
    /// another presentation or dismissal is in progress. `answer` may come during the call or later.
    /// `dismissedByPerson` is called when the sheet goes without `dismissChat()` (a swipe-down, or the host
    /// dismissing what it was presented over).
    /// `sceneChanged` reports the facts of the sheet's window scene whenever they change (an iPad window sent to
    /// the background while another stays in front, or brought back).
    func presentChat(
        answer: @escaping @MainActor (ChatSheetAnswer) -> Void,
        dismissedByPerson: @escaping @MainActor () -> Void,
        sceneChanged: @escaping @MainActor (ChatSheetScene) -> Void)
    /// Runs `work` once the transitions asked for in the current run-loop turn have started: a SwiftUI host's
    /// `dismiss()` in the same action as `openChat()` starts its dismissal only at the next view update, so the
    /// top-most controller is looked for after it (UIKit: after the turn's view updates, on the next turn).
    func afterPendingTransitionsStart(_ work: @escaping @MainActor () -> Void)
    /// Presents a screen of the host's (a paywall, a web page) over the chat: over the sheet, and over whatever the
    /// sheet presents, while it shows; else over the top-most controller of the scene in use. Answers once, as
    /// `presentChat` does: `.presented`, `.noWindow`, or `.busy` when a transition refused it.
    func presentHostScreen(_ screen: HostScreen, answer: @escaping @MainActor (ChatSheetAnswer) -> Void)
    /// Whether the sheet this presenter shows is in the window scene a request would present in now (an iPad's
    /// other window, where the person now works, is not); true when no sheet shows.
    var sheetIsInRequestingScene: Bool { get }
    /// Calls `ready` once, when a window may be able to present (a scene became active).
    func waitForWindow(_ ready: @escaping @MainActor () -> Void)
    /// Calls `ended` once: `.ended` when the presentation or dismissal that refused the sheet has ended (or, with
    /// no transition to follow, after a short delay), `.timedOut` when it has not ended within a bound.
    func waitForTransition(_ ended: @escaping @MainActor (ChatSheetTransitionEnd) -> Void)
    /// Dismisses the sheet this presenter showed, if it still shows: at once, or once the transition in progress
    /// ends (UIKit refuses a dismissal during one). The presenter keeps track of that sheet until it is gone.
    func dismissChat()
    /// Whether the sheet this presenter last presented is still shown: false once it has gone without a report
    /// (the host dismissed the whole stack it was in, its window scene was closed, it was released).
    var showsSheet: Bool { get }
}

/// What the presenter reports of the window scene the sheet is in (issue 50, iPad windows).
struct ChatSheetScene: Sendable {
    /// The sheet's scene is in the foreground (active or not).
    var isForeground: Bool
    /// Another connected scene of the app is in the foreground: the app stays in front without this window.
    var otherSceneInForeground: Bool

    @_optimize(size) package init(isForeground: Bool, otherSceneInForeground: Bool) {
        self.isForeground = isForeground
        self.otherSceneInForeground = otherSceneInForeground
    }
}

/// A screen of the host's that the SDK presents over the chat (`Reception.present(_:)` on iOS): the host's
/// paywall, a web page a link opens. `content` is what the platform presents (a `UIViewController` on iOS); the
/// decisions about when and where are the facade's, tested on Linux with a recording presenter.
@MainActor
final class HostScreen {
    /// The platform's controller.
    let content: AnyObject
    /// Whether the presentation animates.
    let animated: Bool

    @_optimize(size) package init(content: AnyObject, animated: Bool = true) {
        self.content = content
        self.animated = animated
    }
}

/// How a wait for a refusing transition ended (`ChatSheetPresenting.waitForTransition`).
enum ChatSheetTransitionEnd: Sendable, Equatable {
    /// The transition ended: ask again.
    case ended
    /// It did not end within the bound: it counts as one more refusal (`ChatPresence.maximumRefusals`), and the
    /// sheet is asked for again while refusals remain.
    case timedOut
}

/// One wait's end, given once whichever comes first: the transition's completion, a retry after a delay, the
/// timeout. The UIKit presenter arms all of them; later ones do nothing.
@MainActor
final class ChatSheetTransitionWait {
    private var ended: (@MainActor (ChatSheetTransitionEnd) -> Void)?

    @_optimize(size) package init(_ ended: @escaping @MainActor (ChatSheetTransitionEnd) -> Void) {
        self.ended = ended
    }

    /// Whether the wait has ended.
    @_optimize(size) var isOver: Bool { ended == nil }

    /// Ends the wait `how`, unless it has ended already.
    @_optimize(size) func end(_ how: ChatSheetTransitionEnd) {
        let callback = ended
        ended = nil
        callback?(how)
    }

    /// Ends the wait without calling back: a later `end` does nothing.
    @_optimize(size) func cancel() { ended = nil }
}

/// The presenter's answer to one `presentChat` call.
enum ChatSheetAnswer: Sendable, Equatable {
    /// The sheet is on screen.
    case presented
    /// No window can show it yet.
    case noWindow
    /// UIKit refused: another presentation or dismissal is in progress.
    case busy
}

/// Who keeps the chat on screen (seed 000 "Open & close the chat", seed 004 "Dedicated Support tab"): the SDK
/// sheet that `openChat()` asked for, and the `ReceptionChatView`s a host embeds. The chat is open while a sheet
/// UIKit has presented, or an embedded screen, shows it: never while the sheet is only asked for, waits for a
/// window or was refused. The facade acts on the changes of `isOpen`; every step here is tested on Linux with a
/// presenter that can refuse or answer late (ChatSheetTests).
struct ChatPresence: Sendable {
    /// Where the SDK sheet stands.
    enum Sheet: Sendable, Equatable {
        /// Not shown.
        case hidden
        /// Asked for; the presenter looks for a window once this run-loop turn's transitions have started.
        case scheduled
        /// Asked for; the presenter has not answered.
        case presenting
        /// Asked for before any window could show it; asked again when a scene becomes active.
        case waitingForWindow
        /// Refused while another transition ran; asked again when it ends.
        case waitingForTransition
        /// On screen.
        case presented
    }

    /// What `openChat()` does.
    enum OpenStep: Sendable, Equatable {
        /// Nothing: the chat shows already, or its sheet is on its way.
        case none
        /// Ask for the sheet once this turn's transitions have started (`ChatSheetPresenting.afterPendingTransitionsStart`).
        case ask
        /// The sheet shows in another window scene than the one the person now uses (iPad): dismiss it there and
        /// ask for it here. The chat stays open through the move.
        case move
    }

    /// What the facade does after the presenter answered.
    enum AnswerStep: Sendable, Equatable {
        /// Nothing more: the sheet is on screen, or the answer is of a request that no longer stands.
        case none
        /// The sheet arrived after `closeChat()` (or logout) ended the request: dismiss it.
        case dismiss
        /// Wait for a window, then ask again.
        case waitForWindow
        /// Wait for the transition in progress to end, then ask again.
        case waitForTransition
        /// UIKit refused `maximumRefusals` times in a row: the request is dropped (and logged), so a later
        /// `openChat()` asks afresh instead of doing nothing.
        case givenUp
    }

    /// What the facade does once a wait (for a window, or for a transition) ended.
    enum RetryStep: Sendable, Equatable {
        /// Nothing: the request no longer stands, or nothing waited.
        case none
        /// Ask for the sheet again.
        case ask
        /// The wait timed out once too often: the request is dropped, as after `maximumRefusals` refusals.
        case givenUp
    }

    /// Refusals in a row after which an `openChat()` stops asking.
    static let maximumRefusals = 3

    /// `openChat()` was called and no `closeChat()`, swipe-down, logout, reset or refusal ended it.
    private(set) var requested = false
    /// The SDK sheet.
    private(set) var sheet = Sheet.hidden
    /// Embedded `ReceptionChatView`s on screen (a host may show one in a tab and another in a sheet of its own).
    private(set) var embeddedScreens = 0
    /// Refusals of the current request in a row.
    private(set) var refusals = 0
    /// On a platform without a presenter the host draws the chat itself: a request counts as on screen.
    private var hostDraws = false
    /// The sheet moves to the scene the person now uses: it counts as open until the move ends.
    private(set) var moving = false
    /// The presented sheet's window went to the background while another window of the app stays in front (iPad):
    /// nobody sees it, so the chat does not count as open (no reads reported, the badge not held).
    private(set) var sheetBehindOtherWindow = false

    /// Whether the chat is on screen: the sheet in a window in front, a move in progress, a host-drawn chat or an
    /// embedded screen.
    @_optimize(size) var isOpen: Bool {
        (sheet == .presented && !sheetBehindOtherWindow)
            || (moving && (sheet == .scheduled || sheet == .presenting || sheet == .waitingForTransition))
            || (requested && hostDraws) || embeddedScreens > 0
    }

    /// `openChat()`: what to do (never ask twice, never over an embedded chat). `hasPresenter` is false where no
    /// SDK sheet exists (the host draws the chat). `sheetShows` is the presenter's word that the sheet it presented
    /// is still shown: a presented sheet it no longer shows went without a report (the host dismissed the stack it
    /// was in, its scene was closed), so it counts as dismissed and is asked for again instead of `openChat()`
    /// doing nothing for ever. `sheetInRequestingScene` false (iPad: the person works in another window) moves the
    /// sheet there.
    @_optimize(size)
    mutating func openRequested(hasPresenter: Bool, sheetShows: Bool = true, sheetInRequestingScene: Bool = true)
        -> OpenStep
    {
        if sheet == .presented, !sheetShows { sheetDismissedByPerson() }
        if requested, sheet == .presented, !sheetInRequestingScene, embeddedScreens == 0 {
            sheet = .scheduled
            moving = true
            sheetBehindOtherWindow = false
            return .move
        }
        // Waiting for a window: a later `openChat()` looks again now, so a wait whose signal never comes (a
        // window that got its root view controller without a scene activating) does not leave it doing nothing.
        if requested, sheet == .waitingForWindow, embeddedScreens == 0 {
            sheet = .scheduled
            return .ask
        }
        guard !requested, embeddedScreens == 0 else { return .none }
        requested = true
        refusals = 0
        hostDraws = !hasPresenter
        // A sheet closed and asked for again before its answer came is still on its way: no second request.
        guard hasPresenter, sheet == .hidden else { return .none }
        sheet = .scheduled
        return .ask
    }

    /// The run-loop turn of an `openChat()` ended (`ChatSheetPresenting.afterPendingTransitionsStart`): returns
    /// whether to ask the presenter now; not when a `closeChat()` (or logout) came in between.
    @_optimize(size) mutating func scheduledAskDue() -> Bool {
        guard sheet == .scheduled else { return false }
        guard requested else {
            sheet = .hidden
            moving = false
            return false
        }
        sheet = .presenting
        return true
    }

    /// The presented sheet's window scene changed (`ChatSheetScene`): behind another window of the app, the chat
    /// does not count as open; with the whole app in the background it still does (the app's own lifecycle pauses
    /// it then, and a return to the app needs no new opening).
    @_optimize(size) mutating func sheetSceneChanged(_ scene: ChatSheetScene) {
        sheetBehindOtherWindow = !scene.isForeground && scene.otherSceneInForeground
    }

    /// The presenter answered the last request.
    @_optimize(size) mutating func answered(_ answer: ChatSheetAnswer) -> AnswerStep {
        guard sheet == .presenting else { return .none }
        // A move refused by a transition (the old sheet's dismissal, say) is still a move: the chat stays open
        // while it waits, and until the refusals run out.
        if answer != .busy { moving = false }
        sheetBehindOtherWindow = false
        switch answer {
        case .presented:
            refusals = 0
            guard requested else {
                sheet = .hidden
                return .dismiss
            }
            sheet = .presented
            return .none
        case .noWindow:
            guard requested else {
                sheet = .hidden
                return .none
            }
            sheet = .waitingForWindow
            return .waitForWindow
        case .busy:
            guard requested else {
                sheet = .hidden
                return .none
            }
            guard refusalCounted() else { return .givenUp }
            sheet = .waitingForTransition
            return .waitForTransition
        }
    }

    /// A window became available, or the transition that refused the sheet ended (`timedOut`: it did not end in
    /// time, one more refusal): returns whether to ask again, or that the request is dropped.
    @_optimize(size) mutating func retryAvailable(timedOut: Bool = false) -> RetryStep {
        guard sheet == .waitingForWindow || sheet == .waitingForTransition else { return .none }
        guard requested else {
            sheet = .hidden
            return .none
        }
        if timedOut, sheet == .waitingForTransition, !refusalCounted() { return .givenUp }
        sheet = .presenting
        return .ask
    }

    /// Counts one more refusal; after `maximumRefusals` in a row the request is dropped and this returns false.
    @_optimize(size) private mutating func refusalCounted() -> Bool {
        refusals += 1
        guard refusals >= Self.maximumRefusals else { return true }
        sheet = .hidden
        requested = false
        refusals = 0
        moving = false
        return false
    }

    /// `closeChat()`, logout, deletion or a reset: returns whether a shown sheet must be dismissed now. A sheet
    /// still being presented is dismissed when its answer comes (`answered` says `.dismiss`).
    @_optimize(size) mutating func closeRequested() -> Bool {
        requested = false
        hostDraws = false
        refusals = 0
        moving = false
        sheetBehindOtherWindow = false
        switch sheet {
        case .presented:
            sheet = .hidden
            return true
        case .waitingForWindow, .waitingForTransition, .scheduled:
            sheet = .hidden
            return false
        case .hidden, .presenting:
            return false
        }
    }

    /// The sheet went without `dismissChat()` (a swipe-down, the host dismissing what it was presented over, its
    /// scene closed, its controller released).
    @_optimize(size) mutating func sheetDismissedByPerson() {
        guard sheet == .presented || sheet == .presenting else { return }
        sheet = .hidden
        requested = false
        moving = false
        sheetBehindOtherWindow = false
    }

    /// An embedded chat screen appeared or disappeared.
    @_optimize(size) mutating func embeddedScreenAppeared() { embeddedScreens += 1 }
    @_optimize(size) mutating func embeddedScreenDisappeared() { embeddedScreens = max(0, embeddedScreens - 1) }
}

/// Which window scene the SDK sheet goes to when several are connected (iPad windows, an external display): the
/// one the person is using. Decided outside UIKit from each scene's facts, so it is tested on Linux.
enum ChatSceneChoice {
    /// What the presenter knows of one connected window scene.
    struct Scene: Sendable {
        /// The scene is in the foreground and receiving events.
        var isForegroundActive: Bool
        /// It has a window with a root view controller to present from.
        var canPresent: Bool
        /// One of its windows is a key window.
        var holdsKeyWindow: Bool
        /// When the person last used the scene (it became active, or one of its windows became key: a tap or a
        /// keystroke in it), as a counter, larger is later; `nil` if not seen since the presenter started.
        var lastUse: Int?

        @_optimize(size) package init(isForegroundActive: Bool, canPresent: Bool, holdsKeyWindow: Bool, lastUse: Int?) {
            self.isForegroundActive = isForegroundActive
            self.canPresent = canPresent
            self.holdsKeyWindow = holdsKeyWindow
            self.lastUse = lastUse
        }
    }

    /// The index in `scenes` to present in, or `nil` when none is foreground active with a window (a cold start:
    /// the presenter then waits for a scene to activate). Among the foreground active scenes that can present: the
    /// one used last; else one holding a key window; else the first in UIKit's order. Never a scene in the
    /// background or inactive, where the person would not see the sheet.
    @_optimize(size) static func pick(_ scenes: [Scene]) -> Int? {
        let usable = scenes.indices.filter { scenes[$0].isForegroundActive && scenes[$0].canPresent }
        let used = usable.filter { scenes[$0].lastUse != nil }
        if let latest = used.max(by: { (scenes[$0].lastUse ?? 0) < (scenes[$1].lastUse ?? 0) }) { return latest }
        return usable.first { scenes[$0].holdsKeyWindow } ?? usable.first
    }
}

/// Which window of the chosen scene the SDK sheet is presented from. The key window is not always the app's: an
/// alert or overlay window a host (or a library) raised can be key, and a window being set up has no root view
/// controller yet. Presenting from such a window would fail, or answer "no window" for a scene that has one.
enum ChatWindowChoice {
    /// What the presenter knows of one window of the scene.
    struct Window: Sendable {
        /// It has a root view controller to present from.
        var hasRootViewController: Bool
        /// It is shown (`isHidden` is false).
        var isVisible: Bool
        /// Its level is `.normal`: the app's own windows, not an alert, status bar or overlay window.
        var isNormalLevel: Bool
        /// It is the key window.
        var isKey: Bool

        @_optimize(size) package init(hasRootViewController: Bool, isVisible: Bool, isNormalLevel: Bool, isKey: Bool) {
            self.hasRootViewController = hasRootViewController
            self.isVisible = isVisible
            self.isNormalLevel = isNormalLevel
            self.isKey = isKey
        }
    }

    /// The index in `windows` to present from, or `nil` when no window is shown with a root view controller (the
    /// presenter then waits for a window to become key or visible). Among the shown windows with a root view
    /// controller: a normal-level one before any other, and among those the key one before the first.
    @_optimize(size) static func pick(_ windows: [Window]) -> Int? {
        let usable = windows.indices.filter { windows[$0].hasRootViewController && windows[$0].isVisible }
        let normal = usable.filter { windows[$0].isNormalLevel }
        let preferred = normal.isEmpty ? usable : normal
        return preferred.first { windows[$0].isKey } ?? preferred.first
    }
}

/// How `dismissChat()` goes about a sheet it presented. UIKit ignores a dismissal asked for while a transition
/// runs (it logs it and never calls the completion), so the presenter looks first, and keeps the sheet tracked
/// until it is really gone. Decided outside UIKit from the controllers' facts, so it is tested on Linux.
enum ChatSheetDismissal {
    /// What the presenter knows of the sheet and the controller presenting it.
    struct Facts: Sendable {
        /// UIKit still has the sheet presented (it has a presenting view controller).
        var isPresented: Bool
        /// The sheet is already going: the person's swipe-down, or a dismissal in progress.
        var isBeingDismissed: Bool
        /// The sheet's own presentation has not finished.
        var isBeingPresented: Bool
        /// The presenting controller is itself being presented or dismissed, or has a transition coordinator.
        var presenterInTransition: Bool
        /// A controller the sheet presents (a photo viewer, a paywall) is being dismissed.
        var coverIsLeaving: Bool

        @_optimize(size) package init(
            isPresented: Bool, isBeingDismissed: Bool = false, isBeingPresented: Bool = false,
            presenterInTransition: Bool = false, coverIsLeaving: Bool = false
        ) {
            self.isPresented = isPresented
            self.isBeingDismissed = isBeingDismissed
            self.isBeingPresented = isBeingPresented
            self.presenterInTransition = presenterInTransition
            self.coverIsLeaving = coverIsLeaving
        }
    }

    /// What to do now.
    enum Step: Sendable, Equatable {
        /// Gone already: stop tracking it.
        case forget
        /// The person is swiping it away: follow the swipe; dismiss again if it is cancelled.
        case followTheSwipe
        /// A transition would make UIKit ignore the dismissal: try again when it ends.
        case waitForTransition
        /// Dismiss it now.
        case dismiss
    }

    /// The step for a sheet in the state `facts`. The presenting controller always presents the sheet itself, so
    /// that it presents something is no reason to wait (unlike for a new presentation, `isInTransition`).
    @_optimize(size) static func step(_ facts: Facts) -> Step {
        guard facts.isPresented else { return .forget }
        if facts.isBeingDismissed { return .followTheSwipe }
        if facts.presenterInTransition || facts.isBeingPresented || facts.coverIsLeaving { return .waitForTransition }
        return .dismiss
    }

    /// Right after asking UIKit to dismiss: whether it ignored the request after all (a transition it does not
    /// report), so the presenter tries again after the retry delay.
    @_optimize(size)
    static func ignored(_ after: Facts) -> Bool { after.isPresented && !after.isBeingDismissed }
}
