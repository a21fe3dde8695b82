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
    @inline(never)
    @_optimize(size) public init(id: String, status: ConversationStatus, unreadForUser: Int, createdAt: Date) {
        self.id = id
        self.status = status
        self.unreadForUser = unreadForUser
        self.createdAt = createdAt
    }

    /// Hashes the ID only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// The compact conversation of `GET conversation/messages` (spec 3.7): `status` required, `id` optional.
public struct CompactConversation: Codable, Hashable, Sendable {
    /// The conversation ID, when the service includes it.
    public var id: String?
    /// The conversation's status.
    public var status: ConversationStatus

    /// Makes a compact conversation.
    @inline(never) @_optimize(size) public init(id: String?, status: ConversationStatus) {
        self.id = id
        self.status = status
    }

    /// Hashes the ID only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension ConversationSummary {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        id = try c.decode(String.self, forKey: "id")
        status = try c.decode(ConversationStatus.self, forKey: "status")
        unreadForUser = try c.decode(Int.self, forKey: "unreadForUser")
        createdAt = try c.decode(Date.self, forKey: "createdAt")
    }

    @inline(never) @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(id, forKey: "id")
        try c.encode(status, forKey: "status")
        try c.encode(unreadForUser, forKey: "unreadForUser")
        try c.encode(createdAt, forKey: "createdAt")
    }
}

extension CompactConversation {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        id = try c.decodeIfPresent(String.self, forKey: "id")
        status = try c.decode(ConversationStatus.self, forKey: "status")
    }

    @inline(never) @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encodeIfPresent(id, forKey: "id")
        try c.encode(status, forKey: "status")
    }
}
