#if canImport(UIKit) && canImport(SwiftUI) && !os(watchOS)
    import SwiftUI
    import UIKit

    extension Reception {
        /// Presents one of your app's screens over the support chat: your paywall from `onPaywall`, a web page
        /// from `ReceptionConfiguration.openURL`, a sign-in screen. While the SDK sheet shows, the screen goes on
        /// the sheet (over whatever the chat presents), so UIKit does not refuse it, and dismissing it returns to
        /// the chat; while the sheet is on its way it follows once the sheet is up; with no sheet it goes over
        /// the top-most view controller of the window the person is using. A presentation refused because another
        /// one is in progress is asked again when that one ends.
        ///
        /// Your app's own `.sheet`, `.fullScreenCover` or `present(_:animated:)` on its root view would be refused
        /// while the chat sheet covers it: use this instead.
        ///
        /// ```swift
        /// Reception.shared.onPaywall = { id in
        ///     Reception.shared.present(PaywallViewController(paywallID: id))
        /// }
        /// ```
        @_optimize(size) public func present(_ viewController: UIViewController, animated: Bool = true) {
            presentHostScreen(HostScreen(content: viewController, animated: animated))
        }

        /// Presents a SwiftUI view of your app's over the support chat, as `present(_:animated:)` does: as a page
        /// sheet, or full screen with `fullScreen`. The view closes itself with `@Environment(\.dismiss)`, and
        /// the chat is there again.
        ///
        /// ```swift
        /// Reception.shared.onPaywall = { id in
        ///     Reception.shared.present { PaywallView(paywallID: id) }
        /// }
        /// ```
        @_optimize(size) public func present<Content: View>(
            fullScreen: Bool = false, animated: Bool = true, @ViewBuilder _ content: () -> Content
        ) {
            let controller = UIHostingController(rootView: content())
            controller.modalPresentationStyle = fullScreen ? .fullScreen : .pageSheet
            present(controller, animated: animated)
        }
    }
#endif
