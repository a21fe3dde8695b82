import Foundation

/// 3.6 `limits` (spec 6.3.6): seconds still to wait per scope, `0` releases. A value that is missing, `null`, not
/// an integer, negative or over a day is ignored for its key; the other keys still apply.
public struct LimitValues: Decodable, Sendable, Hashable {
    /// Seconds left on the `messages` wait.
    public var messages: Int?
    /// Seconds left on the `uploads` wait.
    public var uploads: Int?

    /// Makes values.
    @inline(never) @_optimize(size) public init(messages: Int? = nil, uploads: Int? = nil) {
        self.messages = messages
        self.uploads = uploads
    }

    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        @inline(never) @_optimize(size) func valid(_ key: WireKey) -> Int? {
            guard let value = (try? c.decodeIfPresent(Int.self, forKey: key)) ?? nil,
                  (0...Limits.maximumRetryAfterSeconds).contains(value) else { return nil }
            return value
        }
        messages = valid("messages")
        uploads = valid("uploads")
    }

    /// The value for a checked scope.
    @inline(never) @_optimize(size) public func seconds(for scope: RetryScope) -> Int? {
        switch scope {
        case .messages: messages
        case .uploads: uploads
        default: nil
        }
    }

    /// Hashes the message limit only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(messages) }
}

/// `GET conversation` (spec 3.6): the history window and the device's flags.
public struct HistoryResponse: Decodable, Sendable, Hashable {
    /// The conversation, or `nil` when the device has none yet.
    public var conversation: ConversationSummary?
    /// The current window (the latest 50), ascending by `seq`.
    public var messages: [Message]
    /// Sending-permission flags.
    public var device: DeviceFlags?
    /// Authors of agent replies.
    public var team: [TeamMember]?
    /// `true`: the service supports bounded reads (spec 3.9).
    public var boundedRead: Bool?
    /// Remaining waits, only meaningful after `limits=1`.
    public var limits: LimitValues?

    /// Makes a response.
    @inline(never) @_optimize(size) public init(
        conversation: ConversationSummary? = nil, messages: [Message] = [], device: DeviceFlags? = nil,
        team: [TeamMember]? = nil, boundedRead: Bool? = nil, limits: LimitValues? = nil
    ) {
        self.conversation = conversation
        self.messages = messages
        self.device = device
        self.team = team
        self.boundedRead = boundedRead
        self.limits = limits
    }

    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        conversation = try c.decodeIfPresent(ConversationSummary.self, forKey: "conversation")
        messages = try c.decode([Message].self, forKey: "messages")
        device = try c.decodeIfPresent(DeviceFlags.self, forKey: "device")
        team = try c.decodeIfPresent([TeamMember].self, forKey: "team")
        boundedRead = try c.decodeIfPresent(Bool.self, forKey: "boundedRead")
        // A malformed `limits` object never fails the history (spec 3.6: ignored per key).
        limits = (try? c.decodeIfPresent(LimitValues.self, forKey: "limits")) ?? nil
    }

    /// Hashes the message count only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(messages.count) }

    /// Written rather than synthesized, compiled for size and never inlined: at `-O` the synthesized `==` takes
    /// in every field's comparison (Docs/Footprint.md). It compares every field (`WrittenEqualityTests`).
    @inline(never) @_optimize(size) public static func == (lhs: HistoryResponse, rhs: HistoryResponse) -> Bool {
        lhs.boundedRead == rhs.boundedRead && lhs.device == rhs.device && lhs.conversation == rhs.conversation
            && lhs.limits == rhs.limits && lhs.team == rhs.team && lhs.messages == rhs.messages
    }
}

/// `GET conversation/messages?after=` (spec 3.7): one page of newer messages.
public struct MessagesPage: Decodable, Sendable, Hashable {
    /// Messages with `seq > after`, ascending.
    public var messages: [Message]
    /// `true`: another page follows.
    public var hasMore: Bool?
    /// The compact conversation state; `nil` means the device has no conversation (reset the cursor).
    public var conversation: CompactConversation?
    /// Sending-permission flags.
    public var device: DeviceFlags?
    /// Authors to merge into the team map.
    public var team: [TeamMember]?
    /// Bounded-read support.
    public var boundedRead: Bool?

