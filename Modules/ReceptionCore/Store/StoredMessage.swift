import Foundation

/// One message as the device keeps it between launches (spec 7.17, "chat cache contents"): a confirmed message from
/// the service, or an unsent one of this person's with everything a retry after relaunch needs.
///
/// For the person's own messages `id` is the local ID, which is also the `clientId` sent to the service (spec
/// 7.8.1), so `clientId` is not stored separately.
public struct StoredMessage: Codable, Hashable, Sendable {
    /// The local ID: the client ID for own messages, the service's ID for incoming ones. Unique within a scope.
    public var id: String
    /// The service's sequence number; `nil` while the message is unconfirmed (unsent, sending or failed).
    public var seq: Int64?
    /// `USER` or `AGENT` (or a value the service added later).
    public var sender: MessageSender
    /// The text, possibly empty for photo-only messages and cards.
    public var text: String
    /// `TEXT`, `REVIEW`, `PAYWALL`, or a kind the service added later.
    public var kind: MessageKind
    /// For review cards: the link the button opens.
    public var reviewUrl: String?
    /// For paywall cards: the host's paywall ID.
    public var paywallId: String?
    /// For paywall cards: the title the agent sent.
    public var paywallTitle: String?
    /// The agent's button text for cards.
    public var buttonLabel: String?
    /// The team member who wrote an agent reply.
    public var authorId: String?
    /// When a card's button was first opened.
    public var actionClickedAt: Date?
    /// When the message was written (local time for unsent ones, the service's time once confirmed).
    public var createdAt: Date
    /// The failure bookkeeping of spec 7.8.4; meaningful only while the message is unconfirmed.
    public var delivery: DeliveryFlags
    /// The confirmed attachments, in order.
    public var attachments: [Attachment]
    /// The prepared JPEG bytes of each photo, kept until the message is confirmed with attachments, so a retry
    /// after relaunch uploads the same bytes with the same checksum (spec 7.9, 7.17).
    public var images: [Data]
    /// The attachment IDs already uploaded for `images`, in photo order (spec 7.8.2 step 5): a prefix, because
    /// photos upload one after the other.
    public var attachmentIds: [String]
    /// How many photos the message was sent with, so a photo set that lost an image is detected (spec 7.8.2 step 1).
    public var expectedImageCount: Int

    /// Makes a stored message; only the identity, sender, text and time are required.
    @_optimize(size) public init(
        id: String, seq: Int64? = nil, sender: MessageSender, text: String, kind: MessageKind = .text,
        reviewUrl: String? = nil, paywallId: String? = nil, paywallTitle: String? = nil, buttonLabel: String? = nil,
        authorId: String? = nil, actionClickedAt: Date? = nil, createdAt: Date, delivery: DeliveryFlags = [],
        attachments: [Attachment] = [], images: [Data] = [], attachmentIds: [String] = [],
        expectedImageCount: Int? = nil
    ) {
        self.id = id
        self.seq = seq
        self.sender = sender
        self.text = text
        self.kind = kind
        self.reviewUrl = reviewUrl
        self.paywallId = paywallId
        self.paywallTitle = paywallTitle
        self.buttonLabel = buttonLabel
        self.authorId = authorId
        self.actionClickedAt = actionClickedAt
        self.createdAt = createdAt
        self.delivery = delivery
        self.attachments = attachments
        self.images = images
        self.attachmentIds = attachmentIds
        self.expectedImageCount = expectedImageCount ?? images.count
    }

    /// Whether the service has confirmed the message (it has a `seq`). Unconfirmed messages are the outbox.
    @_optimize(size) public var isConfirmed: Bool { seq != nil }

    /// Hashes the ID only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension StoredMessage {
    /// The stored form of a message the service sent (history, poll or send confirmation), under `localID` (spec
    /// 7.10: a merged message keeps its local ID).
    @_optimize(size) public init(confirmed message: Message, localID: String? = nil) {
        self.init(
            id: localID ?? message.clientId ?? message.id, seq: message.seq, sender: message.sender,
            text: message.text, kind: message.kind, reviewUrl: message.reviewUrl, paywallId: message.paywallId,
            paywallTitle: message.paywallTitle, buttonLabel: message.buttonLabel, authorId: message.authorId,
            actionClickedAt: message.actionClickedAt, createdAt: message.createdAt,
            attachments: message.attachments)
    }

