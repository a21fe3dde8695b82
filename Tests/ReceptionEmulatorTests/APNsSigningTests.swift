import CCrypto
import Digest
import Foundation
import ReceptionEmulator
import Testing

/// The APNs provider's signing (issue 30): the team's `.p8` key read through libcrypto, ES256 signatures in the
/// JWT's fixed-width form, and provider tokens reused for at least 20 minutes and renewed before the hour. That the
/// signatures verify is shown by the fake APNs (Python's cryptography) in `APNsDeliveryTests`.
@Suite("APNsSigningTests")
struct APNsSigningTests {
    @Test func aP256PKCS8KeyIsReadAndSignsSixtyFourBytes() throws {
        let key = try APNsSigningKey(pem: try TestKey.generate().privatePEM)
        let signature = try #require(key.sign(Array("header.claims".utf8)))
        #expect(signature.count == 64)
        #expect(key.fingerprint.count == 8)
    }

    @Test func anotherCurveIsRefusedAsNotP256() throws {
        let p384 = try TestKey.generate(curve: NID_secp384r1)
        #expect(throws: APNsSigningKey.Problem.notP256) { try APNsSigningKey(pem: p384.privatePEM) }
    }

    @Test(arguments: [
        "", "not a key", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
        String(repeating: "A", count: 9_000),
    ])
    func textThatIsNoPKCS8KeyIsRefused(_ text: String) {
        #expect(throws: APNsSigningKey.Problem.notPKCS8) { try APNsSigningKey(pem: text) }
    }

    @Test func aPublicKeyOrACertificateIsNoPrivateKey() throws {
        let key = try TestKey.generate()
        #expect(throws: APNsSigningKey.Problem.notPKCS8) { try APNsSigningKey(pem: key.publicPEM) }
    }

    /// DER `SEQUENCE { INTEGER r, INTEGER s }` → `r || s`, 32 bytes each: sign bytes dropped, short values padded.
    @Test func derSignaturesBecomeSixtyFourRawBytes() throws {
        let r = [UInt8](repeating: 0x81, count: 32)
        let s = [UInt8](repeating: 0x22, count: 31)
        let der: [UInt8] = [0x30, 4 + 33 + 31, 0x02, 33, 0x00] + r + [0x02, 31] + s
        #expect(ECDSASignature.raw(der: der) == r + [0] + s)
        // A long-form length (0x81) as OpenSSL writes for 72-byte signatures.
        let long: [UInt8] = [0x30, 0x81, 4 + 33 + 31, 0x02, 33, 0x00] + r + [0x02, 31] + s
        #expect(ECDSASignature.raw(der: long) == r + [0] + s)
    }

    @Test(arguments: [
        [UInt8](), [0x31, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01], [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01],
        [0x30, 0x07, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00], [0x30, 0x03, 0x02, 0x01, 0x01],
        [0x30, 0x25, 0x02, 0x21] + [UInt8](repeating: 1, count: 33) + [0x02, 0x00],
    ])
    func malformedDERIsRefused(_ der: [UInt8]) {
        #expect(ECDSASignature.raw(der: der) == nil)
    }

