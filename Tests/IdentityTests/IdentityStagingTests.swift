import Foundation
import Identity
import ReceptionCore
import Testing

/// Spec 7.14.1, 7.14.2, 7.16 and seed 000 "Customer details": what the setters stage, what they drop, and that the
/// logs never carry the values.
@Suite struct IdentityStagingTests {
    static let longId = String(repeating: "i", count: 256)
    static let longName = String(repeating: "n", count: 201)
    static let longEmail = String(repeating: "e", count: 251) + "@x.y"

    @Test(arguments: [
        // (userId, name, email) in, staged (userId, name, email) out.
        (("u1", "Ada", "ada@example.com"), ("u1", "Ada", "ada@example.com")),
        (("u1", nil, nil), ("u1", nil, nil)),
        ((longId, "Ada", nil), (nil, "Ada", nil)),
        (("u1", longName, "a@b.c"), ("u1", nil, "a@b.c")),
        (("u1", "Ada", longEmail), ("u1", "Ada", nil)),
        ((String(repeating: "i", count: 255), String(repeating: "n", count: 200), String(repeating: "e", count: 254)),
         (String(repeating: "i", count: 255), String(repeating: "n", count: 200), String(repeating: "e", count: 254))),
        // UTF-16 counting: 100 emoji are 200 units (kept), 101 are 202 (dropped).
        (("u1", String(repeating: "🙂", count: 100), nil), ("u1", String(repeating: "🙂", count: 100), nil)),
        (("u1", String(repeating: "🙂", count: 101), nil), ("u1", nil, nil)),
        // Values are used exactly as given: no trimming, empty strings kept.
        ((" u1 ", "  Ada\n", ""), (" u1 ", "  Ada\n", "")),
    ] as [((String, String?, String?), (String?, String?, String?))])
    func identifyStagesLabelsWithinTheirLimits(input: (String, String?, String?), staged: (String?, String?, String?)) {
        let fixture = StagerFixture()
        fixture.stager.identify(userId: input.0, name: input.1, email: input.2)
        let pending = fixture.stager.pendingIdentity
        #expect(pending.externalUserId == staged.0)
        #expect(pending.name == staged.1)
        #expect(pending.email == staged.2)
        #expect(fixture.pendingStore.load() == pending, "persisted")
    }

    @Test func droppedLabelsAreLoggedWithoutTheirValues() {
        let fixture = StagerFixture()
        fixture.stager.identify(userId: Self.longId, name: Self.longName, email: Self.longEmail)
        let errors = fixture.logs.messages(at: .error)
        #expect(errors.count == 3)
        #expect(errors.contains { $0.contains("user ID") && $0.contains("255") })
        #expect(errors.contains { $0.contains("name") && $0.contains("200") })
        #expect(errors.contains { $0.contains("email") && $0.contains("254") })
        #expect(!fixture.logsContain(any: [Self.longId, Self.longName, Self.longEmail, "iiiiiiii", "nnnnnnnn"]))
    }

