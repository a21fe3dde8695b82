import Foundation

/// A message as the service sends it (spec 4.2).
public struct Message: Codable, Hashable, Sendable {
    /// The service's message ID.
    public var id: String
    /// The sender's client ID, echoed for user messages; stable across retries.
    public var clientId: String?
    /// Strictly increasing per conversation; the paging cursor.
    public var seq: Int64
    /// `USER` or `AGENT`; anything else is shown as incoming.
    public var sender: MessageSender
    /// The text; may be empty when the message has attachments or is a card.
    public var text: String
    /// Photos, in order.
    public var attachments: [Attachment]
    /// When the service stored the message.
    public var createdAt: Date
    /// `TEXT` when absent on the wire.
    public var kind: MessageKind
    /// For `REVIEW`: the link the card button opens. Kept as text: a malformed link shows the card as a bubble
    /// instead of failing the whole history.
    public var reviewUrl: String?
    /// For `PAYWALL`: a paywall ID the host registered.
    public var paywallId: String?
    /// For `PAYWALL`: the paywall's title when the agent sent it.
    public var paywallTitle: String?
    /// The agent's button text; absent means the localized default.
    public var buttonLabel: String?
    /// The team member who wrote an agent reply (`TeamMember.id`).
    public var authorId: String?
    /// When the card button was first opened (informational).
    public var actionClickedAt: Date?

    /// Makes a message; `kind` defaults to `TEXT`.
    @inline(never) @_optimize(size) public init(
        id: String, clientId: String? = nil, seq: Int64, sender: MessageSender, text: String,
        attachments: [Attachment] = [], createdAt: Date, kind: MessageKind = .text, reviewUrl: String? = nil,
        paywallId: String? = nil, paywallTitle: String? = nil, buttonLabel: String? = nil, authorId: String? = nil,
        actionClickedAt: Date? = nil
    ) {
        self.id = id
        self.clientId = clientId
        self.seq = seq
        self.sender = sender
        self.text = text
        self.attachments = attachments
        self.createdAt = createdAt
        self.kind = kind
        self.reviewUrl = reviewUrl
        self.paywallId = paywallId
        self.paywallTitle = paywallTitle
        self.buttonLabel = buttonLabel
        self.authorId = authorId
        self.actionClickedAt = actionClickedAt
    }

    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        id = try c.decode(String.self, forKey: "id")
        clientId = try c.decodeIfPresent(String.self, forKey: "clientId")
        seq = try c.decode(Int64.self, forKey: "seq")
        sender = try c.decode(MessageSender.self, forKey: "sender")
        text = try c.decode(String.self, forKey: "text")
        attachments = try c.decode([Attachment].self, forKey: "attachments")
        createdAt = try c.decode(Date.self, forKey: "createdAt")
        kind = try c.decodeIfPresent(MessageKind.self, forKey: "kind") ?? .text
        reviewUrl = try c.decodeIfPresent(String.self, forKey: "reviewUrl")
        paywallId = try c.decodeIfPresent(String.self, forKey: "paywallId")
        paywallTitle = try c.decodeIfPresent(String.self, forKey: "paywallTitle")
        buttonLabel = try c.decodeIfPresent(String.self, forKey: "buttonLabel")
        authorId = try c.decodeIfPresent(String.self, forKey: "authorId")
        actionClickedAt = try c.decodeIfPresent(Date.self, forKey: "actionClickedAt")
    }

    /// Spec 4.2: a `REVIEW` renders as a card only with a usable http(s) review link.
    @inline(never) @_optimize(size) public var reviewURL: URL? {
        guard kind == .review, let reviewUrl, let url = URL(string: reviewUrl),
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        return url
    }

    /// Hashes the ID only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension Message {
    @inline(never) @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(id, forKey: "id")
        try c.encodeIfPresent(clientId, forKey: "clientId")
        try c.encode(seq, forKey: "seq")
        try c.encode(sender, forKey: "sender")
        try c.encode(text, forKey: "text")
        try c.encode(attachments, forKey: "attachments")
        try c.encode(createdAt, forKey: "createdAt")
        try c.encode(kind, forKey: "kind")
        try c.encodeIfPresent(reviewUrl, forKey: "reviewUrl")
        try c.encodeIfPresent(paywallId, forKey: "paywallId")
        try c.encodeIfPresent(paywallTitle, forKey: "paywallTitle")
        try c.encodeIfPresent(buttonLabel, forKey: "buttonLabel")
        try c.encodeIfPresent(authorId, forKey: "authorId")
        try c.encodeIfPresent(actionClickedAt, forKey: "actionClickedAt")
    }
}
