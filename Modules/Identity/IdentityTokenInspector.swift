import Digest
import ReceptionCore

/// Reads the user an identity token names, without checking its signature (spec 7.14.3 steps 2–3): the service
/// verifies tokens; the client only needs `user_id` to tell whether a token belongs to the current user.
public enum IdentityTokenInspector {
    /// Why a token was ignored locally. Each reason is safe to log: none carries the token or a claim.
    public enum Refusal: String, Error, Sendable, Hashable, CaseIterable, CaseIdentity {
        /// The value starts with `ids_`: it is the identity secret, not a token.
        case identitySecret = "identity_secret"
        /// More than 4,096 UTF-16 units.
        case tooLong = "too_long"
        /// Not exactly three dot-separated parts.
        case notThreeParts = "not_three_parts"
        /// The middle part is not Base64URL.
        case payloadNotBase64URL = "payload_not_base64url"
        /// The middle part does not decode to one JSON object.
        case payloadNotJSONObject = "payload_not_json_object"
        /// `user_id` is missing or is not a string of 1–255 UTF-16 units or a safe whole number.
        case unreadableUserId = "unreadable_user_id"
    }

    /// The prefix of the identity secret (spec 7.14.3 step 2).
    public static let secretPrefix = "ids_"

    /// The token's `user_id` as the service will read it, or why the token is ignored.
    @inline(never) @_optimize(size) public static func userId(of token: String) -> Result<String, Refusal> {
        if token.hasPrefix(secretPrefix) { return .failure(.identitySecret) }
        guard Limits.identityToken.admits(token) else { return .failure(.tooLong) }
        // Spec 7.14.3 step 3: exactly three parts; empty parts count.
        let parts = TextPieces.split(Substring(token), at: ".")
        guard parts.count == 3 else { return .failure(.notThreeParts) }
        guard let payload = Base64.decode(parts[1], alphabet: .url) else { return .failure(.payloadNotBase64URL) }
        guard let claims = ClaimScanner.members(of: payload) else { return .failure(.payloadNotJSONObject) }
        guard let userId = claims["user_id"].flatMap(userIdClaim) else { return .failure(.unreadableUserId) }
        return .success(userId)
    }

    /// Spec 7.14.3 step 3: a string of 1–255 UTF-16 units used verbatim, or a whole number within ±(2^53 − 1) as
    /// its decimal form. Booleans, `null`, arrays and objects are never user IDs.
    @inline(never) @_optimize(size) static func userIdClaim(_ claim: ClaimScanner.Claim) -> String? {
        switch claim {
        case .string(let text): Limits.verifiedUserId.admitted(text)
        case .number(let lexeme): SafeInteger.decimal(fromJSONNumber: lexeme)
        case .boolean, .null, .array, .object: nil
        }
    }
}