    @Test func providerTokenCarriesES256KeyIdTeamIdAndIssuedAt() throws {
        let key = try APNsSigningKey(pem: try TestKey.generate().privatePEM)
        let token = try #require(ProviderToken.sign(keyId: "KEY1234567", teamId: "TEAM123456", issuedAt: 1_790_000_000, key: key))
        let parts = token.text.split(separator: ".")
        try #require(parts.count == 3)
        let header = try JSONSerialization.jsonObject(with: Data(try #require(Base64.decode(parts[0], alphabet: .url))))
        let claims = try JSONSerialization.jsonObject(with: Data(try #require(Base64.decode(parts[1], alphabet: .url))))
        #expect(header as? [String: String] == ["alg": "ES256", "kid": "KEY1234567"])
        #expect((claims as? [String: Any])?["iss"] as? String == "TEAM123456")
        #expect((claims as? [String: Any])?["iat"] as? Int == 1_790_000_000)
        #expect(Base64.decode(parts[2], alphabet: .url)?.count == 64)
        #expect(!parts[2].contains("="))
    }

    /// Apple: reuse a token at least 20 minutes, renew it before an hour. Ours lives 50 minutes.
    @Test func providerTokenIsReusedForFiftyMinutesThenRenewed() throws {
        let key = try APNsSigningKey(pem: try TestKey.generate().privatePEM)
        let credentials = APNsCredentials(keyId: "KEY1234567", teamId: "TEAM123456", bundleId: "com.example", key: key)
        var tokens = ProviderTokens()
        let start = 1_790_000_000.0
        let firstToken = tokens.token(for: credentials, now: start)
        let first = try #require(firstToken)
        let afterTwentyMinutes = tokens.token(for: credentials, now: start + ProviderToken.minimumAge)
        let justBeforeRenewal = tokens.token(for: credentials, now: start + ProviderToken.renewalAge - 1)
        #expect(afterTwentyMinutes == first)
        #expect(justBeforeRenewal == first)
        let renewedToken = tokens.token(for: credentials, now: start + ProviderToken.renewalAge)
        let renewed = try #require(renewedToken)
        #expect(renewed != first)
        #expect(renewed.issuedAt == first.issuedAt + Int64(ProviderToken.renewalAge))
        #expect(ProviderToken.renewalAge < 3600 && ProviderToken.renewalAge >= ProviderToken.minimumAge)
    }

    @Test func renewOrOtherCredentialsSignANewToken() throws {
        let key = try APNsSigningKey(pem: try TestKey.generate().privatePEM)
        var credentials = APNsCredentials(keyId: "KEY1234567", teamId: "TEAM123456", bundleId: "com.example", key: key)
        var tokens = ProviderTokens()
        let firstToken = tokens.token(for: credentials, now: 1_790_000_000)
        let first = try #require(firstToken)
        tokens.renew()
        let secondToken = tokens.token(for: credentials, now: 1_790_000_000)
        let second = try #require(secondToken)
        #expect(second.text != first.text)
        credentials.key = try APNsSigningKey(pem: try TestKey.generate().privatePEM)
        let thirdToken = tokens.token(for: credentials, now: 1_790_000_000)
        let third = try #require(thirdToken)
        #expect(third.text != second.text)
    }

    @Test(arguments: [
        (200, nil, APNsAnswer.Disposition.delivered), (410, "Unregistered", .dropToken), (400, "BadDeviceToken", .dropToken),
        (403, "InvalidProviderToken", .renewProviderToken), (403, "ExpiredProviderToken", .renewProviderToken),
        (429, "TooManyRequests", .retry), (500, "InternalServerError", .retry), (503, "ServiceUnavailable", .retry),
        (0, "Couldn't connect to server", .retry), (400, "TopicDisallowed", .reject), (403, "BadCertificate", .reject),
        (413, "PayloadTooLarge", .reject),
    ] as [(Int, String?, APNsAnswer.Disposition)])
    func everyAnswerHasItsDisposition(status: Int, reason: String?, expected: APNsAnswer.Disposition) {
        #expect(APNsAnswer(status: status, reason: reason).disposition == expected)
    }

    @Test func backoffDoublesFromOneSecondAndIsBounded() {
        let delays = (1..<APNsBackoff.maximumAttempts).map { APNsBackoff.delay(afterAttempt: $0) }
        #expect(delays == [1, 2, 4])
        #expect(APNsBackoff.delay(afterAttempt: 60) == 8)
    }
}

/// Which APNs servers are verified, and against what (`APNsTrust`).
@Suite("APNsTrustTests")
struct APNsTrustTests {
    @Test(arguments: [
        ("127.0.0.1", true), ("127.8.9.10", true), ("localhost", true), ("128.0.0.1", false),
        ("api.push.apple.com", false), ("127.0.0.1.example.com", false), ("127.0.0", false), ("127.0.0.256", false),
        ("10.0.0.1", false), ("", false),
    ])
    func loopbackHosts(host: String, loopback: Bool) {
        #expect(EmulatorConfiguration.isLoopback(host) == loopback)
    }

    @Test("without a CA bundle only a loopback test server goes unverified; Apple's hosts never do")
    func onlyLoopbackIsUnverified() {
        let trust = APNsTrust(caFile: nil)
        #expect(trust.caFile == nil)
        #expect(trust.skipsVerification(of: "https://127.0.0.1:8443/3/device/abc"))
        #expect(trust.skipsVerification(of: "https://localhost:8443/3/device/abc"))
        #expect(!trust.skipsVerification(of: "https://api.push.apple.com/3/device/abc"))
        #expect(!trust.skipsVerification(of: "https://api.sandbox.push.apple.com/3/device/abc"))
        #expect(!trust.skipsVerification(of: "https://apns.example.test:443/3/device/abc"))
    }

    @Test("a CA bundle (--apns-ca-file) verifies every server, loopback too")
    func aBundleVerifiesEverything() {
        let given = APNsTrust(caFile: "/given/ca.pem")
        #expect(given.caFile == "/given/ca.pem")
        #expect(!given.skipsVerification(of: "https://127.0.0.1:8443/3/device/abc"))
        #expect(!given.skipsVerification(of: "https://api.push.apple.com/3/device/abc"))
    }

    @Test("the start-up note names an unverified loopback test server, and only that")
    func startupNote() {
        var configuration = EmulatorConfiguration(dataDirectory: "/nonexistent/reception-emulator")
        configuration.apnsHost = "127.0.0.1:9443"
        #expect(APNsTrust.startupNote(configuration, trust: APNsTrust(caFile: nil)) != nil)
        #expect(APNsTrust.startupNote(configuration, trust: APNsTrust(caFile: "/ca.pem")) == nil)
        configuration.apnsHost = "apns.example.test:443"
        #expect(APNsTrust.startupNote(configuration, trust: APNsTrust(caFile: nil)) == nil)
    }
}
