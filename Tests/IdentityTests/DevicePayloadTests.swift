import Foundation
import Identity
import ReceptionCore
import Testing

/// Spec 4.1, 3.1 and 3.2: the device payload built from the device facts, the staged identity and the preferences,
/// and which requests carry the push fields and the identity token.
@Suite struct DevicePayloadTests {
    static let everything = PendingIdentity(
        externalUserId: "u1", name: "Ada", email: "ada@example.com", metadata: ["plan": "pro"], pushToken: "abcd",
        pushEnvironment: .production)

    @Test func theBuilderFillsEveryAlwaysPresentKey() throws {
        let payload = testBuilder.payload(
            .update, identity: Self.everything,
            preferences: DevicePreferences(preferredLocalizations: ["es_mx"], updatesAppBadge: false,
                                           paywalls: [ReceptionPaywall(id: "pro", title: "Pro")]),
            identityToken: nil)
        let json = try #require(try JSONSerialization.jsonObject(with: ReceptionJSON.encode(payload)) as? [String: Any])
        #expect(json["platform"] as? String == "ios")
        #expect(json["sdkVersion"] as? String == "0.1.0")
        #expect(json["appVersion"] as? String == "1.0")
        #expect(json["appBuild"] as? String == "1")
        #expect(json["osVersion"] as? String == "6.1")
        #expect(json["deviceModel"] as? String == "x86_64")
        #expect(json["locale"] as? String == "de_DE")
        #expect(json["timezone"] as? String == "Europe/Berlin")
        #expect(json["language"] as? String == "es-MX")
        #expect(json["bundleId"] as? String == "com.example.host")
        #expect(json["externalUserId"] as? String == "u1")
        #expect(json["name"] as? String == "Ada")
        #expect(json["email"] as? String == "ada@example.com")
        #expect(json["pushToken"] as? String == "abcd")
        #expect(json["pushEnvironment"] as? String == "PRODUCTION")
        #expect(json["metadata"] as? [String: String] == ["plan": "pro"])
        #expect(json["updatesAppBadge"] as? Bool == false)
        #expect((json["paywalls"] as? [[String: String]]) == [["id": "pro", "title": "Pro"]])
        #expect(json["identityToken"] == nil)
    }

    @Test(arguments: [
        ((String?.none, String?.none), ("1.0", "1")), (("", ""), ("1.0", "1")), (("2.3", "45"), ("2.3", "45")),
    ] as [((String?, String?), (String, String))])
    func appVersionAndBuildDefaults(given: (String?, String?), sent: (String, String)) {
        var facts = testFacts
        facts.appVersion = given.0
        facts.appBuild = given.1
        let payload = DevicePayloadBuilder(facts: facts).payload(
            .update, identity: PendingIdentity(), preferences: DevicePreferences(), identityToken: nil)
        #expect(payload.appVersion == sent.0)
        #expect(payload.appBuild == sent.1)
    }

    @Test(arguments: [
        (String?.none, [String](), "en"), ("pt_br", ["de"], "pt-BR"), (nil, ["zh_hans_hk", "en"], "zh-Hans-HK"),
        ("not a tag", ["de"], "en"), (nil, ["iw-IL"], "he-IL"),
    ])
    func theLanguageIsTheCanonicalAppLanguage(override: String?, preferred: [String], language: String) {
        let preferences = DevicePreferences(languageOverride: override, preferredLocalizations: preferred)
        #expect(testBuilder.payload(.update, identity: PendingIdentity(), preferences: preferences,
                                    identityToken: nil).language == language)
    }

    @Test func aRegistrationNeverCarriesPushFields() {
        let payload = testBuilder.payload(
            .registration, identity: Self.everything, preferences: DevicePreferences(), identityToken: "t")
        #expect(payload.pushToken == nil)
        #expect(payload.pushEnvironment == nil)
        #expect(payload.identityToken == "t")
    }

    @Test func anUpdateCarriesPushOnlyWhenBothFieldsAreKnown() {
        var identity = Self.everything
        identity.pushEnvironment = nil
        let payload = testBuilder.payload(.update, identity: identity, preferences: DevicePreferences(), identityToken: nil)
        #expect(payload.pushToken == nil)
        #expect(payload.pushEnvironment == nil)
    }

    @Test func limitsAreAppliedAgainToAStoredIdentity() {
        // A pending identity read back from preferences written by something else.
        let stored = PendingIdentity(
            externalUserId: String(repeating: "u", count: 256), name: String(repeating: "n", count: 201),
            email: String(repeating: "e", count: 255),
            metadata: Dictionary(uniqueKeysWithValues: (1...21).map { ("k\($0)", "v") }))
        let payload = testBuilder.payload(.update, identity: stored, preferences: DevicePreferences(), identityToken: nil)
        #expect(payload.externalUserId == nil)
        #expect(payload.name == nil)
        #expect(payload.email == nil)
        #expect(payload.metadata == [:])
    }

    // MARK: The token's journey (spec 3.1, 3.2, 7.14.3 step 8)

    @Test func anUpdateCarriesTheTokenUntilTheServiceAcceptsIt() {
        let fixture = StagerFixture(registered: true)
        let token = Tokens.user("alice")
        _ = fixture.stager.identify(token: token)
        let session = fixture.stager.session
        let first = fixture.stager.devicePayload(.update, builder: testBuilder, preferences: DevicePreferences())
        #expect(first.identityToken == token)
        #expect(fixture.stager.stagedToken?.state == .sent)
        let again = fixture.stager.devicePayload(.update, builder: testBuilder, preferences: DevicePreferences())
        #expect(again.identityToken == token, "sent but not accepted: still carried")
        fixture.stager.deviceSynchronised(first, session: session)
        #expect(fixture.stager.stagedToken?.state == .accepted)
        let later = fixture.stager.devicePayload(.update, builder: testBuilder, preferences: DevicePreferences())
        #expect(later.identityToken == nil)
        #expect(fixture.stager.devicePayload(.registration, builder: testBuilder, preferences: DevicePreferences())
                    .identityToken == token, "a registration always carries a staged token")
        let fresh = Tokens.user("alice", nonce: 9)
        _ = fixture.stager.identify(token: fresh)
        #expect(fixture.stager.devicePayload(.update, builder: testBuilder, preferences: DevicePreferences())
                    .identityToken == fresh)
    }

    @Test func aSuccessForAnOlderTokenDoesNotAcceptTheNewOne() {
        let fixture = StagerFixture(registered: true)
        _ = fixture.stager.identify(token: Tokens.user("alice", nonce: 1))
        let old = fixture.stager.devicePayload(.update, builder: testBuilder, preferences: DevicePreferences())
        _ = fixture.stager.identify(token: Tokens.user("alice", nonce: 2))
        fixture.stager.deviceSynchronised(old, session: fixture.stager.session)
        #expect(fixture.stager.stagedToken?.state == .unsent)
    }

    @Test func noTokenNoKey() throws {
        let fixture = StagerFixture()
        let payload = fixture.stager.devicePayload(.registration, builder: testBuilder, preferences: DevicePreferences())
        let json = try #require(try JSONSerialization.jsonObject(with: ReceptionJSON.encode(payload)) as? [String: Any])
        #expect(json.keys.contains("identityToken") == false)
        #expect(json["metadata"] as? [String: String] == [:])
        #expect(json["paywalls"] as? [Any] != nil)
    }
}
