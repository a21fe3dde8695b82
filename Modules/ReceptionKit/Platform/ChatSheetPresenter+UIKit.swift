#if canImport(UIKit) && canImport(SwiftUI) && !os(watchOS)
    import ReceptionUI
    import SwiftUI
    import UIKit

    /// The SDK sheet on iOS: a `ReceptionChatView` in a `UIHostingController`, presented over the top-most view
    /// controller of the foreground active scene. It answers each request once: presented (UIKit's completion),
    /// no window, or busy when UIKit refuses because a presentation or dismissal is in progress (then it waits for
    /// that transition's end). A swipe-down reaches the facade through the presentation controller's delegate.
    /// Compiled only where UIKit exists; the rules it follows (present once, count as open only once presented,
    /// ask again after a refusal, who dismisses) are `ChatPresence`'s, tested on Linux (Docs/Apple.md).
    @MainActor
    final class UIKitChatSheetPresenter: NSObject, ChatSheetPresenting, UIAdaptivePresentationControllerDelegate {
        private weak var host: Reception?
        /// The sheet this presenter showed, or is presenting.
        private weak var sheet: UIViewController?
        /// The answer owed to the facade for the presentation in progress: given once.
        private var pendingAnswer: (@MainActor (ChatSheetAnswer) -> Void)?
        private var dismissedByPerson: (@MainActor () -> Void)?
        private var sceneObserver: (any NSObjectProtocol)?
        /// The controller whose transition refused the last presentation.
        private weak var blocker: UIViewController?

        init(host: Reception) {
            self.host = host
        }

        func presentChat(
            answer: @escaping @MainActor (ChatSheetAnswer) -> Void,
            dismissedByPerson: @escaping @MainActor () -> Void
        ) {
            guard let host, let top = Self.topViewController() else { return answer(.noWindow) }
            // UIKit refuses to present from a controller that is being presented or dismissed, or that still
            // presents one being dismissed (the controller `topViewController` picks during a dismissal). It only
            // logs the refusal and never calls the completion, so the sheet is not asked for then.
            if Self.isInTransition(top) {
                blocker = top
                return answer(.busy)
            }
            let controller = ChatSheetController(rootView: ReceptionChatView(host: host, placement: .sheet))
            controller.modalPresentationStyle = .pageSheet
            // Reduce Motion: the sheet fades in and out instead of sliding.
            if UIAccessibility.isReduceMotionEnabled { controller.modalTransitionStyle = .crossDissolve }
            controller.presentationController?.delegate = self
            // However the sheet goes (a swipe, or the host dismissing what it was presented over), the facade
            // learns it, so `isChatOpen` never stays true for a sheet that is gone.
            controller.dismissed = { [weak self, weak controller] in
                guard let self, let controller, self.sheet === controller else { return }
                self.sheetGone()
            }
            // The completion says the sheet is on screen; its first appearance says so too, whichever comes first.
            controller.appeared = { [weak self, weak controller] in
                guard let self, let controller, self.sheet === controller else { return }
                self.answer(.presented)
            }
            pendingAnswer = answer
            self.dismissedByPerson = dismissedByPerson
            sheet = controller
            top.present(controller, animated: true) { [weak self, weak controller] in
                guard let self, let controller, self.sheet === controller else { return }
                self.answer(.presented)
            }
            // Accepted, the sheet has its presenting controller at once; refused, it has none and never will.
            if controller.presentingViewController == nil, !controller.isBeingPresented {
                sheet = nil
                self.dismissedByPerson = nil
                blocker = top
                self.answer(.busy)
            }
        }

        func waitForWindow(_ ready: @escaping @MainActor () -> Void) {
            if let sceneObserver { NotificationCenter.default.removeObserver(sceneObserver) }
            sceneObserver = NotificationCenter.default.addObserver(
                forName: UIScene.didActivateNotification, object: nil, queue: .main
            ) { [weak self] _ in
                // Posted on the main queue; the next turn lets SwiftUI finish installing the scene's root view.
                Task { @MainActor in
                    self?.stopWaiting()
                    ready()
                }
            }
        }

        func waitForTransition(_ ended: @escaping @MainActor () -> Void) {
            let blocking = blocker
            blocker = nil
            let coordinator = blocking?.transitionCoordinator ?? blocking?.presentedViewController?.transitionCoordinator
            if let coordinator {
                // After the transition's completion, on the next turn, when UIKit has settled who presents what.
                coordinator.animate(alongsideTransition: nil) { _ in
                    Task { @MainActor in ended() }
                }
            } else {
                // No coordinator to follow (a transition without animation, or one that ended already): ask again
                // after a standard animation's time.
                DispatchQueue.main.asyncAfter(deadline: .now() + Self.transitionRetryDelay) {
                    MainActor.assumeIsolated { ended() }
                }
            }
        }

        /// How long to wait before asking again when a refusing transition has no coordinator.
        static let transitionRetryDelay: TimeInterval = 0.35

        func dismissChat() {
            stopWaiting()
            dismissedByPerson = nil
            pendingAnswer = nil
            guard let controller = sheet else { return }
            sheet = nil
            controller.presentingViewController?.dismiss(animated: true)
        }

        nonisolated func presentationControllerDidDismiss(_ presentationController: UIPresentationController) {
            MainActor.assumeIsolated { sheetGone() }
        }

        /// The owed answer, once.
        private func answer(_ answer: ChatSheetAnswer) {
            let pending = pendingAnswer
            pendingAnswer = nil
            pending?(answer)
        }

        /// The sheet went without `dismissChat()`: tell the facade once.
        private func sheetGone() {
            sheet = nil
            pendingAnswer = nil
            let callback = dismissedByPerson
            dismissedByPerson = nil
            callback?()
        }

        private func stopWaiting() {
            if let sceneObserver { NotificationCenter.default.removeObserver(sceneObserver) }
            sceneObserver = nil
        }

        /// Whether UIKit would refuse a presentation from `controller` now.
        static func isInTransition(_ controller: UIViewController) -> Bool {
            controller.isBeingPresented || controller.isBeingDismissed || controller.presentedViewController != nil
                || controller.transitionCoordinator != nil
        }

        /// The view controller on top of the key window of the foreground active scene; `nil` when no scene is
        /// active yet (a cold start from a notification tap) or it has no root view controller. A controller being
        /// dismissed is passed over, so during a dismissal this is the controller it leaves (which is still in
        /// transition: `isInTransition`).
        static func topViewController() -> UIViewController? {
            let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
            guard let scene = scenes.first(where: { $0.activationState == .foregroundActive }),
                  let window = scene.windows.first(where: \.isKeyWindow) ?? scene.windows.first,
                  var top = window.rootViewController
            else { return nil }
            while let next = top.presentedViewController, !next.isBeingDismissed { top = next }
            return top
        }
    }

    /// The SDK sheet's controller: it reports its first appearance and its own dismissal, whatever caused it.
    final class ChatSheetController: UIHostingController<ReceptionChatView> {
        var appeared: (@MainActor () -> Void)?
        var dismissed: (@MainActor () -> Void)?

        override func viewDidAppear(_ animated: Bool) {
            super.viewDidAppear(animated)
            let callback = appeared
            appeared = nil
            callback?()
        }

        override func viewDidDisappear(_ animated: Bool) {
            super.viewDidDisappear(animated)
            if isBeingDismissed || presentingViewController == nil { dismissed?() }
        }
    }

    extension Reception {
        static func platformSheetPresenter(host: Reception) -> (any ChatSheetPresenting)? {
            UIKitChatSheetPresenter(host: host)
        }
    }

    extension ReceptionChatView {
        /// The support chat of `Reception.shared`, for a host's `NavigationStack`, `TabView` tab or sheet:
        /// `NavigationStack { ReceptionChatView() }`. While it is on screen the chat is open (the opening load,
        /// live updates, typing and reads); leaving it, or the app going to the background, pauses as
        /// `closeChat()` does. A chat the host embeds is the host's to dismiss.
        @MainActor
        public init() {
            self.init(host: Reception.shared, placement: .embedded)
        }
    }
#else
    extension Reception {
        /// No sheet on this platform: `openChat()` opens the chat for a screen the host draws itself.
        static func platformSheetPresenter(host: Reception) -> (any ChatSheetPresenting)? { nil }
    }
#endif
