import Foundation
import ReceptionCore

extension Reception {
    // MARK: - The host's screens over the chat (issue 50)

    /// Presents a screen of the host's over the chat (the platform API is `present(_:)` on iOS): on the SDK
    /// sheet, over whatever it presents, while it shows; after it, when it is on its way; over the top-most
    /// controller of the scene in use otherwise. A refusal (another transition in progress) asks again when that
    /// transition ends, up to `HostScreenQueue.maximumRefusals` times.
    @inline(never) @_optimize(size) func presentHostScreen(_ screen: HostScreen) {
        guard sheetPresenter != nil else {
            logger("Chat").write(.error, "a host screen was not presented: this platform has no presenter")
            return
        }
        route(screen, refusals: 0)
    }

    /// Presents `screen` now, holds it while the sheet is on its way, or drops it.
    @inline(never) @_optimize(size) private func route(_ screen: HostScreen, refusals: Int) {
        switch hostScreens.request(screen, sheet: presence.sheet) {
        case .present(let now): askForHostScreen(now, refusals: refusals)
        case .held: break
        case .dropped: logger("Chat").write(
            .error, "a host screen was not presented: too many are waiting for the chat sheet")
        }
    }

    /// Asks the presenter for `screen`, the `refusals`-th time.
    @inline(never) @_optimize(size) func askForHostScreen(_ screen: HostScreen, refusals: Int = 0) {
        guard let presenter = sheetPresenter else { return }
        hostScreens.began()
        presenter.presentHostScreen(screen) { [weak self] answer in
            guard let self else { return }
            self.hostScreens.ended()
            switch answer {
            case .presented:
                break
            case .busy where refusals + 1 < HostScreenQueue.maximumRefusals:
                // Still on its way while the refusing transition runs.
                self.hostScreens.began()
                presenter.waitForTransition { [weak self] _ in
                    guard let self else { return }
                    self.hostScreens.ended()
                    // The sheet may have started on its way meanwhile: then the screen waits for it.
                    self.route(screen, refusals: refusals + 1)
                }
            case .busy, .noWindow:
                self.logger("Chat").write(
                    .error, "a host screen was not presented: \(answer == .noWindow ? "no window" : "another presentation stayed in progress")")
            }
        }
    }
}
