/// The host's screens waiting to go over the chat (issue 50: a paywall from an offer card, a web page from a link).
/// A screen asked for while the SDK sheet is on its way (its request scheduled, being presented, or waiting for a
/// refusing transition or a window) waits until the sheet has settled, so it lands on the sheet instead of being
/// refused by UIKit, or stacked under it; a screen asked for otherwise goes at once. Decided here, outside UIKit,
/// and tested on Linux with the recording presenter (HostScreenTests).
@MainActor
struct HostScreenQueue {
    /// Screens held until the sheet settles, in the order they were asked for.
    private(set) var waiting: [HostScreen] = []
    /// Screens asked of the presenter and not yet on screen or dropped (a refusal's wait included).
    private(set) var inFlight = 0

    /// Whether a screen is on its way (held, or asked and not yet shown): a second tap on the offer card that
    /// asked for it is the same tap again (issue 50: a double tap must not stack two paywalls).
    @_optimize(size) var isBusy: Bool { inFlight > 0 || !waiting.isEmpty }

    /// A screen is asked of the presenter.
    @_optimize(size) mutating func began() { inFlight += 1 }

    /// A screen asked of the presenter is on screen, or was dropped.
    @_optimize(size) mutating func ended() { inFlight = max(0, inFlight - 1) }

    /// Refusals in a row after which a screen is dropped (and logged): as for the sheet itself.
    static let maximumRefusals = ChatPresence.maximumRefusals

    /// Whether a screen asked for while the sheet is in `state` must wait for it.
    @inline(never) @_optimize(size) static func mustWait(for state: ChatPresence.Sheet) -> Bool {
        switch state {
        case .scheduled, .presenting, .waitingForTransition, .waitingForWindow: true
        case .hidden, .presented: false
        }
    }

    /// Screens held at most: a host asking for more while the sheet is on its way is asking too much.
    static let maximumWaiting = 8

    /// What to do with a screen asked for.
    enum Step {
        /// Present it now.
        case present(HostScreen)
        /// Held until the sheet settles.
        case held
        /// Dropped (and logged): `maximumWaiting` are held already.
        case dropped
    }

    /// A screen asked for: present now, or hold it until the sheet settles (or drop it when too many are held).
    @inline(never)
    @_optimize(size) mutating func request(_ screen: HostScreen, sheet state: ChatPresence.Sheet) -> Step {
        guard Self.mustWait(for: state) else { return .present(screen) }
        guard waiting.count < Self.maximumWaiting else { return .dropped }
        waiting.append(screen)
        return .held
    }

    /// The sheet's state changed: once it has settled (shown, or gone), the held screens go, in order (returned
    /// for the caller to present, so that presenting may change this queue again).
    @inline(never) @_optimize(size) mutating func sheetSettled(_ state: ChatPresence.Sheet) -> [HostScreen] {
        guard !Self.mustWait(for: state), !waiting.isEmpty else { return [] }
        defer { waiting = [] }
        return waiting
    }
}
