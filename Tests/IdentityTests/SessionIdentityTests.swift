import Identity
import ReceptionCore
import Testing

/// Spec 7.14.1's conflict log, 7.7's verification-required interplay, and what logout and revocation leave
/// (§9 `SessionIdentityTests`).
@Suite struct SessionIdentityTests {
    @Test func anUnverifiedIdentifyConflictOnlyLogs() {
        let fixture = StagerFixture(verifiedUserId: "alice-verified", registered: true)
        let token = Tokens.user("alice-verified")
        _ = fixture.stager.identify(token: token)
        fixture.stager.identify(userId: "bob-label", name: "Bob Label", email: "bob@example.com")
        let errors = fixture.logs.messages(at: .error)
        #expect(errors.count == 1)
        #expect(errors.first?.contains("call logout when users switch") == true)
        #expect(fixture.stager.session.number == 1, "no reset")
        #expect(fixture.stager.stagedToken?.value == token, "the token stays")
        #expect(fixture.stager.pendingIdentity.externalUserId == "bob-label", "the labels are still staged")
        #expect(!fixture.logsContain(any: ["alice-verified", "bob-label", "Bob Label", "bob@example.com"]))
    }

    @Test(arguments: [
        ("alice", "alice", false),
        ("alice", "bob", true),
        ("caf\u{e9}", "cafe\u{301}", true), // canonically equivalent, different bytes
        ("caf\u{e9}", "caf\u{e9}", false),
    ])
    func verifiedUserIdsCompareByBytes(verified: String, label: String, logs: Bool) {
        let fixture = StagerFixture(verifiedUserId: verified)
        fixture.stager.identify(userId: label, name: nil, email: nil)
        #expect(fixture.logs.contains("call logout when users switch") == logs)
    }

    @Test func noVerifiedUserOrAnUnreadableStoreMeansNoConflict() {
        let unverified = StagerFixture(registered: true)
        unverified.stager.identify(userId: "bob", name: nil, email: nil)
        #expect(unverified.logs.records.isEmpty)
        let locked = StagerFixture(verifiedUserId: "alice")
        locked.secureStore.readsUnavailable = true
        locked.stager.identify(userId: "bob", name: nil, email: nil)
        #expect(!locked.logs.contains("call logout"))
        #expect(locked.stager.pendingIdentity.externalUserId == "bob")
    }

    /// A `nil` user ID names nobody, so it is no conflict with the verified user and changes nothing of the token.
    @Test func aNilUserIdIsNoConflictWithTheVerifiedUser() {
        let fixture = StagerFixture(verifiedUserId: "alice-verified", registered: true)
        let token = Tokens.user("alice-verified")
        _ = fixture.stager.identify(token: token)
        fixture.stager.identify(userId: nil, name: nil, email: nil)
        #expect(fixture.logs.messages(at: .error).isEmpty)
        #expect(fixture.stager.session.number == 1, "no reset")
        #expect(fixture.stager.stagedToken?.value == token, "the token stays")
    }

    // MARK: Verification required (spec 7.7)

    @Test func theServiceFlagSetsAndClearsTheRequirement() {
        let fixture = StagerFixture()
        #expect(fixture.stager.verificationRequirement(reported: true))
        #expect(fixture.stager.isVerificationRequired)
        #expect(fixture.stager.verificationRequirement(reported: false) == false)
        #expect(!fixture.stager.isVerificationRequired)
    }

    @Test func stagingATokenClearsTheRequirementAndAnUnsentTokenHoldsItOff() {
        let fixture = StagerFixture()
        fixture.stager.verificationRequirement(reported: true)
        #expect(fixture.stager.identify(token: Tokens.user("alice")) == .staged)
        #expect(!fixture.stager.isVerificationRequired, "a new token hides the notice")
        #expect(fixture.stager.verificationRequirement(reported: true) == false, "an unsent token may lift it")
        _ = fixture.stager.devicePayload(.update, builder: testBuilder, preferences: DevicePreferences())
        #expect(fixture.stager.verificationRequirement(reported: true), "once sent, the service's word stands")
    }

    @Test func anIgnoredTokenDoesNotClearTheRequirement() {
        let fixture = StagerFixture()
        fixture.stager.verificationRequirement(reported: true)
        _ = fixture.stager.identify(token: "ids_not_a_token")
        #expect(fixture.stager.isVerificationRequired)
    }

    // MARK: Session ends (spec 7.5, 7.15)

    @Test func logoutForgetsEverythingAndStartsANewSession() {
        let fixture = StagerFixture()
        let token = Tokens.user("alice")
        fixture.stager.identify(userId: "alice", name: "Alice", email: nil)
        fixture.stager.setMetadata(["plan": "pro"])
        fixture.stager.setPushToken([1], environment: .sandbox)
        _ = fixture.stager.identify(token: token)
        fixture.stager.verificationRequirement(reported: false)
        fixture.stager.logout()
        #expect(fixture.stager.pendingIdentity == PendingIdentity())
        #expect(fixture.pendingStore.load() == PendingIdentity())
        #expect(fixture.stager.stagedToken == nil)
        #expect(fixture.stager.session.number == 2)
        #expect(fixture.stager.identify(token: token) == .staged, "after logout the same token may be passed again")
    }

    @Test func revocationKeepsTheDetailsButForgetsTheToken() {
        let fixture = StagerFixture()
        fixture.stager.identify(userId: "alice", name: "Alice", email: "a@example.com")
        fixture.stager.setMetadata(["plan": "pro"])
        fixture.stager.setPushToken([1], environment: .sandbox)
        _ = fixture.stager.identify(token: Tokens.user("alice"))
        let before = fixture.stager.pendingIdentity
        fixture.stager.sessionRevoked()
        #expect(fixture.stager.pendingIdentity == before)
        #expect(fixture.stager.stagedToken == nil)
        #expect(fixture.stager.session.number == 2)
    }
}
