import Foundation

/// The conversation object of `GET conversation` and of the send response (spec 4.3); all four fields required.
public struct ConversationSummary: Codable, Hashable, Sendable {
    /// The conversation ID (also the push payload's `reception.conversationId`).
    public var id: String
    /// `OPEN`, or another server-defined status.
    public var status: ConversationStatus
    /// Unread agent messages as the service counts them (decoded, not used by the client).
    public var unreadForUser: Int
    /// When the conversation started.
    public var createdAt: Date

    /// Makes a summary.
    public init(id: String, status: ConversationStatus, unreadForUser: Int, createdAt: Date) {
        self.id = id
        self.status = status
        self.unreadForUser = unreadForUser
        self.createdAt = createdAt
    }
}

/// The compact conversation of `GET conversation/messages` (spec 3.7): `status` required, `id` optional.
public struct CompactConversation: Codable, Hashable, Sendable {
    /// The conversation ID, when the service includes it.
    public var id: String?
    /// The conversation's status.
    public var status: ConversationStatus

    /// Makes a compact conversation.
    public init(id: String?, status: ConversationStatus) {
        self.id = id
        self.status = status
    }
}
