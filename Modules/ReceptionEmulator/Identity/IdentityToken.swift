import Digest

/// The identity a valid token proves: exactly its claims (seed 000: "a verified chat shows exactly the claims of the
/// latest accepted token"; `null` counts as not set).
package struct VerifiedIdentity: Sendable, Equatable {
    /// `user_id`, as a string (a whole number becomes its decimal form).
    package var userId: String
    /// `name`, if set.
    package var name: String?
    /// `email`, if set.
    package var email: String?
}

/// Why a token was refused; maps to `identity_token_invalid` or `identity_token_expired` (spec 5.3, seed 000).
package enum IdentityTokenRejection: Error, Equatable {
    /// Unverifiable: wrong secret, not HS256, malformed, a missing/ill-typed/over-long claim, `nbf` in the future.
    case invalid(reason: String)
    /// `exp` has passed.
    case expired

    /// The wire error code.
    package var code: String {
        switch self {
        case .invalid: return "identity_token_invalid"
        case .expired: return "identity_token_expired"
        }
    }
}

/// Verification of identity tokens: compact JWS, HS256 only, keyed with the identity secret's UTF-8 bytes exactly as
/// shown (including `ids_`, never decoded), per seed 000 "Create a token on your server".
package enum IdentityToken {
    /// Tokens longer than this many characters are refused (seed 000).
    package static let maximumLength = 4096
    /// `user_id` as a string: 1…255 characters (UTF-16 units, as the client counts, spec 7.14.3).
    package static let maximumUserIdLength = 255
    /// The largest whole-number `user_id` (2^53 − 1).
    package static let maximumIntegerUserId: Int64 = 9_007_199_254_740_991
    /// `email` claim limit.
    package static let maximumEmailLength = 254
    /// `name` claim limit.
    package static let maximumNameLength = 200

    /// Checks `token` against `secret` at `now` (seconds since 1970) and returns its identity.
    package static func verify(
        _ token: String, secret: String, now: Double
    ) throws(IdentityTokenRejection) -> VerifiedIdentity {
        guard token.utf16.count <= maximumLength else { throw .invalid(reason: "longer than 4,096 characters") }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else { throw .invalid(reason: "not three parts") }
        guard let headerBytes = Base64.decode(parts[0], alphabet: .url),
            let header = try? JSONValue.parse(headerBytes), header.objectValue != nil
        else { throw .invalid(reason: "unreadable header") }
        // Only HS256: `none`, HS384, RS256 and every other algorithm are refused before any signature check.
        guard header["alg"]?.stringValue == "HS256" else { throw .invalid(reason: "algorithm is not HS256") }
        guard header["crit"] == nil else { throw .invalid(reason: "critical header extensions are not supported") }
        guard let signature = Base64.decode(parts[2], alphabet: .url) else { throw .invalid(reason: "unreadable signature") }
        let signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
        let expected = HMACSHA256.authenticationCode(for: signingInput, key: Array(secret.utf8))
        guard HMACSHA256.constantTimeEquals(signature, expected) else { throw .invalid(reason: "signature mismatch") }
        guard let payloadBytes = Base64.decode(parts[1], alphabet: .url),
            let claims = try? JSONValue.parse(payloadBytes), claims.objectValue != nil
        else { throw .invalid(reason: "unreadable payload") }
        let identity = VerifiedIdentity(
            userId: try userId(claims["user_id"]),
            name: try optionalText(claims["name"], limit: maximumNameLength, claim: "name"),
            email: try optionalText(claims["email"], limit: maximumEmailLength, claim: "email"))
        guard let exp = claims["exp"], let expiry = seconds(exp) else { throw .invalid(reason: "exp missing") }
        if let nbf = claims["nbf"], !nbf.isNull {
            guard let notBefore = seconds(nbf) else { throw .invalid(reason: "nbf is not a number") }
            guard notBefore <= now else { throw .invalid(reason: "nbf in the future") }
        }
        guard expiry > now else { throw .expired }
        return identity
    }

    private static func userId(_ claim: JSONValue?) throws(IdentityTokenRejection) -> String {
        switch claim {
        case .string(let text)? where !text.isEmpty && text.utf16.count <= maximumUserIdLength:
            return text
        // A range test, not `abs`: `abs(Int64.min)` traps. The parser decides wholeness on the literal (`42.0` and
        // `1e3` are integers here; `1e-400`, `9007199254740993.0` and `1e309` are not safe whole numbers).
        case .int(let number)? where (-maximumIntegerUserId...maximumIntegerUserId).contains(number):
            return String(number)
        default:
            throw .invalid(reason: "user_id missing or not a string of 1–255 characters or a safe whole number")
        }
    }

    private static func optionalText(
        _ claim: JSONValue?, limit: Int, claim name: String
    ) throws(IdentityTokenRejection) -> String? {
        switch claim {
        case nil, .null?: return nil
        case .string(let text)? where text.utf16.count <= limit: return text
        default: throw .invalid(reason: "\(name) is not a string of at most \(limit) characters")
        }
    }

    /// A time claim as seconds; `nil` for a non-number or a number beyond Double's range (`1e309`).
    private static func seconds(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let number): return Double(number)
        case .double(let number): return number
        default: return nil
        }
    }
}
