/// What a registration leaves in the secure store (spec 7.17): the session secret and the verified user ID, as
/// JSON under `SecureStoreKey.session(scope:)`. The access token is never stored.
public struct SessionCredentials: Codable, Hashable, Sendable {
    /// The secret that renews access tokens, revokes and deletes the session.
    public var sessionSecret: String
    /// The user the service verified with an identity token, or `nil`.
    public var verifiedUserId: String?

    /// Makes credentials.
    @inline(never) @_optimize(size) public init(sessionSecret: String, verifiedUserId: String?) {
        self.sessionSecret = sessionSecret
        self.verifiedUserId = verifiedUserId
    }

    @inline(never) @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        try container.encode(sessionSecret, forKey: "sessionSecret")
        try container.encode(verifiedUserId, forKey: "verifiedUserId")
    }

    /// Hashes the secret only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(sessionSecret) }
}

extension SessionCredentials {
    /// The credentials stored for session `scope`: `nil` when none are stored; `secure_storage_unavailable` when
    /// the store cannot answer or the item does not decode (spec 7.17: unavailable is never missing).
    @inline(never) @_optimize(size)
    public static func read(from store: any SecureStoring, scope: String) throws(ReceptionError) -> SessionCredentials? {
        guard let data = try store.read(.session(scope: scope)).value() else { return nil }
        do {
            return try ReceptionJSON.makeDecoder().decode(SessionCredentials.self, from: data)
        } catch {
            throw ReceptionError.secureStorageUnavailable
        }
    }
}

extension SessionCredentials {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        sessionSecret = try c.decode(String.self, forKey: "sessionSecret")
        verifiedUserId = try c.decodeIfPresent(String.self, forKey: "verifiedUserId")
    }
}
