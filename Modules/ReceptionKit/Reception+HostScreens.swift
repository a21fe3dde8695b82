import Foundation
import ReceptionCore

extension Reception {
    // MARK: - The host's screens over the chat (issue 50)

    /// Presents a screen of the host's over the chat (the platform API is `present(_:)` on iOS): on the SDK
    /// sheet, over whatever it presents, while it shows; after it, when it is on its way; over the top-most
    /// controller of the scene in use otherwise. A refusal (another transition in progress) asks again when that
    /// transition ends, up to `HostScreenQueue.maximumRefusals` times.
    package func presentHostScreen(_ screen: HostScreen) {
        guard sheetPresenter != nil else {
            logger("Chat").error("a host screen was not presented: this platform has no presenter")
            return
        }
        guard let now = hostScreens.request(screen, sheet: presence.sheet) else { return }
        askForHostScreen(now)
    }

    /// Asks the presenter for `screen`, the `refusals`-th time.
    func askForHostScreen(_ screen: HostScreen, refusals: Int = 0) {
        guard let presenter = sheetPresenter else { return }
        presenter.presentHostScreen(screen) { [weak self] answer in
            guard let self else { return }
            switch answer {
            case .presented:
                break
            case .busy where refusals + 1 < HostScreenQueue.maximumRefusals:
                presenter.waitForTransition { [weak self] _ in
                    guard let self else { return }
                    // The sheet may have started on its way meanwhile: then the screen waits for it.
                    if let again = self.hostScreens.request(screen, sheet: self.presence.sheet) {
                        self.askForHostScreen(again, refusals: refusals + 1)
                    }
                }
            case .busy, .noWindow:
                self.logger("Chat").error("a host screen was not presented: \(answer == .noWindow ? "no window" : "another presentation stayed in progress")")
            }
        }
    }
}
