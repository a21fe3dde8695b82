import Digest

/// The APNs provider authentication token (Apple, "Establishing a token-based connection to APNs"): a JWT with the
/// header `{"alg": "ES256", "kid": <Key ID>}` and the claims `{"iss": <Team ID>, "iat": <seconds>}`, signed with
/// the team's key.
///
/// Apple refuses a token older than one hour (403 `ExpiredProviderToken`) and one renewed more often than every 20
/// minutes (429 `TooManyProviderTokenUpdates`), so one token is reused for ``renewalAge`` (50 minutes) and then
/// replaced. A 403 `InvalidProviderToken` or `ExpiredProviderToken` renews it at once (``ProviderTokens/renew()``),
/// once per delivery.
package struct ProviderToken: Equatable, Sendable {
    /// Reused at least this long (20 minutes) …
    package static let minimumAge: Double = 20 * 60
    /// … and renewed once this old (50 minutes, well before Apple's hour).
    package static let renewalAge: Double = 50 * 60

    /// The compact JWS: `header.claims.signature`, each Base64URL without padding.
    package var text: String
    /// The `iat` it carries (whole seconds since 1970, from the emulator's clock).
    package var issuedAt: Int64

    /// Signs a new token; `nil` when the key cannot sign.
    package static func sign(keyId: String, teamId: String, issuedAt: Int64, key: APNsSigningKey) -> ProviderToken? {
        let header = JSONValue.object(["alg": "ES256", "kid": .string(keyId)]).serialized()
        let claims = JSONValue.object(["iss": .string(teamId), "iat": .int(issuedAt)]).serialized()
        let input = Base64.encode(Array(header.utf8), alphabet: .url) + "." + Base64.encode(Array(claims.utf8), alphabet: .url)
        guard let signature = key.sign(Array(input.utf8)) else { return nil }
        return ProviderToken(text: input + "." + Base64.encode(signature, alphabet: .url), issuedAt: issuedAt)
    }
}

/// The token in use for one set of credentials, renewed by age or on request. Owned by the delivery worker, which is
/// its only caller.
package struct ProviderTokens {
    /// What the current token was signed for: a change of key or identifiers starts a new token.
    private var signedFor: String?
    private var current: ProviderToken?

    package init() {}

    /// The token to send at `now` (seconds since 1970) for these credentials: the current one while it is younger
    /// than ``ProviderToken/renewalAge`` and was signed for the same key and identifiers, else a new one. `nil`
    /// when the key cannot sign.
    package mutating func token(for credentials: APNsCredentials, now: Double) -> ProviderToken? {
        let identity = credentials.keyId + "|" + credentials.teamId + "|" + credentials.key.fingerprint
        let seconds = Int64(max(0, min(now, 1e15)).rounded(.down))
        if let current, signedFor == identity, Double(seconds - current.issuedAt) < ProviderToken.renewalAge,
            seconds >= current.issuedAt
        {
            return current
        }
        let fresh = ProviderToken.sign(
            keyId: credentials.keyId, teamId: credentials.teamId, issuedAt: seconds, key: credentials.key)
        current = fresh
        signedFor = fresh == nil ? nil : identity
        return fresh
    }

    /// Forgets the current token, so the next ``token(for:now:)`` signs a new one (after a 403 that blames it).
    package mutating func renew() {
        current = nil
        signedFor = nil
    }
}