    @Test func identifyReplacesAllThreeLabelsAndLeavesMetadataAndPushAlone() {
        let fixture = StagerFixture()
        fixture.stager.setMetadata(["plan": "pro"])
        fixture.stager.setPushToken([0xAB], environment: .sandbox)
        fixture.stager.identify(userId: "u1", name: "Ada", email: "ada@example.com")
        fixture.stager.identify(userId: "u1", name: nil, email: nil)
        let pending = fixture.stager.pendingIdentity
        #expect(pending == PendingIdentity(
            externalUserId: "u1", metadata: ["plan": "pro"], pushToken: "ab", pushEnvironment: .sandbox))
    }

    /// Seed 000 "Identity fields": all three `nil` replace the staged labels with nothing, so the next payload
    /// carries no identity field, and leave metadata, push and the identity session alone.
    @Test func allThreeNilStageNoLabelsAndKeepTheRest() throws {
        let fixture = StagerFixture(registered: true)
        fixture.stager.setMetadata(["plan": "pro"])
        fixture.stager.setPushToken([0xAB], environment: .sandbox)
        fixture.stager.identify(userId: "u1", name: "Ada", email: "ada@example.com")
        let userId: String? = nil
        fixture.stager.identify(userId: userId, name: nil, email: nil)
        #expect(fixture.stager.pendingIdentity == PendingIdentity(
            metadata: ["plan": "pro"], pushToken: "ab", pushEnvironment: .sandbox))
        #expect(fixture.pendingStore.load() == fixture.stager.pendingIdentity, "persisted")
        #expect(fixture.stager.session.number == 1, "no new identity session")
        let payload = fixture.stager.devicePayload(.update, builder: testBuilder, preferences: DevicePreferences())
        let json = try #require(try JSONSerialization.jsonObject(with: ReceptionJSON.encode(payload)) as? [String: Any])
        for field in ["externalUserId", "name", "email"] {
            #expect(json.keys.contains(field) == false, "\(field) is omitted, not sent as null")
        }
        #expect(json["metadata"] as? [String: String] == ["plan": "pro"])
    }

    /// Seed 000 / spec §0.1: `nil` omits the field from the payload; nothing is sent as `null`.
    @Test func nilLabelsAreOmittedFromThePayload() throws {
        let fixture = StagerFixture()
        fixture.stager.identify(userId: "u1", name: nil, email: nil)
        let payload = fixture.stager.devicePayload(.update, builder: testBuilder, preferences: DevicePreferences())
        let json = try #require(try JSONSerialization.jsonObject(with: ReceptionJSON.encode(payload)) as? [String: Any])
        #expect(json["externalUserId"] as? String == "u1")
        #expect(json.keys.contains("name") == false)
        #expect(json.keys.contains("email") == false)
    }

    @Test(arguments: [
        (["plan": "pro", "provider": "App Store"], ["plan": "pro", "provider": "App Store"]),
        ([:], [:]),
        (["": "x", "ok": "1"], ["ok": "1"]),
        ([String(repeating: "k", count: 64): "v"], [String(repeating: "k", count: 64): "v"]),
        ([String(repeating: "k", count: 65): "v", "ok": "1"], ["ok": "1"]),
        (["k": String(repeating: "v", count: 512)], ["k": String(repeating: "v", count: 512)]),
        (["k": String(repeating: "v", count: 513), "ok": "1"], ["ok": "1"]),
        (["k": String(repeating: "🙂", count: 256), "j": String(repeating: "🙂", count: 257)],
         ["k": String(repeating: "🙂", count: 256)]),
        (["empty": ""], ["empty": ""]),
        (Dictionary(uniqueKeysWithValues: (1...20).map { ("k\($0)", "v") }),
         Dictionary(uniqueKeysWithValues: (1...20).map { ("k\($0)", "v") })),
        (Dictionary(uniqueKeysWithValues: (1...21).map { ("k\($0)", "v") }), [:]),
    ] as [([String: String], [String: String])])
    func setMetadataKeepsOnlyEntriesWithinTheLimits(input: [String: String], staged: [String: String]) {
        let fixture = StagerFixture()
        fixture.stager.setMetadata(["old": "value"])
        fixture.stager.setMetadata(input)
        #expect(fixture.stager.pendingIdentity.metadata == staged, "the whole map is replaced")
        #expect(fixture.pendingStore.load()?.metadata == staged)
    }

    @Test func setMetadataLogsCountsNeverKeysOrValues() {
        let fixture = StagerFixture()
        fixture.stager.setMetadata(["secret-key-\(String(repeating: "k", count: 64))": "v", "plan": "secret-plan"])
        fixture.stager.setMetadata(Dictionary(uniqueKeysWithValues: (1...21).map { ("key\($0)", "value\($0)") }))
        let errors = fixture.logs.messages(at: .error)
        #expect(errors.count == 2)
        #expect(errors[0].contains("1 entries"))
        #expect(errors[1].contains("21 entries"))
        #expect(!fixture.logsContain(any: ["secret-key", "secret-plan", "key1", "value1"]))
    }

    @Test func setMetadataLeavesLabelsAndPushAlone() {
        let fixture = StagerFixture()
        fixture.stager.identify(userId: "u1", name: "Ada", email: nil)
        fixture.stager.setPushToken([1, 2], environment: .production)
        fixture.stager.setMetadata(["a": "b"])
        #expect(fixture.stager.pendingIdentity == PendingIdentity(
            externalUserId: "u1", name: "Ada", metadata: ["a": "b"], pushToken: "0102", pushEnvironment: .production))
    }

    @Test func pushTokensAreLowerCaseHexAndNeedAnEnvironment() {
        let fixture = StagerFixture()
        #expect(fixture.stager.setPushToken([], environment: .sandbox) == false)
        #expect(fixture.stager.setPushToken([0xDE, 0xAD], environment: nil) == false)
        #expect(fixture.stager.pendingIdentity.pushToken == nil)
        #expect(fixture.stager.setPushToken([0xDE, 0xAD, 0xBE, 0xEF, 0x0A], environment: .sandbox))
        #expect(fixture.stager.pendingIdentity.pushToken == "deadbeef0a")
        #expect(fixture.stager.pendingIdentity.pushEnvironment == .sandbox)
        #expect(!fixture.logs.contains("deadbeef"), "push token values never reach the log")
        #expect(fixture.logs.contains("SANDBOX"), "environments may")
    }

    @Test func aNewStagerRestoresThePendingIdentityFromItsStore() {
        let fixture = StagerFixture()
        fixture.stager.identify(userId: "u1", name: "Ada", email: nil)
        fixture.stager.setMetadata(["plan": "pro"])
        fixture.stager.setPushToken([7], environment: .production)
        let relaunched = IdentityStager(store: fixture.pendingStore, verifiedUserId: { nil })
        #expect(relaunched.pendingIdentity == fixture.stager.pendingIdentity)
        #expect(relaunched.stagedToken == nil, "tokens live in memory only")
    }

    @Test func thePendingIdentityPersistsAsJSONWithTheSpecKeys() throws {
        let pending = PendingIdentity(
            externalUserId: "u", name: "n", email: "e", metadata: ["k": "v"], pushToken: "ab", pushEnvironment: .sandbox)
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(pending)) as? [String: Any])
        #expect(Set(json.keys) == ["externalUserId", "name", "email", "metadata", "pushToken", "pushEnvironment"])
        #expect(json["pushEnvironment"] as? String == "SANDBOX")
        #expect(try JSONDecoder().decode(PendingIdentity.self, from: JSONEncoder().encode(pending)) == pending)
    }
}
