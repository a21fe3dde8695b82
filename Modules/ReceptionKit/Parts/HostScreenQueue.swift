/// The host's screens waiting to go over the chat (issue 50: a paywall from an offer card, a web page from a link).
/// A screen asked for while the SDK sheet is on its way (its request scheduled, being presented, or waiting for a
/// refusing transition or a window) waits until the sheet has settled, so it lands on the sheet instead of being
/// refused by UIKit, or stacked under it; a screen asked for otherwise goes at once. Decided here, outside UIKit,
/// and tested on Linux with the recording presenter (HostScreenTests).
@MainActor
struct HostScreenQueue {
    /// Screens held until the sheet settles, in the order they were asked for.
    private(set) var waiting: [HostScreen] = []

    /// Refusals in a row after which a screen is dropped (and logged): as for the sheet itself.
    static let maximumRefusals = ChatPresence.maximumRefusals

    /// Whether a screen asked for while the sheet is in `state` must wait for it.
    static func mustWait(for state: ChatPresence.Sheet) -> Bool {
        switch state {
        case .scheduled, .presenting, .waitingForTransition, .waitingForWindow: true
        case .hidden, .presented: false
        }
    }

    /// A screen asked for: returns it when it can go now, else holds it.
    mutating func request(_ screen: HostScreen, sheet state: ChatPresence.Sheet) -> HostScreen? {
        guard Self.mustWait(for: state), waiting.count < 8 else { return screen }
        waiting.append(screen)
        return nil
    }

    /// The sheet's state changed: once it has settled (shown, or gone), the held screens go, in order.
    mutating func sheetSettled(_ state: ChatPresence.Sheet, present: (HostScreen) -> Void) {
        guard !Self.mustWait(for: state), !waiting.isEmpty else { return }
        let ready = waiting
        waiting = []
        for screen in ready { present(screen) }
    }
}
