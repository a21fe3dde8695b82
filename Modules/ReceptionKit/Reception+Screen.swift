import Conversation
import Foundation

// `ReceptionChatView` (ReceptionUI) talks to the SDK through `ChatScreenHost`; `Reception` is the host.
extension Reception: ChatScreenHost {
    /// An embedded `ReceptionChatView` appeared: the chat is open while at least one is on screen. A screen shown
    /// before `configure(appId:)` counts too: the chat opens when the configure starts its session.
    @inline(never) @_optimize(size) package func chatScreenAppeared() {
        presence.embeddedScreenAppeared()
        chatPresenceChanged()
    }

    /// An embedded `ReceptionChatView` disappeared (its tab or route was left): the last one closes the chat, as
    /// `closeChat()` does, unless the SDK sheet holds it.
    @inline(never) @_optimize(size) package func chatScreenDisappeared() {
        presence.embeddedScreenDisappeared()
        chatPresenceChanged()
    }

    /// A card's button in the chat screen: `tapCard(_:)` with the message of the current transcript.
    @inline(never) @_optimize(size) package func tapCard(messageID: String) {
        guard let message = chat?.messages.first(where: { $0.id == messageID }) else { return }
        tapCard(message)
    }

    /// A link tapped in a message: only `http`, `https`, `mailto` and `tel` open, through
    /// `ReceptionConfiguration.openURL` (which presents over the chat or leaves the app: never into a refused
    /// presentation); anything else stays text.
    @discardableResult
    @inline(never) @_optimize(size) package func openMessageLink(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), LinkDetector.openableSchemes.contains(scheme),
              configured("openMessageLink") != nil
        else { return false }
        configuration.openURL(url)
        return true
    }
}
