import Foundation

/// The small per-session bookkeeping that must survive a relaunch (spec 7.17's plain-preference rows), read and
/// written as one value so an update is atomic.
public struct SessionState: Codable, Hashable, Sendable {
    /// The paging cursor: the highest `seq` a history GET returned (spec 7.10).
    public var cursor: Int64?
    /// The chat revision adopted from the last `chat_reset` (spec 7.12); sent as `X-Reception-Revision`.
    public var chatRevision: Int
    /// Spec 7.3: the person sent a message, or the session found a non-empty cache.
    public var hasStartedChat: Bool
    /// What the last unread refresh learnt (spec 7.11).
    public var unread: UnreadSnapshot
    /// Cooldowns that outlive the process (spec 6.3); they also survive a chat reset.
    public var cooldowns: [StoredCooldown]
    /// When the limits were last rechecked (spec 6.3.6).
    public var lastLimitCheck: Date?
    /// Card messages whose button taps still have to be reported, oldest first (spec 7.21).
    public var pendingActionClicks: [String]
    /// The preference values the service last acknowledged (spec 7.6).
    public var preferences: SynchronisedPreferences

    /// Makes a state; the defaults are those of a fresh session.
    @_optimize(size) public init(
        cursor: Int64? = nil, chatRevision: Int = 0, hasStartedChat: Bool = false,
        unread: UnreadSnapshot = UnreadSnapshot(), cooldowns: [StoredCooldown] = [], lastLimitCheck: Date? = nil,
        pendingActionClicks: [String] = [], preferences: SynchronisedPreferences = SynchronisedPreferences()
    ) {
        self.cursor = cursor
        self.chatRevision = chatRevision
        self.hasStartedChat = hasStartedChat
        self.unread = unread
        self.cooldowns = cooldowns
        self.lastLimitCheck = lastLimitCheck
        self.pendingActionClicks = pendingActionClicks
        self.preferences = preferences
    }

    /// Spec 7.12: what a chat reset leaves of the state. Cooldowns and synchronised preferences are kept;
    /// everything about the conversation is forgotten, and the new revision is adopted.
    @_optimize(size) public func afterChatReset(revision: Int) -> SessionState {
        SessionState(chatRevision: revision, cooldowns: cooldowns, lastLimitCheck: lastLimitCheck,
                     preferences: preferences)
    }

    /// Hashes the cursor only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(cursor) }

    /// Written rather than synthesized, compiled for size and never inlined: at `-O` the synthesized `==` takes
    /// in every field's comparison (Docs/Footprint.md). It compares every field (`WrittenEqualityTests`).
    @inline(never) @_optimize(size) public static func == (lhs: SessionState, rhs: SessionState) -> Bool {
        lhs.cursor == rhs.cursor && lhs.chatRevision == rhs.chatRevision && lhs.hasStartedChat == rhs.hasStartedChat
            && lhs.lastLimitCheck == rhs.lastLimitCheck && lhs.unread == rhs.unread
            && lhs.preferences == rhs.preferences && lhs.cooldowns == rhs.cooldowns
            && lhs.pendingActionClicks == rhs.pendingActionClicks
    }
}

/// The conversation facts of the last `GET conversation/unread` (spec 7.11).
public struct UnreadSnapshot: Codable, Hashable, Sendable {
    /// Whether the device has a conversation.
    public var hasConversation: Bool
    /// The conversation's status, when known.
    public var status: ConversationStatus?
    /// When the conversation last had a message.
    public var lastMessageAt: Date?
    /// The service's push flag.
    public var pushActive: Bool
    /// The service's polling stages; `nil` means the defaults, an empty array disables polling.
    public var pollingStages: [UnreadPollingStage]?

    /// Makes a snapshot; the defaults describe a device without a conversation.
    @_optimize(size) public init(
        hasConversation: Bool = false, status: ConversationStatus? = nil, lastMessageAt: Date? = nil,
        pushActive: Bool = false, pollingStages: [UnreadPollingStage]? = nil
    ) {
        self.hasConversation = hasConversation
        self.status = status
        self.lastMessageAt = lastMessageAt
        self.pushActive = pushActive
        self.pollingStages = pollingStages
    }

    /// Hashes the last message time only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(lastMessageAt) }

    /// Written rather than synthesized, compiled for size and never inlined: at `-O` the synthesized `==` takes
    /// in every field's comparison (Docs/Footprint.md). It compares every field (`WrittenEqualityTests`).
    @inline(never) @_optimize(size) public static func == (lhs: UnreadSnapshot, rhs: UnreadSnapshot) -> Bool {
        lhs.hasConversation == rhs.hasConversation && lhs.pushActive == rhs.pushActive && lhs.status == rhs.status
            && lhs.lastMessageAt == rhs.lastMessageAt && lhs.pollingStages == rhs.pollingStages
    }
}

/// A cooldown as persisted (spec 7.17: `[{scope, until, automatic}]`).
public struct StoredCooldown: Codable, Hashable, Sendable {
    /// What it holds.
    public var scope: RetryScope
    /// Wall-clock end.
    public var until: Date
    /// Whether a held send may wait it out automatically (original length ≤ 60 s, spec 7.8.5).
    public var automatic: Bool