    /// Spec 7.10's list order over a window: confirmed messages by `seq`, unsent ones placed by `createdAt` among
    /// them (after confirmed messages of the same time, and in their given order among themselves). Both stores
    /// load through this, so the in-memory fake and SQLite agree on order.
    @_optimize(size) public static func inListOrder(_ messages: [StoredMessage]) -> [StoredMessage] {
        // Sorting indices instead of values: a message is a large struct, and the window is loaded at every
        // launch, so each element is copied exactly once, into the result.
        var confirmed: [Int] = []
        var unsent: [Int] = []
        for index in messages.indices {
            if messages[index].isConfirmed { confirmed.append(index) } else { unsent.append(index) }
        }
        // Ties stay in list order (`stableSort`), as `(key, index)` ordered them.
        stableSort(&confirmed) { (messages[$0].seq ?? 0) < (messages[$1].seq ?? 0) }
        stableSort(&unsent) { messages[$0].createdAt < messages[$1].createdAt }
        var result: [StoredMessage] = []
        result.reserveCapacity(messages.count)
        var next = 0
        for index in confirmed {
            while next < unsent.count, messages[unsent[next]].createdAt < messages[index].createdAt {
                result.append(messages[unsent[next]])
                next += 1
            }
            result.append(messages[index])
        }
        for index in unsent[next...] { result.append(messages[index]) }
        return result
    }
}

/// The failure bookkeeping of an unconfirmed message (spec 7.8.4), persisted so the relaunch rules of spec 7.8.7
/// and 7.8.8 can tell what may be resent automatically.
public struct DeliveryFlags: OptionSet, Codable, Hashable, Sendable {
    public let rawValue: Int
    /// Makes flags from their stored bits.
    @_optimize(size) public init(rawValue: Int) { self.rawValue = rawValue }

    /// The last attempt failed ("not delivered"); without it an unconfirmed message is *sending*.
    public static let failed = DeliveryFlags(rawValue: 1 << 0)
    /// Only a tap on Retry may send it again.
    public static let awaitsManualRetry = DeliveryFlags(rawValue: 1 << 1)
    /// A `messages` or `uploads` limit holds it; released on an opening load once the limit is over (spec 7.8.8).
    public static let retryAfterLimitRelease = DeliveryFlags(rawValue: 1 << 2)
    /// A transient failure without a cooldown; recovered automatically on the next opening load (spec 7.8.7).
    public static let retryAfterTransientFailure = DeliveryFlags(rawValue: 1 << 3)
}

extension StoredMessage {
    @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        id = try c.decode(String.self, forKey: "id")
        seq = try c.decodeIfPresent(Int64.self, forKey: "seq")
        sender = try c.decode(MessageSender.self, forKey: "sender")
        text = try c.decode(String.self, forKey: "text")
        kind = try c.decode(MessageKind.self, forKey: "kind")
        reviewUrl = try c.decodeIfPresent(String.self, forKey: "reviewUrl")
        paywallId = try c.decodeIfPresent(String.self, forKey: "paywallId")
        paywallTitle = try c.decodeIfPresent(String.self, forKey: "paywallTitle")
        buttonLabel = try c.decodeIfPresent(String.self, forKey: "buttonLabel")
        authorId = try c.decodeIfPresent(String.self, forKey: "authorId")
        actionClickedAt = try c.decodeIfPresent(Date.self, forKey: "actionClickedAt")
        createdAt = try c.decode(Date.self, forKey: "createdAt")
        delivery = try c.decode(DeliveryFlags.self, forKey: "delivery")
        attachments = try c.decode([Attachment].self, forKey: "attachments")
        images = try c.decode([Data].self, forKey: "images")
        attachmentIds = try c.decode([String].self, forKey: "attachmentIds")
        expectedImageCount = try c.decode(Int.self, forKey: "expectedImageCount")
    }

    @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(id, forKey: "id")
        try c.encodeIfPresent(seq, forKey: "seq")
        try c.encode(sender, forKey: "sender")
        try c.encode(text, forKey: "text")
        try c.encode(kind, forKey: "kind")
        try c.encodeIfPresent(reviewUrl, forKey: "reviewUrl")
        try c.encodeIfPresent(paywallId, forKey: "paywallId")
        try c.encodeIfPresent(paywallTitle, forKey: "paywallTitle")
        try c.encodeIfPresent(buttonLabel, forKey: "buttonLabel")
        try c.encodeIfPresent(authorId, forKey: "authorId")
        try c.encodeIfPresent(actionClickedAt, forKey: "actionClickedAt")
        try c.encode(createdAt, forKey: "createdAt")
        try c.encode(delivery, forKey: "delivery")
        try c.encode(attachments, forKey: "attachments")
        try c.encode(images, forKey: "images")
        try c.encode(attachmentIds, forKey: "attachmentIds")
        try c.encode(expectedImageCount, forKey: "expectedImageCount")
    }
}
