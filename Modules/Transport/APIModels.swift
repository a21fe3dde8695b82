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
    @_optimize(size) public init(clientId: String, text: String, attachmentIds: [String]) {
        self.clientId = clientId
        self.text = text
        self.attachmentIds = attachmentIds
    }
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
}

