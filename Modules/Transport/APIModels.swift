import Foundation
import ReceptionCore

/// 3.1 response.
public struct RegistrationResponse: Codable, Sendable, Hashable {
    /// The first access token; memory only (spec 2).
    public var token: String
    /// The session secret, kept in the secure store for refreshes, logout and deletion.
    public var sessionSecret: String
    /// The user ID an accepted identity token verified, byte for byte; `nil` for an unverified device.
    public var verifiedUserId: String?

    /// Hashes the token only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(token) }
}


/// 3.2 response: the verified user ID the service now has (absent and `null` both mean none).
public struct DeviceUpdateResponse: Codable, Sendable, Hashable {
    /// The verified user ID after the update; `nil` when the device is not verified.
    public var verifiedUserId: String?
}


/// 3.3 response.
public struct TokenResponse: Codable, Sendable, Hashable {
    /// The new access token.
    public var token: String
}


/// 3.8 request body: every key always present.
public struct SendMessageBody: Codable, Sendable, Hashable {
    /// The message's client ID: the same on every attempt, so the service keeps one copy.
    public var clientId: String
    /// The text, possibly empty when photos are attached.
    public var text: String
    /// The completed uploads' attachment IDs, in the order the person picked the photos.
    public var attachmentIds: [String]

    /// A body for one attempt of a message.
    @inline(never) @_optimize(size) public init(clientId: String, text: String, attachmentIds: [String]) {
        self.clientId = clientId
        self.text = text
        self.attachmentIds = attachmentIds
    }

    /// Hashes the client ID only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(clientId) }
}


/// 3.14 reservation request.
public struct UploadReservationRequest: Codable, Sendable, Hashable {
    /// The deterministic request ID of the photo (`UploadChecksum.requestID`), the same on a retry.
    public var requestId: String
    /// Always `image/jpeg`: preparation re-encodes every photo.
    public var contentType: String
    /// The exact size of the prepared JPEG.
    public var bytes: Int
    /// Pixel width of the prepared JPEG.
    public var width: Int
    /// Pixel height of the prepared JPEG.
    public var height: Int
    /// Base64 of the JPEG's SHA-256.
    public var checksum: String

    /// Hashes the request ID only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(requestId) }
}

extension RegistrationResponse {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        token = try c.decode(String.self, forKey: "token")
        sessionSecret = try c.decode(String.self, forKey: "sessionSecret")
        verifiedUserId = try c.decodeIfPresent(String.self, forKey: "verifiedUserId")
    }

    @inline(never) @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(token, forKey: "token")
        try c.encode(sessionSecret, forKey: "sessionSecret")
        try c.encodeIfPresent(verifiedUserId, forKey: "verifiedUserId")
    }
}

extension DeviceUpdateResponse {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        verifiedUserId = try c.decodeIfPresent(String.self, forKey: "verifiedUserId")
    }

    @inline(never) @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encodeIfPresent(verifiedUserId, forKey: "verifiedUserId")
    }
}

extension TokenResponse {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        token = try c.decode(String.self, forKey: "token")
    }

    @inline(never) @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(token, forKey: "token")
    }
}

extension SendMessageBody {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        clientId = try c.decode(String.self, forKey: "clientId")
        text = try c.decode(String.self, forKey: "text")
        attachmentIds = try c.decode([String].self, forKey: "attachmentIds")
    }

    @inline(never) @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(clientId, forKey: "clientId")
        try c.encode(text, forKey: "text")
        try c.encode(attachmentIds, forKey: "attachmentIds")
    }
}

extension UploadReservationRequest {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        requestId = try c.decode(String.self, forKey: "requestId")
        contentType = try c.decode(String.self, forKey: "contentType")
        bytes = try c.decode(Int.self, forKey: "bytes")
        width = try c.decode(Int.self, forKey: "width")
        height = try c.decode(Int.self, forKey: "height")
        checksum = try c.decode(String.self, forKey: "checksum")
    }

    @inline(never) @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(requestId, forKey: "requestId")
        try c.encode(contentType, forKey: "contentType")
        try c.encode(bytes, forKey: "bytes")
        try c.encode(width, forKey: "width")
        try c.encode(height, forKey: "height")
        try c.encode(checksum, forKey: "checksum")
    }
}

/// 3.9 bounded read request.
struct ReadRequest: Encodable {
    let conversationId: String
    let throughSeq: Int64

    @inline(never) @_optimize(size) func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(conversationId, forKey: "conversationId")
        try c.encode(throughSeq, forKey: "throughSeq")
    }
}
