import ReceptionCore

/// Everything a chat screen shows at one moment, published by the engine after every change.
public struct ChatSnapshot: Sendable, Hashable {
    /// Increases with every publication, so an observer can drop stale ones.
    public var version: Int
    /// The transcript in list order.
    public var messages: [ChatMessage]
    /// The composer.
    public var composer: ComposerState
    /// The connection status line.
    public var banner: ConnectionBanner
    /// Spec 7.13: an agent is typing.
    public var agentTyping: Bool
    /// The unread count a bounded read reported, when one did.
    public var unreadCount: Int?
    /// Whether the service has a conversation for this device.
    public var hasConversation: Bool
    /// Spec 7.17: the teammates who wrote agent replies, in map order, with their photos once downloaded.
    public var team: [TeamProfile] = []
    /// Changes whenever `team` does (comparing it is cheaper than comparing photos).
    public var teamVersion = 0
    /// The chat became visible and its opening load has not ended yet: messages that appear meanwhile are the
    /// history the opening brings, not replies arriving while it is open (`ChatAnnouncements`).
    public var isOpening = false
    /// Counts the transcript's changes: two snapshots of one engine with the same revision have the same `messages`.
    var transcriptRevision = 0
    /// How `messages` differs from the transcript of revision `transcriptRevision - 1`; `nil` when not known.
    var transcriptChange: TranscriptChange?

    /// Hashes the version only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(version) }

    /// Written rather than synthesized, compiled for size and never inlined: at `-O` the synthesized `==` takes
    /// in every field's comparison (Docs/Footprint.md). It compares every field (`WrittenEqualityTests`).
    @inline(never) @_optimize(size) public static func == (lhs: ChatSnapshot, rhs: ChatSnapshot) -> Bool {
        lhs.version == rhs.version && lhs.agentTyping == rhs.agentTyping && lhs.unreadCount == rhs.unreadCount
            && lhs.hasConversation == rhs.hasConversation && lhs.teamVersion == rhs.teamVersion
            && lhs.isOpening == rhs.isOpening && lhs.transcriptRevision == rhs.transcriptRevision
            && lhs.banner == rhs.banner && lhs.transcriptChange == rhs.transcriptChange
            && lhs.composer == rhs.composer && lhs.team == rhs.team && lhs.messages == rhs.messages
    }
}

/// How a transcript differs from the one of the revision before it (issue 53): the messages before `kept` are the
/// same ones in the same places, those at `changed` with new values; from `kept` on, every message is new or moved.
/// `ChatModel` builds again only the rows this names and their neighbours.
struct TranscriptChange: Sendable, Hashable {
    /// How many leading positions hold the same messages as before.
    var kept: Int
    /// The positions below `kept` whose message changed, ascending.
    var changed: [Int]

    /// Hashes the count of rows kept only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) func hash(into hasher: inout Hasher) { hasher.combine(kept) }
}
