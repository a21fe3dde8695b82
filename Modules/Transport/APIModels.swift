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


/// 3.14 reservation request.
public struct UploadReservationRequest: Codable, Sendable, Hashable {
    public var requestId: String
    public var contentType: String
    public var bytes: Int
    public var width: Int
    public var height: Int
    public var checksum: String
}

