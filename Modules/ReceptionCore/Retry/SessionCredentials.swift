/// What a registration leaves in the secure store (spec 7.17): the session secret and the verified user ID, as
/// JSON under `SecureStoreKey.session(scope:)`. The access token is never stored.
public struct SessionCredentials: Codable, Hashable, Sendable {
    /// The secret that renews access tokens, revokes and deletes the session.
    public var sessionSecret: String
    /// The user the service verified with an identity token, or `nil`.
    public var verifiedUserId: String?

    /// Makes credentials.
    public init(sessionSecret: String, verifiedUserId: String?) {
        self.sessionSecret = sessionSecret
        self.verifiedUserId = verifiedUserId
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sessionSecret, forKey: .sessionSecret)
        try container.encode(verifiedUserId, forKey: .verifiedUserId)
    }
}
