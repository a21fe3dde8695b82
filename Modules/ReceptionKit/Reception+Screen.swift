import Conversation

// `ReceptionChatView` (ReceptionUI) talks to the SDK through `ChatScreenHost`; `Reception` is the host.
extension Reception: ChatScreenHost {
    /// An embedded `ReceptionChatView` appeared: the chat is open while at least one is on screen.
    package func chatScreenAppeared() {
        guard isConfigured else { return }
        presence.embeddedScreenAppeared()
        chatPresenceChanged()
    }

    /// An embedded `ReceptionChatView` disappeared (its tab or route was left): the last one closes the chat, as
    /// `closeChat()` does, unless the SDK sheet holds it.
    package func chatScreenDisappeared() {
        guard isConfigured else { return }
        presence.embeddedScreenDisappeared()
        chatPresenceChanged()
    }

    /// A card's button in the chat screen: `tapCard(_:)` with the message of the current transcript.
    package func tapCard(messageID: String) {
        guard let message = chat?.messages.first(where: { $0.id == messageID }) else { return }
        tapCard(message)
    }
}
