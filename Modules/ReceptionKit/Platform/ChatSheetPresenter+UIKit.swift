#if canImport(UIKit) && canImport(SwiftUI) && !os(watchOS)
    import ReceptionUI
    import SwiftUI
    import UIKit

    /// The SDK sheet on iOS: a `ReceptionChatView` in a `UIHostingController`, presented over the top-most view
    /// controller of the foreground active scene. It answers each request once: presented (UIKit's completion),
    /// no window, or busy when UIKit refuses because a presentation or dismissal is in progress (then it waits for
    /// that transition's end, a retry delay, or a timeout). However the sheet goes without `dismissChat()` (a
    /// swipe-down, its last disappearance, its release when the host dismissed the stack it was in, its window
    /// scene closed) the facade is told once; and `showsSheet` says whether it is still shown, for a loss nothing
    /// reported. Compiled only where UIKit exists; the rules it follows (present once, count as open only once
    /// presented, ask again after a refusal, a timeout as a refusal, a silent loss as a dismissal) are
    /// `ChatPresence`'s, tested on Linux (Docs/Apple.md).
    @MainActor
    final class UIKitChatSheetPresenter: NSObject, ChatSheetPresenting, UIAdaptivePresentationControllerDelegate {
        private weak var host: Reception?
        /// The sheet this presenter showed, or is presenting.
        private weak var sheet: UIViewController?
        /// Which sheet `sheet` is: a report from an earlier one (its release comes later) is not about it.
        private var generation = 0
        /// The answer owed to the facade for the presentation in progress: given once.
        private var pendingAnswer: (@MainActor (ChatSheetAnswer) -> Void)?
        private var dismissedByPerson: (@MainActor () -> Void)?
        /// Told when the sheet's window scene leaves the foreground or returns (`ChatSheetScene`).
        private var sceneChanged: (@MainActor (ChatSheetScene) -> Void)?
        /// The observers of a wait for a window (`waitForWindow`).
        private var windowObservers: [any NSObjectProtocol] = []
        /// Watch the sheet's window scene: closed (an iPad window), the sheet is gone; sent to the background or
        /// brought back, the facade is told.
        private var sceneObservers: [any NSObjectProtocol] = []
        /// The controller whose transition refused the last presentation.
        private weak var blocker: UIViewController?
        /// The sheet `dismissChat()` was last asked to dismiss (an iPad move presents the new one beside it).
        private weak var dismissing: UIViewController?

        /// When the person last used each connected scene (`ChatSceneChoice`): a counter, not a time. A list, as an
        /// app has a few scenes at most (a dictionary keyed by scene would compile its own hashing code, 3 kB).
        private var uses: [(scene: ObjectIdentifier, use: Int)] = []
        private var useCount = 0
        private var useObservers: [any NSObjectProtocol] = []

        @_optimize(size) init(host: Reception) {
            self.host = host
            super.init()
            // A scene that becomes active, or whose window becomes key (the person tapped or typed in it), is the
            // one in use: on an iPad with two windows side by side the chat opens where the person is.
            let center = NotificationCenter.default
            useObservers.append(center.addObserver(
                forName: UIScene.didActivateNotification, object: nil, queue: .main
            ) { [weak self] note in
                let id = (note.object as? UIScene).map(ObjectIdentifier.init)
                MainActor.assumeIsolated { self?.sceneUsed(id) }
            })
            useObservers.append(center.addObserver(
                forName: UIWindow.didBecomeKeyNotification, object: nil, queue: .main
            ) { [weak self] note in
                let window = note.object as? UIWindow
                MainActor.assumeIsolated { self?.sceneUsed(window?.windowScene.map(ObjectIdentifier.init)) }
            })
        }

        @_optimize(size) private func sceneUsed(_ id: ObjectIdentifier?) {
            guard let id else { return }
            useCount += 1
            // Forget scenes that are gone, so the list never grows with windows opened and closed. Loops, not
            // closures: a closure is compiled at the host's -O whatever encloses it (Docs/Footprint.md).
            var connected: [ObjectIdentifier] = []
            for scene in UIApplication.shared.connectedScenes { connected.append(ObjectIdentifier(scene)) }
            var kept: [(scene: ObjectIdentifier, use: Int)] = []
            for entry in uses where entry.scene != id && connected.contains(entry.scene) { kept.append(entry) }
            if connected.contains(id) { kept.append((scene: id, use: useCount)) }
            uses = kept
        }

        @_optimize(size) func presentChat(
            answer: @escaping @MainActor (ChatSheetAnswer) -> Void,
            dismissedByPerson: @escaping @MainActor () -> Void,
            sceneChanged: @escaping @MainActor (ChatSheetScene) -> Void
        ) {
            // A request asked while a window was awaited (a later `openChat()`) looks now; the wait ends.
            stopWaiting()
            guard let host, let top = topViewController() else { return answer(.noWindow) }
            // UIKit refuses to present from a controller that is being presented or dismissed, or that still
            // presents one being dismissed (the controller `topViewController` picks during a dismissal). It only
            // logs the refusal and never calls the completion, so the sheet is not asked for then.
            if Self.isInTransition(top) {
                blocker = top
                return answer(.busy)
            }
            // Our previous sheet is still up, its dismissal waiting for a transition (or given up): presenting now
            // would stack a second sheet on it, which that dismissal would then take down too. Wait, as above.
            // An iPad move: the old sheet, whose dismissal was asked for, is in another window than the one asked
            // for now; it does not stand in the way there.
            if let old = sheet, old.presentingViewController != nil, !old.isBeingDismissed,
               !(old === dismissing && Self.scene(of: old) !== top.viewIfLoaded?.window?.windowScene)
            {
                blocker = old
                return answer(.busy)
            }
            generation += 1
            let current = generation
            // However the sheet goes (a swipe, the host dismissing what it was presented over, the host
            // dismissing the whole stack, which leaves it no second disappearance but releases it), the facade
            // learns it, so `isChatOpen` never stays true for a sheet that is gone.
            let controller = ChatSheetController(
                rootView: ReceptionChatView(host: host, placement: .sheet),
                released: { [weak self] in Task { @MainActor in self?.sheetGone(current) } })
            controller.modalPresentationStyle = .pageSheet
            // Reduce Motion: the sheet fades in and out instead of sliding.
            if UIAccessibility.isReduceMotionEnabled { controller.modalTransitionStyle = .crossDissolve }
            controller.presentationController?.delegate = self
            controller.dismissed = { [weak self] in self?.sheetGone(current) }
            // The completion says the sheet is on screen; its first appearance says so too, whichever comes first.
            controller.appeared = { [weak self] in
                guard let self, self.generation == current else { return }
                self.answer(.presented)
            }
            pendingAnswer = answer
            self.dismissedByPerson = dismissedByPerson
            self.sceneChanged = sceneChanged
            sheet = controller
            watchScene(top.viewIfLoaded?.window?.windowScene, of: current)
            top.present(controller, animated: true) { [weak self] in
                guard let self, self.generation == current else { return }
                self.answer(.presented)
            }
            // Accepted, the sheet has its presenting controller at once; refused, it has none and never will.
            if controller.presentingViewController == nil, !controller.isBeingPresented {
                sheet = nil
                self.dismissedByPerson = nil
                self.sceneChanged = nil
                stopWatchingScene()
                blocker = top
                self.answer(.busy)
            }
        }

        /// After the current run-loop turn: a one-shot observer runs last before the run loop sleeps (after Core
        /// Animation's commit and SwiftUI's view updates, where a `dismiss()` of the same action starts its
        /// transition), then `work` runs on the next turn of the main queue.
        @_optimize(size) func afterPendingTransitionsStart(_ work: @escaping @MainActor () -> Void) {
            let box = MainWork(work)
            let observer = CFRunLoopObserverCreateWithHandler(
                kCFAllocatorDefault, CFRunLoopActivity.beforeWaiting.rawValue, false, CFIndex.max
            ) { observer, _ in
                CFRunLoopRemoveObserver(CFRunLoopGetMain(), observer, .commonModes)
                Self.runSoon(box)
            }
            guard let observer else { return Self.runSoon(box) }
            CFRunLoopAddObserver(CFRunLoopGetMain(), observer, .commonModes)
            // The run loop may be asleep (a call from a task): wake it so the observer runs.
            CFRunLoopWakeUp(CFRunLoopGetMain())
        }

        /// Runs `box`'s work in a later turn of the main queue. Never inlined: the run-loop observer's closure calls
        /// it, and closures are compiled at -O (Docs/Footprint.md).
        @inline(never) @_optimize(size) private nonisolated static func runSoon(_ box: MainWork) {
            DispatchQueue.main.async { MainActor.assumeIsolated { box.run() } }
        }

        /// The host's screen over the chat: on the sheet (over what the sheet presents) while it shows, else over
        /// the top-most controller of the scene in use.
        @_optimize(size)
        func presentHostScreen(_ screen: HostScreen, answer: @escaping @MainActor (ChatSheetAnswer) -> Void) {
            guard let controller = screen.content as? UIViewController else { return answer(.noWindow) }
            // The same controller asked for again (a host keeping one paywall, tapped twice): it is up, or on its
            // way; presenting it again would make UIKit raise.
            if controller.presentingViewController != nil || controller.isBeingPresented { return answer(.presented) }
            var top: UIViewController
            if let sheet, sheet.presentingViewController != nil, !sheet.isBeingDismissed {
                top = sheet
                while let next = top.presentedViewController, !next.isBeingDismissed, next !== controller { top = next }
            } else if let root = topViewController() {
                top = root
            } else {
                return answer(.noWindow)
            }
            if Self.isInTransition(top) {
                blocker = top
                return answer(.busy)
            }
            let once = ChatSheetTransitionWait { _ in answer(.presented) }
            top.present(controller, animated: screen.animated) { once.end(.ended) }
            // Refused: no presenting controller, now or ever (UIKit only logs it).
            if controller.presentingViewController == nil, !controller.isBeingPresented, !once.isOver {
                blocker = top
                once.cancel()
                answer(.busy)
            }
        }

        /// True without a sheet; else whether the sheet's scene is the one `openChat()` would present in now.
        @_optimize(size) var sheetIsInRequestingScene: Bool {
            guard let sheet, sheet.presentingViewController != nil, let scene = Self.scene(of: sheet) else { return true }
            guard let requesting = requestingScene() else { return true }
            return requesting === scene
        }

        /// The sheet is shown while UIKit still has it presented and it is in a window, or covered by a
        /// controller it presents (a full-screen paywall takes it out of the window without dismissing it).
        @_optimize(size) var showsSheet: Bool {
            guard let sheet, sheet.presentingViewController != nil else { return false }
            return sheet.viewIfLoaded?.window != nil || sheet.presentedViewController != nil
        }

        /// Waits for any of the signals that a window may now present: a scene activating (a cold start), a window
        /// becoming key or visible (an active scene whose window had no root view controller yet, or only an
        /// overlay window). The first one ends the wait; the others then do nothing.
        @_optimize(size) func waitForWindow(_ ready: @escaping @MainActor () -> Void) {
            stopWaiting()
            // The transition wait's one-shot end serves here too: the first signal calls `ready`, later ones nothing.
            let wait = ChatSheetTransitionWait { _ in ready() }
            // Each name on its own: an array of `Notification.Name` brings the imported type's conformances into the
            // app (Docs/Footprint.md).
            @_optimize(size) func observe(_ name: Notification.Name) -> any NSObjectProtocol {
                NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) { [weak self] _ in
                    // Posted on the main queue; the next turn lets SwiftUI finish installing the scene's root view.
                    Task { @MainActor in
                        self?.stopWaiting()
                        wait.end(.ended)
                    }
                }
            }
            windowObservers = [
                observe(UIScene.didActivateNotification), observe(UIWindow.didBecomeKeyNotification),
                observe(UIWindow.didBecomeVisibleNotification),
            ]
        }

        @_optimize(size) func waitForTransition(_ ended: @escaping @MainActor (ChatSheetTransitionEnd) -> Void) {
            let blocking = blocker
            blocker = nil
            let wait = ChatSheetTransitionWait(ended)
            // A transition that never reports its end (a coordinator whose completion never runs) counts as a
            // refusal once the bound passes, so the request cannot hang in its wait.
            DispatchQueue.main.asyncAfter(deadline: .now() + Self.transitionTimeout) {
                MainActor.assumeIsolated { wait.end(.timedOut) }
            }
            let coordinator = blocking?.transitionCoordinator ?? blocking?.presentedViewController?.transitionCoordinator
            // After the transition's completion, on the next turn, when UIKit has settled who presents what. The
            // coordinator refuses the completion (returns false) when its transition can no longer take one.
            let followed = coordinator?.animate(alongsideTransition: nil) { _ in
                Task { @MainActor in wait.end(.ended) }
            } ?? false
            guard !followed else { return }
            // No coordinator to follow (a transition without animation, one that ended already, or one that
            // refused the completion): ask again after a standard animation's time.
            DispatchQueue.main.asyncAfter(deadline: .now() + Self.transitionRetryDelay) {
                MainActor.assumeIsolated { wait.end(.ended) }
            }
        }

        /// How long to wait before asking again when a refusing transition has no coordinator to follow.
        static let transitionRetryDelay: TimeInterval = 0.35
        /// How long a refusing transition may take before the wait counts as one more refusal.
        static let transitionTimeout: TimeInterval = 2
        /// Tries at dismissing a sheet whose presenter stays in transition, before leaving it to the person.
        static let maximumDismissTries = 8

        @_optimize(size) func dismissChat() {
            dismissing = sheet
            stopWaiting()
            stopWatchingScene()
            dismissedByPerson = nil
            sceneChanged = nil
            pendingAnswer = nil
            guard let controller = sheet else { return }
            dismiss(controller, tries: Self.maximumDismissTries)
        }

        /// Dismisses `controller`, keeping it as `sheet` until UIKit's completion. UIKit silently refuses a
        /// dismissal while a transition runs, so then it waits for that transition (its coordinator, or the retry
        /// delay) and tries again, `tries` times at most.
        @_optimize(size) private func dismiss(_ controller: UIViewController, tries: Int) {
            let again: @MainActor () -> Void = { [weak self, weak controller] in
                guard let self, let controller, tries > 1 else { return }
                self.dismiss(controller, tries: tries - 1)
            }
            switch ChatSheetDismissal.step(Self.dismissalFacts(controller)) {
            case .forget:
                forget(controller)
            case .followTheSwipe:
                // The person's swipe-down in progress: if they cancel it the sheet stays, so dismiss it then; if
                // it completes, it is gone.
                _ = controller.transitionCoordinator?.animate(alongsideTransition: nil) { [weak self, weak controller] context in
                    let cancelled = context.isCancelled
                    Task { @MainActor in
                        guard let self, let controller else { return }
                        if cancelled { again() } else { self.forget(controller) }
                    }
                }
            case .waitForTransition:
                let coordinator = controller.transitionCoordinator ?? controller.presentingViewController?.transitionCoordinator
                let followed = coordinator?.animate(alongsideTransition: nil) { _ in
                    Task { @MainActor in again() }
                } ?? false
                if !followed {
                    DispatchQueue.main.asyncAfter(deadline: .now() + Self.transitionRetryDelay) {
                        MainActor.assumeIsolated { again() }
                    }
                }
            case .dismiss:
                controller.presentingViewController?.dismiss(animated: true) { [weak self, weak controller] in
                    guard let self, let controller else { return }
                    self.forget(controller)
                }
                // Ignored after all (a transition UIKit does not report): try again after the retry delay.
                if ChatSheetDismissal.ignored(Self.dismissalFacts(controller)) {
                    DispatchQueue.main.asyncAfter(deadline: .now() + Self.transitionRetryDelay) {
                        MainActor.assumeIsolated { again() }
                    }
                }
            }
        }

        /// The facts `ChatSheetDismissal` decides from.
        @_optimize(size)
        private static func dismissalFacts(_ controller: UIViewController) -> ChatSheetDismissal.Facts {
            let presenting = controller.presentingViewController
            return ChatSheetDismissal.Facts(
                isPresented: presenting != nil,
                isBeingDismissed: controller.isBeingDismissed,
                isBeingPresented: controller.isBeingPresented,
                presenterInTransition: presenting.map {
                    $0.isBeingPresented || $0.isBeingDismissed || $0.transitionCoordinator != nil
                } ?? false,
                coverIsLeaving: controller.presentedViewController?.isBeingDismissed == true)
        }

        /// `controller` is gone after `dismissChat()`: no longer tracked (a newer sheet stays).
        @_optimize(size) private func forget(_ controller: UIViewController) {
            if sheet === controller { sheet = nil }
        }

        @_optimize(size)
        nonisolated func presentationControllerDidDismiss(_ presentationController: UIPresentationController) {
            MainActor.assumeIsolated {
                // Only a swipe-down of this presenter's current sheet.
                guard let sheet, presentationController.presentedViewController === sheet else { return }
                sheetGone(generation)
            }
        }

        /// The owed answer, once.
        @_optimize(size) private func answer(_ answer: ChatSheetAnswer) {
            let pending = pendingAnswer
            pendingAnswer = nil
            pending?(answer)
        }

        /// The sheet of `which` went without `dismissChat()`: tell the facade once. A report about an earlier
        /// sheet (its release can come after a newer one was presented) does nothing. Never inlined: observers'
        /// closures call it, and closures are compiled at -O (Docs/Footprint.md).
        @inline(never) @_optimize(size) private func sheetGone(_ which: Int) {
            guard which == generation else { return }
            sheet = nil
            pendingAnswer = nil
            stopWatchingScene()
            let callback = dismissedByPerson
            dismissedByPerson = nil
            sceneChanged = nil
            callback?()
        }

        /// Reports the sheet of `which` gone when `scene` disconnects (an iPad window closed with the sheet in it),
        /// and the scene's trips to the background and back (`ChatSheetScene`).
        @_optimize(size) private func watchScene(_ scene: UIScene?, of which: Int) {
            stopWatchingScene()
            guard let scene else { return }
            let center = NotificationCenter.default
            sceneObservers.append(center.addObserver(
                forName: UIScene.didDisconnectNotification, object: scene, queue: .main
            ) { [weak self] _ in
                Task { @MainActor in self?.sheetGone(which) }
            })
            for entering in [false, true] {
                let name = entering ? UIScene.willEnterForegroundNotification : UIScene.didEnterBackgroundNotification
                sceneObservers.append(center.addObserver(forName: name, object: scene, queue: .main) { [weak self] _ in
                    MainActor.assumeIsolated { self?.sceneMoved(scene, toForeground: entering, of: which) }
                })
            }
        }

        // Never inlined: the scene observer's closure calls it, and closures are compiled at -O (Docs/Footprint.md).
        @inline(never)
        @_optimize(size) private func sceneMoved(_ scene: UIScene, toForeground: Bool, of which: Int) {
            guard which == generation, let sceneChanged else { return }
            // Only a window the person is using counts: going Home, every scene turns inactive first, and the
            // sheet's scene may enter the background before the others do.
            var others = false
            for other in UIApplication.shared.connectedScenes
            where other !== scene && other.activationState == .foregroundActive {
                others = true
                break
            }
            sceneChanged(ChatSheetScene(isForeground: toForeground, otherSceneInForeground: others))
        }

        @_optimize(size) private func stopWatchingScene() {
            for observer in sceneObservers { NotificationCenter.default.removeObserver(observer) }
            sceneObservers = []
        }

        @_optimize(size) private func stopWaiting() {
            for observer in windowObservers { NotificationCenter.default.removeObserver(observer) }
            windowObservers = []
        }

        /// Whether UIKit would refuse a presentation from `controller` now.
        @_optimize(size) static func isInTransition(_ controller: UIViewController) -> Bool {
            controller.isBeingPresented || controller.isBeingDismissed || controller.presentedViewController != nil
                || controller.transitionCoordinator != nil
        }

        /// The view controller on top of the window of the scene the person is using (`ChatSceneChoice`: among
        /// the foreground active scenes, the one used last); `nil` when no scene is active yet (a cold start from a
        /// notification tap) or it has no root view controller. A controller being dismissed is passed over, so
        /// during a dismissal this is the controller it leaves (which is still in transition: `isInTransition`).
        @_optimize(size) func topViewController() -> UIViewController? {
            guard let scene = requestingScene(), var top = Self.window(of: scene)?.rootViewController else { return nil }
            while let next = top.presentedViewController, !next.isBeingDismissed { top = next }
            return top
        }

        /// The window scene the person is using (`ChatSceneChoice`), where a request presents.
        @_optimize(size) private func requestingScene() -> UIWindowScene? {
            var scenes: [UIWindowScene] = [], facts: [ChatSceneChoice.Scene] = []
            for case let scene as UIWindowScene in UIApplication.shared.connectedScenes {
                var holdsKeyWindow = false
                for window in scene.windows where window.isKeyWindow {
                    holdsKeyWindow = true
                    break
                }
                // The last use recorded for the scene.
                var lastUse: Int?
                for entry in uses where entry.scene == ObjectIdentifier(scene) { lastUse = entry.use }
                scenes.append(scene)
                facts.append(ChatSceneChoice.Scene(
                    isForegroundActive: scene.activationState == .foregroundActive,
                    canPresent: Self.window(of: scene)?.rootViewController != nil,
                    holdsKeyWindow: holdsKeyWindow, lastUse: lastUse))
            }
            guard let index = ChatSceneChoice.pick(facts) else { return nil }
            return scenes[index]
        }

        /// The window scene `controller` shows in, or the one of the controller presenting it when something
        /// covers it (a full-screen paywall takes it out of its window).
        @_optimize(size) private static func scene(of controller: UIViewController) -> UIWindowScene? {
            controller.viewIfLoaded?.window?.windowScene
                ?? controller.presentingViewController?.viewIfLoaded?.window?.windowScene
        }

        /// The window of `scene` to present from (`ChatWindowChoice`): a shown window with a root view controller,
        /// the app's own (normal level) before an alert or overlay window, the key one first.
        @_optimize(size) private static func window(of scene: UIWindowScene) -> UIWindow? {
            let windows = scene.windows
            var facts: [ChatWindowChoice.Window] = []
            for window in windows {
                facts.append(ChatWindowChoice.Window(
                    hasRootViewController: window.rootViewController != nil, isVisible: !window.isHidden,
                    isNormalLevel: window.windowLevel == .normal, isKey: window.isKeyWindow))
            }
            guard let index = ChatWindowChoice.pick(facts) else { return nil }
            return windows[index]
        }
    }

    /// Main-actor work carried through a CoreFoundation callback that is not actor-isolated.
    private final class MainWork: @unchecked Sendable {
        // Safe: created on the main actor and run only there (`MainActor.assumeIsolated` at the call).
        private let work: @MainActor () -> Void

        @_optimize(size) init(_ work: @escaping @MainActor () -> Void) { self.work = work }

        @_optimize(size) @MainActor func run() { work() }
    }

    /// The SDK sheet's controller: it reports its first appearance, its own dismissal (its last disappearance),
    /// and its release, which is all that a dismissal of the whole stack it was in leaves (no second
    /// `viewDidDisappear`).
    final class ChatSheetController: UIHostingController<ReceptionChatView> {
        var appeared: (@MainActor () -> Void)?
        var dismissed: (@MainActor () -> Void)?
        /// Called from `deinit`; it hops to the main actor itself.
        private let released: @Sendable () -> Void

        @_optimize(size) init(rootView: ReceptionChatView, released: @escaping @Sendable () -> Void) {
            self.released = released
            super.init(rootView: rootView)
        }

        @available(*, unavailable)
        @_optimize(size) required init?(coder aDecoder: NSCoder) {
            nil
        }

        deinit {
            released()
        }

        @_optimize(size) override func viewDidAppear(_ animated: Bool) {
            super.viewDidAppear(animated)
            let callback = appeared
            appeared = nil
            callback?()
        }

        @_optimize(size) override func viewDidDisappear(_ animated: Bool) {
            super.viewDidDisappear(animated)
            if isBeingDismissed || presentingViewController == nil { dismissed?() }
        }
    }

    extension Reception {
        @_optimize(size) static func platformSheetPresenter(host: Reception) -> (any ChatSheetPresenting)? {
            UIKitChatSheetPresenter(host: host)
        }
    }

    extension ReceptionChatView {
        /// The support chat of `Reception.shared`, for a host's `NavigationStack`, `TabView` tab or sheet:
        /// `NavigationStack { ReceptionChatView() }`. While it is on screen the chat is open (the opening load,
        /// live updates, typing and reads); leaving it, or the app going to the background, pauses as
        /// `closeChat()` does. A chat the host embeds is the host's to dismiss.
        @MainActor
        @_optimize(size) public init() {
            self.init(host: Reception.shared, placement: .embedded)
        }
    }
#else
    extension Reception {
        /// No sheet on this platform: `openChat()` opens the chat for a screen the host draws itself.
        @_optimize(size) static func platformSheetPresenter(host: Reception) -> (any ChatSheetPresenting)? { nil }
    }
#endif
