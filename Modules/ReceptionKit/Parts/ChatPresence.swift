/// What presents the SDK's chat sheet: UIKit on iOS (`UIKitChatSheetPresenter`), nothing on platforms without it,
/// a recording fake in tests.
@MainActor
package protocol ChatSheetPresenting: AnyObject {
    /// Presents the chat over the top-most view controller of the foreground active scene, with a close control.
    /// Returns `false` when no window can show it now (a cold start before the first scene is active).
    /// `dismissedByPerson` is called when the person swipes the sheet away.
    func presentChat(dismissedByPerson: @escaping @MainActor () -> Void) -> Bool
    /// Calls `ready` once, when a window may be able to present (a scene became active).
    func waitForWindow(_ ready: @escaping @MainActor () -> Void)
    /// Dismisses the sheet this presenter showed, if it still shows.
    func dismissChat()
}

/// Who keeps the chat on screen (seed 000 "Open & close the chat", seed 004 "Dedicated Support tab"): the SDK
/// sheet that `openChat()` asked for, and the `ReceptionChatView`s a host embeds. The chat is open while either
/// holds it; the facade acts on the changes of `isOpen`.
struct ChatPresence: Sendable, Hashable {
    /// Where the SDK sheet stands.
    enum Sheet: Sendable, Hashable {
        /// Not shown.
        case hidden
        /// Asked for before any window could show it; presented when a scene becomes active.
        case waitingForWindow
        /// On screen.
        case presented
    }

    /// `openChat()` was called and no `closeChat()`, swipe-down, logout or reset ended it.
    private(set) var requested = false
    /// The SDK sheet.
    private(set) var sheet = Sheet.hidden
    /// Embedded `ReceptionChatView`s on screen (a host may show one in a tab and another in a sheet of its own).
    private(set) var embeddedScreens = 0

    /// Whether the chat is on screen (or about to be, while the sheet waits for a window).
    var isOpen: Bool { requested || embeddedScreens > 0 }

    /// `openChat()`: returns whether the sheet should be presented now (never twice, never over an embedded chat).
    mutating func openRequested() -> Bool {
        guard !isOpen else { return false }
        requested = true
        return true
    }

    /// The presenter answered: on screen, or waiting for a window.
    mutating func sheetPresented(_ shown: Bool) { sheet = shown ? .presented : .waitingForWindow }

    /// A window became available: returns whether the sheet should be presented now.
    mutating func windowAvailable() -> Bool {
        guard sheet == .waitingForWindow else { return false }
        sheet = .hidden
        return requested
    }

    /// `closeChat()`, logout, deletion or a reset: returns whether a shown sheet must be dismissed.
    mutating func closeRequested() -> Bool {
        requested = false
        defer { sheet = .hidden }
        return sheet == .presented
    }

    /// The person swiped the sheet away.
    mutating func sheetDismissedByPerson() {
        guard sheet == .presented else { return }
        sheet = .hidden
        requested = false
    }

    /// An embedded chat screen appeared or disappeared.
    mutating func embeddedScreenAppeared() { embeddedScreens += 1 }
    mutating func embeddedScreenDisappeared() { embeddedScreens = max(0, embeddedScreens - 1) }
}
