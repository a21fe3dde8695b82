import Foundation

/// What a chat screen (`ReceptionChatView`) needs from the SDK that shows it: the current session's model, the look,
/// and the calls that keep the chat open while the screen is on it. The facade's `Reception` is the one host; the
/// screen never reaches past it into the engine, the store or the transport.
@MainActor
package protocol ChatScreenHost: AnyObject {
    /// The current session's chat (replaced on logout and reset); `nil` before configure.
    var chat: ChatModel? { get }
    /// The look: the host's appearance with the dashboard's published one laid over it.
    var chatAppearance: ChatAppearance { get }
    /// The paywall IDs an offer card can open now: the available paywalls while the host has a handler, else none.
    var availablePaywallIDs: Set<String> { get }
    /// An embedded chat screen appeared: the chat is open while at least one is on screen.
    func chatScreenAppeared()
    /// An embedded chat screen disappeared.
    func chatScreenDisappeared()
    /// The close control of the SDK sheet.
    func closeChat()
    /// The person tapped the button of the card `messageID`.
    func tapCard(messageID: String)
    /// The person tapped a link in a message (`MessageRow.textRuns`): returns whether it was opened (only `http`,
    /// `https`, `mailto` and `tel`, through the host's `openURL`).
    func openMessageLink(_ url: URL) -> Bool
}
