import Foundation
import Testing

/// Seed 000 identity verification over loopback, with tokens minted by PyJWT (`python3 -c`, see
/// Support/IdentityTokenMinter.swift) and tampered variants.
@Suite("IdentityVerificationTests")
struct IdentityVerificationTests {
    /// `exp` a week after the test clock's now.
    static func claims(_ extra: [String: Any] = [:], clock: TestClock) -> [String: Any] {
        var claims: [String: Any] = ["user_id": "user-42", "exp": Int(clock.now) + 7 * 86_400]
        claims.merge(extra) { _, new in new }
        return claims
    }

    @Test func aValidTokenVerifiesTheRegistrationWithExactlyItsClaims() async throws {
        let harness = try EmulatorHarness()
        let token = try IdentityTokenMinter.mint(
            Self.claims(["name": "Ada", "email": NSNull(), "role": "ignored"], clock: harness.clock),
            secret: harness.identitySecret)
        let device = try await harness.register(["identityToken": token, "email": "label@example.com"])
        #expect(device.verifiedUserId == "user-42")
        let stored = try await harness.admin("GET", "devices/\(device.id)").json
        #expect(stored["verifiedUserId"] as? String == "user-42")
        #expect(stored["verifiedName"] as? String == "Ada")
        #expect(stored["verifiedEmail"] is NSNull)
    }

    @Test(arguments: [
        (9_007_199_254_740_991 as Int64, "9007199254740991"), (42, "42"), (0, "0"),
    ])
    func wholeNumberUserIdsBecomeDecimalStrings(userId: Int64, expected: String) async throws {
        let harness = try EmulatorHarness()
        let token = try IdentityTokenMinter.mint(Self.claims(["user_id": userId], clock: harness.clock), secret: harness.identitySecret)
        #expect(try await harness.register(["identityToken": token]).verifiedUserId == expected)
    }

    /// Each case: how to make the token, and the code the service answers.
    @Test(arguments: [
        "wrong secret", "alg none", "HS384", "RS256 header", "bad base64", "4097 characters", "future nbf",
        "missing exp", "user_id too long", "user_id 2^53", "user_id boolean", "sub instead of user_id",
        "email too long", "name wrong type", "expired",
    ])
    func tamperedTokensAreRefused(kind: String) async throws {
        let harness = try EmulatorHarness()
        let secret = harness.identitySecret
        let now = Int(harness.clock.now)
        let valid = Self.claims(clock: harness.clock)
        let token: String
        switch kind {
        case "wrong secret": token = try IdentityTokenMinter.mint(valid, secret: "ids_someoneElse")
        case "alg none": token = try IdentityTokenMinter.mint(valid, secret: secret, mode: "none")
        case "HS384": token = try IdentityTokenMinter.mint(valid, secret: secret, mode: "HS384")
        case "RS256 header": token = try IdentityTokenMinter.mint(valid, secret: secret, mode: "RS256-header")
        case "bad base64":
            let parts = try IdentityTokenMinter.mint(valid, secret: secret).split(separator: ".")
            token = "\(parts[0]).\(parts[1])*.\(parts[2])"
        case "4097 characters":
            token = try Self.token(length: 4097...4100, clock: harness.clock, secret: secret)
        case "future nbf": token = try IdentityTokenMinter.mint(valid.merging(["nbf": now + 3600]) { $1 }, secret: secret)
        case "missing exp": token = try IdentityTokenMinter.mint(["user_id": "u"], secret: secret)
        case "user_id too long":
            token = try IdentityTokenMinter.mint(valid.merging(["user_id": String(repeating: "u", count: 256)]) { $1 }, secret: secret)
        case "user_id 2^53":
            token = try IdentityTokenMinter.mint(valid.merging(["user_id": 9_007_199_254_740_992 as Int64]) { $1 }, secret: secret)
        case "user_id boolean": token = try IdentityTokenMinter.mint(valid.merging(["user_id": true]) { $1 }, secret: secret)
        case "sub instead of user_id": token = try IdentityTokenMinter.mint(["sub": "u", "exp": now + 60], secret: secret)
        case "email too long":
            token = try IdentityTokenMinter.mint(valid.merging(["email": String(repeating: "e", count: 255)]) { $1 }, secret: secret)
        case "name wrong type": token = try IdentityTokenMinter.mint(valid.merging(["name": 7]) { $1 }, secret: secret)
        default: token = try IdentityTokenMinter.mint(valid.merging(["exp": now - 1]) { $1 }, secret: secret)
        }
        let reply = try await harness.api("POST", "devices", json: EmulatorHarness.payload(["identityToken": token]))
        #expect(reply.status == 401)
        #expect(reply.errorCode == (kind == "expired" ? "identity_token_expired" : "identity_token_invalid"))
        // The registration without the token goes through, unverified.
        #expect(try await harness.register().verifiedUserId == nil)
    }

    /// A validly signed token whose length falls in `length`, grown with an ignored `pad` claim.
    static func token(length: ClosedRange<Int>, clock: TestClock, secret: String) throws -> String {
        var padding = 2900
        for _ in 0..<20 {
            let token = try IdentityTokenMinter.mint(
                claims(["pad": String(repeating: "x", count: padding)], clock: clock), secret: secret)
            if length.contains(token.count) { return token }
            // Base64 turns 3 claim characters into 4 token characters.
            padding += (length.lowerBound - token.count) * 3 / 4 + (token.count < length.lowerBound ? 1 : -1)
        }
        throw CancellationError()
    }

