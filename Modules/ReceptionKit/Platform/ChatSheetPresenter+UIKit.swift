#if canImport(UIKit) && canImport(SwiftUI) && !os(watchOS)
    import ReceptionUI
    import SwiftUI
    import UIKit

    /// The SDK sheet on iOS: a `ReceptionChatView` in a `UIHostingController`, presented over the top-most view
    /// controller of the foreground active scene. A swipe-down reaches the facade through the presentation
    /// controller's delegate. Compiled only where UIKit exists; the rules it follows (present once, wait for a
    /// window, who dismisses) are `ChatPresence`'s, tested on Linux (Docs/Apple.md).
    @MainActor
    final class UIKitChatSheetPresenter: NSObject, ChatSheetPresenting, UIAdaptivePresentationControllerDelegate {
        private weak var host: Reception?
        /// The sheet this presenter showed, while it shows.
        private weak var sheet: UIViewController?
        private var dismissedByPerson: (@MainActor () -> Void)?
        private var sceneObserver: (any NSObjectProtocol)?

        init(host: Reception) {
            self.host = host
        }

        func presentChat(dismissedByPerson: @escaping @MainActor () -> Void) -> Bool {
            guard let host, let top = Self.topViewController() else { return false }
            let controller = ChatSheetController(rootView: ReceptionChatView(host: host, placement: .sheet))
            controller.modalPresentationStyle = .pageSheet
            controller.presentationController?.delegate = self
            // However the sheet goes (a swipe, or the host dismissing what it was presented over), the facade
            // learns it, so `isChatOpen` never stays true for a sheet that is gone.
            controller.dismissed = { [weak self, weak controller] in
                guard let self, let controller, self.sheet === controller else { return }
                self.sheetGone()
            }
            self.dismissedByPerson = dismissedByPerson
            sheet = controller
            top.present(controller, animated: !UIAccessibility.isReduceMotionEnabled)
            return true
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

        func dismissChat() {
            stopWaiting()
            dismissedByPerson = nil
            guard let controller = sheet else { return }
            sheet = nil
            controller.presentingViewController?.dismiss(animated: !UIAccessibility.isReduceMotionEnabled)
        }

        nonisolated func presentationControllerDidDismiss(_ presentationController: UIPresentationController) {
            MainActor.assumeIsolated { sheetGone() }
        }

        /// The sheet went without `dismissChat()`: tell the facade once.
        private func sheetGone() {
            sheet = nil
            let callback = dismissedByPerson
            dismissedByPerson = nil
            callback?()
        }

        private func stopWaiting() {
            if let sceneObserver { NotificationCenter.default.removeObserver(sceneObserver) }
            sceneObserver = nil
        }

        /// The view controller on top of the key window of the foreground active scene; `nil` when no scene is
        /// active yet (a cold start from a notification tap) or it has no root view controller.
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

    /// The SDK sheet's controller: it reports its own dismissal, whatever caused it.
    final class ChatSheetController: UIHostingController<ReceptionChatView> {
        var dismissed: (@MainActor () -> Void)?

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
