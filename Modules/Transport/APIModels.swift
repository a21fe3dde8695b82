import Foundation
import ReceptionCore

/// 3.1 response.
public struct RegistrationResponse: Codable, Sendable, Hashable {
    public var token: String
    public var sessionSecret: String
    public var verifiedUserId: String?
}

/// 3.2 response: the verified user ID the service now has (absent and `null` both mean none).
public struct DeviceUpdateResponse: Codable, Sendable, Hashable {
    public var verifiedUserId: String?
}

/// 3.3 response.
public struct TokenResponse: Codable, Sendable, Hashable {
    public var token: String
}

/// 3.6 `limits` (spec 6.3.6): seconds still to wait per scope, `0` releases. A value that is missing, `null`, not
/// an integer, negative or over a day is ignored for its key; the other keys still apply.
public struct LimitValues: Decodable, Sendable, Hashable {
    public var messages: Int?
    public var uploads: Int?

    private enum CodingKeys: String, CodingKey { case messages, uploads }

    public init(messages: Int? = nil, uploads: Int? = nil) {
        self.messages = messages
        self.uploads = uploads
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func valid(_ key: CodingKeys) -> Int? {
            guard let value = (try? c.decodeIfPresent(Int.self, forKey: key)) ?? nil,
                  (0...Limits.maximumRetryAfterSeconds).contains(value) else { return nil }
            return value
        }
        messages = valid(.messages)
        uploads = valid(.uploads)
    }

    /// The value for a checked scope.
    public func seconds(for scope: RetryScope) -> Int? {
        switch scope {
        case .messages: messages
        case .uploads: uploads
        default: nil
        }
    }
}

/// 3.6 response.
public struct HistoryResponse: Decodable, Sendable, Hashable {
    public var conversation: ConversationSummary?
    public var messages: [Message]
    public var device: DeviceFlags?
    public var team: [TeamMember]?
    public var boundedRead: Bool?
    public var limits: LimitValues?

    private enum CodingKeys: String, CodingKey { case conversation, messages, device, team, boundedRead, limits }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        conversation = try c.decodeIfPresent(ConversationSummary.self, forKey: .conversation)
        messages = try c.decode([Message].self, forKey: .messages)
        device = try c.decodeIfPresent(DeviceFlags.self, forKey: .device)
        team = try c.decodeIfPresent([TeamMember].self, forKey: .team)
        boundedRead = try c.decodeIfPresent(Bool.self, forKey: .boundedRead)
        // A malformed `limits` object never fails the history (spec 3.6: ignored per key).
        limits = (try? c.decodeIfPresent(LimitValues.self, forKey: .limits)) ?? nil
    }
}

/// 3.7 response.
public struct MessagesPage: Decodable, Sendable, Hashable {
    public var messages: [Message]
    public var hasMore: Bool?
    public var conversation: CompactConversation?
    public var device: DeviceFlags?
    public var team: [TeamMember]?
    public var boundedRead: Bool?
}

/// 3.8 request body: every key always present.
public struct SendMessageBody: Codable, Sendable, Hashable {
    public var clientId: String
    public var text: String
    public var attachmentIds: [String]

    public init(clientId: String, text: String, attachmentIds: [String]) {
        self.clientId = clientId
        self.text = text
        self.attachmentIds = attachmentIds
    }
}

/// 3.8 response. A missing `message.clientId` is filled with the one sent.
public struct SendMessageResponse: Decodable, Sendable, Hashable {
    public var conversation: ConversationSummary
    public var message: Message
}

/// 3.9 bounded read response.
public struct ReadResponse: Decodable, Sendable, Hashable {
    public var conversationId: String
    public var readSeq: Int64
    public var unreadCount: Int
}

/// 3.10 response.
public struct UnreadResponse: Decodable, Sendable, Hashable {
    public var hasConversation: Bool
    public var unreadCount: Int
    public var status: ConversationStatus?
    public var lastMessageAt: Date?
    public var push: Bool?
    public var unreadPolling: [UnreadPollingStage]?
}

/// 3.14 reservation request.
public struct UploadReservationRequest: Codable, Sendable, Hashable {
    public var requestId: String
    public var contentType: String
    public var bytes: Int
    public var width: Int
    public var height: Int
    public var checksum: String
}

/// 3.14 reservation response.
public struct UploadReservation: Decodable, Sendable, Hashable {
    public var attachmentId: String
    public var uploadUrl: String
    public var headers: [String: String]
}

/// 3.16: the outcome of an appearance fetch.
public enum AppearanceFetch: Sendable, Hashable {
    /// 304: what the client holds is current.
    case unchanged
    /// 200 with a valid envelope: the raw `appearance` object's JSON, its revision, and the ETag to send next time.
    case updated(appearance: Data, revision: Int, etag: String?)
}