    /// Makes a cooldown.
    @_optimize(size) public init(scope: RetryScope, until: Date, automatic: Bool) {
        self.scope = scope
        self.until = until
        self.automatic = automatic
    }

    /// Hashes the end only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(until) }
}

/// The preference values the last successful device registration or update carried (spec 7.6), so a change is
/// noticed after relaunch.
public struct SynchronisedPreferences: Codable, Hashable, Sendable {
    /// The app language the service has.
    public var language: String?
    /// The `updatesAppBadge` value the service has.
    public var updatesAppBadge: Bool?
    /// The paywall IDs the service has as available.
    public var availablePaywalls: [String]?
    /// Cleared when an update fails, because the service may have applied a value whose response was lost.
    public var badgeSynchronised: Bool

    /// Makes preferences; the defaults mean "nothing synchronised yet".
    @_optimize(size) public init(
        language: String? = nil, updatesAppBadge: Bool? = nil, availablePaywalls: [String]? = nil,
        badgeSynchronised: Bool = false
    ) {
        self.language = language
        self.updatesAppBadge = updatesAppBadge
        self.availablePaywalls = availablePaywalls
        self.badgeSynchronised = badgeSynchronised
    }

    /// Hashes the language only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(language) }

    /// Written rather than synthesized, compiled for size and never inlined: at `-O` the synthesized `==` takes
    /// in every field's comparison (Docs/Footprint.md). It compares every field (`WrittenEqualityTests`).
    @inline(never) @_optimize(size)
    public static func == (lhs: SynchronisedPreferences, rhs: SynchronisedPreferences) -> Bool {
        lhs.badgeSynchronised == rhs.badgeSynchronised && lhs.updatesAppBadge == rhs.updatesAppBadge
            && lhs.language == rhs.language && lhs.availablePaywalls == rhs.availablePaywalls
    }
}

extension SessionState {
    @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        cursor = try c.decodeIfPresent(Int64.self, forKey: "cursor")
        chatRevision = try c.decode(Int.self, forKey: "chatRevision")
        hasStartedChat = try c.decode(Bool.self, forKey: "hasStartedChat")
        unread = try c.decode(UnreadSnapshot.self, forKey: "unread")
        cooldowns = try c.decode([StoredCooldown].self, forKey: "cooldowns")
        lastLimitCheck = try c.decodeIfPresent(Date.self, forKey: "lastLimitCheck")
        pendingActionClicks = try c.decode([String].self, forKey: "pendingActionClicks")
        preferences = try c.decode(SynchronisedPreferences.self, forKey: "preferences")
    }

    @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encodeIfPresent(cursor, forKey: "cursor")
        try c.encode(chatRevision, forKey: "chatRevision")
        try c.encode(hasStartedChat, forKey: "hasStartedChat")
        try c.encode(unread, forKey: "unread")
        try c.encode(cooldowns, forKey: "cooldowns")
        try c.encodeIfPresent(lastLimitCheck, forKey: "lastLimitCheck")
        try c.encode(pendingActionClicks, forKey: "pendingActionClicks")
        try c.encode(preferences, forKey: "preferences")
    }
}

extension UnreadSnapshot {
    @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        hasConversation = try c.decode(Bool.self, forKey: "hasConversation")
        status = try c.decodeIfPresent(ConversationStatus.self, forKey: "status")
        lastMessageAt = try c.decodeIfPresent(Date.self, forKey: "lastMessageAt")
        pushActive = try c.decode(Bool.self, forKey: "pushActive")
        pollingStages = try c.decodeIfPresent([UnreadPollingStage].self, forKey: "pollingStages")
    }

    @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(hasConversation, forKey: "hasConversation")
        try c.encodeIfPresent(status, forKey: "status")
        try c.encodeIfPresent(lastMessageAt, forKey: "lastMessageAt")
        try c.encode(pushActive, forKey: "pushActive")
        try c.encodeIfPresent(pollingStages, forKey: "pollingStages")
    }
}

extension StoredCooldown {
    @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        scope = try c.decode(RetryScope.self, forKey: "scope")
        until = try c.decode(Date.self, forKey: "until")
        automatic = try c.decode(Bool.self, forKey: "automatic")
    }

    @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(scope, forKey: "scope")
        try c.encode(until, forKey: "until")
        try c.encode(automatic, forKey: "automatic")
    }
}

extension SynchronisedPreferences {
    @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        language = try c.decodeIfPresent(String.self, forKey: "language")
        updatesAppBadge = try c.decodeIfPresent(Bool.self, forKey: "updatesAppBadge")
        availablePaywalls = try c.decodeIfPresent([String].self, forKey: "availablePaywalls")
        badgeSynchronised = try c.decode(Bool.self, forKey: "badgeSynchronised")
    }

    @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encodeIfPresent(language, forKey: "language")
        try c.encodeIfPresent(updatesAppBadge, forKey: "updatesAppBadge")
        try c.encodeIfPresent(availablePaywalls, forKey: "availablePaywalls")
        try c.encode(badgeSynchronised, forKey: "badgeSynchronised")
    }
}