    /// Makes a page.
    @inline(never) @_optimize(size) public init(
        messages: [Message], hasMore: Bool? = nil, conversation: CompactConversation? = nil,
        device: DeviceFlags? = nil, team: [TeamMember]? = nil, boundedRead: Bool? = nil
    ) {
        self.messages = messages
        self.hasMore = hasMore
        self.conversation = conversation
        self.device = device
        self.team = team
        self.boundedRead = boundedRead
    }

    /// Hashes the message count only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(messages.count) }

    /// Written rather than synthesized, compiled for size and never inlined: at `-O` the synthesized `==` takes
    /// in every field's comparison (Docs/Footprint.md). It compares every field (`WrittenEqualityTests`).
    @inline(never) @_optimize(size) public static func == (lhs: MessagesPage, rhs: MessagesPage) -> Bool {
        lhs.hasMore == rhs.hasMore && lhs.boundedRead == rhs.boundedRead && lhs.device == rhs.device
            && lhs.conversation == rhs.conversation && lhs.team == rhs.team && lhs.messages == rhs.messages
    }
}

/// `POST conversation/messages` (spec 3.8): the confirmed message and its conversation.
public struct SendMessageResponse: Decodable, Sendable, Hashable {
    /// The conversation (created by the first message).
    public var conversation: ConversationSummary
    /// The stored message, with its `seq`; `clientId` is the one sent when the service omitted it.
    public var message: Message

    /// Makes a response.
    @inline(never) @_optimize(size) public init(conversation: ConversationSummary, message: Message) {
        self.conversation = conversation
        self.message = message
    }

    /// Hashes the message only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(message) }
}

/// Bounded `POST conversation/read` (spec 3.9).
public struct ReadResponse: Decodable, Sendable, Hashable {
    /// The conversation read.
    public var conversationId: String
    /// The read sequence the service now has (≥ `throughSeq`).
    public var readSeq: Int64
    /// Unread agent messages left.
    public var unreadCount: Int

    /// Makes a response.
    @inline(never) @_optimize(size) public init(conversationId: String, readSeq: Int64, unreadCount: Int) {
        self.conversationId = conversationId
        self.readSeq = readSeq
        self.unreadCount = unreadCount
    }

    /// Hashes the read position only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(readSeq) }
}

/// `GET conversation/unread` (spec 3.10).
public struct UnreadResponse: Decodable, Sendable, Hashable {
    /// Whether the device has a conversation.
    public var hasConversation: Bool
    /// Agent messages not yet read.
    public var unreadCount: Int
    /// The conversation's status; only `OPEN` enables polling.
    public var status: ConversationStatus?
    /// The last activity, for the polling schedule.
    public var lastMessageAt: Date?
    /// `true`: the service can deliver pushes to this device.
    public var push: Bool?
    /// The service's polling stages; an empty array disables polling.
    public var unreadPolling: [UnreadPollingStage]?

    /// Makes a response.
    @inline(never) @_optimize(size) public init(
        hasConversation: Bool, unreadCount: Int, status: ConversationStatus? = nil, lastMessageAt: Date? = nil,
        push: Bool? = nil, unreadPolling: [UnreadPollingStage]? = nil
    ) {
        self.hasConversation = hasConversation
        self.unreadCount = unreadCount
        self.status = status
        self.lastMessageAt = lastMessageAt
        self.push = push
        self.unreadPolling = unreadPolling
    }

    /// Hashes the last message time only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(lastMessageAt) }

    /// Written rather than synthesized, compiled for size and never inlined: at `-O` the synthesized `==` takes
    /// in every field's comparison (Docs/Footprint.md). It compares every field (`WrittenEqualityTests`).
    @inline(never) @_optimize(size) public static func == (lhs: UnreadResponse, rhs: UnreadResponse) -> Bool {
        lhs.hasConversation == rhs.hasConversation && lhs.unreadCount == rhs.unreadCount && lhs.push == rhs.push
            && lhs.status == rhs.status && lhs.lastMessageAt == rhs.lastMessageAt
            && lhs.unreadPolling == rhs.unreadPolling
    }
}