    @Test func aTokenOfUpTo4096CharactersIsAccepted() async throws {
        let harness = try EmulatorHarness()
        let token = try Self.token(length: 4093...4096, clock: harness.clock, secret: harness.identitySecret)
        let reply = try await harness.api("POST", "devices", json: EmulatorHarness.payload(["identityToken": token]))
        #expect(reply.status == 201)
    }

    @Test func anotherUsersTokenOnAVerifiedDeviceIsIdentityMismatch() async throws {
        let harness = try EmulatorHarness()
        let first = try IdentityTokenMinter.mint(Self.claims(clock: harness.clock), secret: harness.identitySecret)
        let device = try await harness.register(["identityToken": first])
        let other = try IdentityTokenMinter.mint(Self.claims(["user_id": "someone-else"], clock: harness.clock), secret: harness.identitySecret)
        let reply = try await harness.api("PATCH", "devices/me", token: device.token, json: EmulatorHarness.payload(["identityToken": other]))
        #expect(reply.status == 409)
        #expect(reply.errorCode == "identity_mismatch")
        // The same user with new claims updates them.
        let same = try IdentityTokenMinter.mint(Self.claims(["name": "New"], clock: harness.clock), secret: harness.identitySecret)
        let update = try await harness.api("PATCH", "devices/me", token: device.token, json: EmulatorHarness.payload(["identityToken": same]))
        #expect(update.json["verifiedUserId"] as? String == "user-42")
        #expect(try await harness.admin("GET", "devices/\(device.id)").json["verifiedName"] as? String == "New")
    }

    @Test func anUnverifiedChatBecomesVerifiedByAnUpdate() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register(["externalUserId": "user-42"])
        try await harness.send(device, "before")
        let token = try IdentityTokenMinter.mint(Self.claims(clock: harness.clock), secret: harness.identitySecret)
        let update = try await harness.api("PATCH", "devices/me", token: device.token, json: EmulatorHarness.payload(["identityToken": token]))
        #expect(update.json["verifiedUserId"] as? String == "user-42")
        #expect((try await harness.api("GET", "conversation", token: device.token).json["messages"] as? [Any])?.count == 1)
    }

    @Test func withoutASecretTokensAreIdentityNotConfigured() async throws {
        let harness = try EmulatorHarness()
        let token = try IdentityTokenMinter.mint(Self.claims(clock: harness.clock), secret: harness.identitySecret)
        #expect(try await harness.admin("DELETE", "identity-secret").status == 200)
        let reply = try await harness.api("POST", "devices", json: EmulatorHarness.payload(["identityToken": token]))
        #expect(reply.errorCode == "identity_not_configured")
    }

    @Test func onlyVerifiedUsersCanChat() async throws {
        let harness = try EmulatorHarness()
        let before = try await harness.register()
        try await harness.send(before, "earlier")
        #expect(try await harness.admin("PATCH", "app", json: ["onlyVerifiedUsers": true]).status == 200)
        let registration = try await harness.api("POST", "devices", json: EmulatorHarness.payload())
        #expect(registration.status == 403)
        #expect(registration.errorCode == "verification_required")
        let send = try await harness.send(before, "again")
        #expect(send.status == 403)
        #expect(send.errorCode == "verification_required")
        let load = try await harness.api("GET", "conversation", token: before.token)
        #expect(load.status == 200)
        #expect((load.json["device"] as? [String: Bool])?["verificationRequired"] == true)
        #expect((load.json["messages"] as? [Any])?.count == 1)
        let token = try IdentityTokenMinter.mint(Self.claims(clock: harness.clock), secret: harness.identitySecret)
        let verified = try await harness.register(["identityToken": token])
        #expect(try await harness.send(verified, "verified hello").status == 201)
    }

    @Test func regeneratingTheSecretStopsOldTokensAndCanMarkUsersUnverified() async throws {
        let harness = try EmulatorHarness()
        let oldToken = try IdentityTokenMinter.mint(Self.claims(clock: harness.clock), secret: harness.identitySecret)
        let device = try await harness.register(["identityToken": oldToken])
        let oldSecret = harness.identitySecret
        let regenerated = try await harness.admin("POST", "identity-secret", json: [:])
        let newSecret = try #require(regenerated.json["identitySecret"] as? String)
        #expect(newSecret != oldSecret && newSecret.hasPrefix("ids_"))
        let stale = try await harness.api("PATCH", "devices/me", token: device.token, json: EmulatorHarness.payload(["identityToken": oldToken]))
        #expect(stale.errorCode == "identity_token_invalid")
        #expect(try await harness.admin("GET", "devices/\(device.id)").json["verifiedUserId"] as? String == "user-42")
        _ = try await harness.admin("POST", "identity-secret", json: ["markUnverified": true])
        #expect(try await harness.admin("GET", "devices/\(device.id)").json["verifiedUserId"] is NSNull)
        let fresh = try IdentityTokenMinter.mint(Self.claims(clock: harness.clock), secret: harness.identitySecret)
        let update = try await harness.api("PATCH", "devices/me", token: device.token, json: EmulatorHarness.payload(["identityToken": fresh]))
        #expect(update.json["verifiedUserId"] as? String == "user-42")
    }
}