/// `POST uploads` (spec 3.14): where to PUT one photo.
public struct UploadReservation: Decodable, Sendable, Hashable {
    /// The ID to list in the message's `attachmentIds`.
    public var attachmentId: String
    /// The storage URL (http or https).
    public var uploadUrl: String
    /// Headers the PUT must carry verbatim.
    public var headers: [String: String]

    /// Makes a reservation.
    @inline(never)
    @_optimize(size) public init(attachmentId: String, uploadUrl: String, headers: [String: String] = [:]) {
        self.attachmentId = attachmentId
        self.uploadUrl = uploadUrl
        self.headers = headers
    }

    /// Hashes the attachment ID only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(attachmentId) }
}

/// `GET appearance` (spec 3.16): the outcome of a fetch.
public indirect enum AppearanceFetch: Sendable, Hashable {
    /// Spec 3.16: an appearance body (and the cached envelope, 7.17) is at most 65,536 bytes.
    public static let maximumBytes = 65_536

    /// 304: what the client holds is current; a new ETag on the 304, if any, replaces the held one.
    case unchanged(etag: String?)
    /// 200 with a valid envelope: the raw `appearance` object's JSON, its revision, and the ETag to send next time.
    case updated(appearance: Data, revision: Int, etag: String?)

    /// Written rather than synthesized, and compiled for size: the synthesized `==` takes in `Data`'s comparison,
    /// up to 0.7 kB on iOS (Docs/Footprint.md). It compares every case and value (`WrittenEqualityTests`).
    @inline(never) @_optimize(size) public static func == (lhs: AppearanceFetch, rhs: AppearanceFetch) -> Bool {
        switch (lhs, rhs) {
        case (.unchanged(let left), .unchanged(let right)): left == right
        case (.updated(let leftAppearance, let leftRevision, let leftETag),
              .updated(let rightAppearance, let rightRevision, let rightETag)):
            leftRevision == rightRevision && leftETag == rightETag && leftAppearance == rightAppearance
        case (.unchanged, _), (.updated, _): false
        }
    }

    /// Hashes the case only; `==` compares the values too, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
        switch self {
        case .unchanged: hasher.combine(0)
        case .updated: hasher.combine(1)
        }
    }
}

/// Why a session stopped making requests on its own (spec 6.4).
public enum HaltReason: String, Sendable, Hashable, CaseIdentity {
    /// 401 `invalid_app_id` or 403 `app_disabled`: the service no longer serves this App ID.
    case appUnavailable
    /// 403 `blocked`: the team blocked this device; it may read but not send.
    case blocked
}

extension MessagesPage {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        messages = try c.decode([Message].self, forKey: "messages")
        hasMore = try c.decodeIfPresent(Bool.self, forKey: "hasMore")
        conversation = try c.decodeIfPresent(CompactConversation.self, forKey: "conversation")
        device = try c.decodeIfPresent(DeviceFlags.self, forKey: "device")
        team = try c.decodeIfPresent([TeamMember].self, forKey: "team")
        boundedRead = try c.decodeIfPresent(Bool.self, forKey: "boundedRead")
    }
}

extension SendMessageResponse {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        conversation = try c.decode(ConversationSummary.self, forKey: "conversation")
        message = try c.decode(Message.self, forKey: "message")
    }
}

extension ReadResponse {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        conversationId = try c.decode(String.self, forKey: "conversationId")
        readSeq = try c.decode(Int64.self, forKey: "readSeq")
        unreadCount = try c.decode(Int.self, forKey: "unreadCount")
    }
}

extension UnreadResponse {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        hasConversation = try c.decode(Bool.self, forKey: "hasConversation")
        unreadCount = try c.decode(Int.self, forKey: "unreadCount")
        status = try c.decodeIfPresent(ConversationStatus.self, forKey: "status")
        lastMessageAt = try c.decodeIfPresent(Date.self, forKey: "lastMessageAt")
        push = try c.decodeIfPresent(Bool.self, forKey: "push")
        unreadPolling = try c.decodeIfPresent([UnreadPollingStage].self, forKey: "unreadPolling")
    }
}

extension UploadReservation {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        attachmentId = try c.decode(String.self, forKey: "attachmentId")
        uploadUrl = try c.decode(String.self, forKey: "uploadUrl")
        headers = try c.decode([String: String].self, forKey: "headers")
    }
}
