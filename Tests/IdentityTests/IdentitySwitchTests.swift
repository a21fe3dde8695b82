import Identity
import ReceptionCore
import Testing

/// Spec 7.14.3 steps 1 and 4–9 and §9 `IdentitySwitchTests`: when a token is the same user, when it switches user,
/// and which rejections count.
@Suite struct IdentitySwitchTests {
    static let expired = ReceptionError(code: ReceptionError.Code.identityTokenExpired, status: 401)

    @Test func theSameTokenTwiceIsIgnoredWhateverHappenedToIt() {
        let fixture = StagerFixture()
        let token = Tokens.user("alice")
        #expect(fixture.stager.identify(token: token) == .staged)
        #expect(fixture.stager.identify(token: token) == .ignored(.repeated))
        let session = fixture.stager.session
        #expect(fixture.stager.identityRejected(Self.expired, token: token, session: session) != .ignored)
        #expect(fixture.stager.identify(token: token) == .ignored(.repeated), "even after its rejection")
        #expect(fixture.stager.stagedToken == nil)
    }

    @Test func ignoredTokensLeaveTheStagedOneAndEmitNothing() {
        let fixture = StagerFixture()
        let good = Tokens.user("alice")
        #expect(fixture.stager.identify(token: good) == .staged)
        #expect(fixture.stager.identify(token: "ids_secret") == .ignored(.refused(.identitySecret)))
        #expect(fixture.stager.identify(token: "not-a-token") == .ignored(.refused(.notThreeParts)))
        #expect(fixture.stager.identify(token: Tokens.handBuilt(#"{"user_id":true}"#))
                == .ignored(.refused(.unreadableUserId)))
        #expect(fixture.stager.stagedToken?.value == good)
        #expect(fixture.stager.session.number == 1)
    }

    @Test func anUnreadableSecureStoreIgnoresTheToken() {
        let fixture = StagerFixture(verifiedUserId: "alice")
        fixture.secureStore.readsUnavailable = true
        #expect(fixture.stager.identify(token: Tokens.user("bob")) == .ignored(.secureStorageUnavailable))
        #expect(fixture.stager.stagedToken == nil)
        #expect(fixture.stager.session.number == 1, "no switch of user")
    }

    // MARK: Same user? (step 5)

    @Test(arguments: [
        // (verified, staged label, earlier token user, new token user, same user?)
        ("alice", nil, nil, "alice", true),
        ("alice", "bob", nil, "alice", true),       // the verified user decides alone
        ("alice", nil, nil, "bob", false),
        ("alice", "bob", nil, "bob", false),
        (nil, nil, nil, "alice", true),
        (nil, "alice", nil, "alice", true),
        (nil, "bob", nil, "alice", false),
        (nil, nil, "alice", "alice", true),
        (nil, nil, "bob", "alice", false),
        ("caf\u{e9}", nil, nil, "cafe\u{301}", false), // NFC vs NFD: different bytes, different users
        (nil, "caf\u{e9}", nil, "cafe\u{301}", false),
        (nil, nil, "caf\u{e9}", "cafe\u{301}", false),
    ] as [(String?, String?, String?, String, Bool)])
    func sameUserRules(verified: String?, label: String?, earlier: String?, user: String, same: Bool) {
        let fixture = StagerFixture(verifiedUserId: verified)
        if let label { fixture.stager.identify(userId: label, name: nil, email: nil) }
        if let earlier { #expect(fixture.stager.identify(token: Tokens.user(earlier, nonce: 1)) == .staged) }
        let outcome = fixture.stager.identify(token: Tokens.user(user, nonce: 2))
        #expect(outcome == (same ? .staged : .switchUser))
    }

    @Test func aFreshTokenForTheSameUserKeepsTheSession() {
        let fixture = StagerFixture(verifiedUserId: "alice", registered: true)
        fixture.stager.identify(userId: "alice", name: "Alice", email: nil)
        fixture.stager.setMetadata(["plan": "pro"])
        #expect(fixture.stager.identify(token: Tokens.user("alice", nonce: 1)) == .staged)
        #expect(fixture.stager.identify(token: Tokens.user("alice", nonce: 2)) == .staged)
        #expect(fixture.stager.session.number == 1)
        #expect(fixture.stager.stagedToken?.value == Tokens.user("alice", nonce: 2))
        #expect(fixture.stager.stagedToken?.state == .unsent)
        #expect(fixture.stager.pendingIdentity.name == "Alice")
        #expect(fixture.stager.pendingIdentity.metadata == ["plan": "pro"])
    }

    // MARK: Switch user (step 6)

    @Test func aTokenForAnotherUserStartsANewSessionKeepingOnlyPushAndTheToken() {
        let fixture = StagerFixture(verifiedUserId: "alice", registered: true)
        fixture.stager.identify(userId: "alice", name: "Alice", email: "alice@example.com")
        fixture.stager.setMetadata(["plan": "pro"])
        fixture.stager.setPushToken([0xAA, 0xBB], environment: .production)
        let before = fixture.stager.session
        let bob = Tokens.user("bob")
        #expect(fixture.stager.identify(token: bob) == .switchUser)
        #expect(fixture.stager.session != before)
        #expect(fixture.stager.pendingIdentity == PendingIdentity(pushToken: "aabb", pushEnvironment: .production))
        #expect(fixture.pendingStore.load() == PendingIdentity(pushToken: "aabb", pushEnvironment: .production))
        #expect(fixture.stager.stagedToken == StagedToken(value: bob, userId: "bob", state: .unsent))
        #expect(!fixture.logsContain(any: ["alice", "bob", bob]))
    }

    @Test func persistPendingWritesTheCarriedIdentityToTheNewScope() {
        let fixture = StagerFixture(verifiedUserId: "alice", registered: true)
        fixture.stager.setPushToken([1], environment: .sandbox)
        #expect(fixture.stager.identify(token: Tokens.user("bob")) == .switchUser)
        // The facade rotates the namespace: the store now points at an empty scope.
        fixture.pendingStore.save(PendingIdentity())
        fixture.stager.persistPending()
        #expect(fixture.pendingStore.load() == PendingIdentity(pushToken: "01", pushEnvironment: .sandbox))
    }

    // MARK: Rejections (step 9)

    @Test(arguments: [
        (ReceptionError.Code.identityTokenInvalid, 401), (ReceptionError.Code.identityTokenExpired, 401),
        (ReceptionError.Code.identityNotConfigured, 400),
    ])
    func aRejectionOfTheCurrentTokenDropsItAndEmitsIdentityRejected(code: ReceptionError.Code, status: Int) {
        let fixture = StagerFixture()
        let token = Tokens.user("alice")
        _ = fixture.stager.identify(token: token)
        let error = ReceptionError(code: code, status: status)
        let outcome = fixture.stager.identityRejected(error, token: token, session: fixture.stager.session)
        #expect(outcome == .rejected(.identityRejected(ReceptionError(code: code, status: status))))
        #expect(fixture.stager.stagedToken == nil)
        #expect(fixture.stager.session.number == 1, "the session is kept")
        #expect(!fixture.logs.contains(token))
    }

    @Test func identityMismatchSwitchesUserToThatToken() {
        let fixture = StagerFixture(registered: true)
        fixture.stager.identify(userId: "alice", name: "Alice", email: nil)
        fixture.stager.setPushToken([9], environment: .sandbox)
        let token = Tokens.user("alice")
        _ = fixture.stager.identify(token: token)
        _ = fixture.stager.devicePayload(.update, builder: testBuilder, preferences: DevicePreferences())
        let mismatch = ReceptionError(code: ReceptionError.Code.identityMismatch, status: 409)
        #expect(fixture.stager.identityRejected(mismatch, token: token, session: fixture.stager.session) == .switchUser)
        #expect(fixture.stager.session.number == 2)
        #expect(fixture.stager.stagedToken == StagedToken(value: token, userId: "alice", state: .unsent))
        #expect(fixture.stager.pendingIdentity == PendingIdentity(pushToken: "09", pushEnvironment: .sandbox))
    }

    @Test func lateRejectionsOfASupersededTokenAreIgnored() {
        let fixture = StagerFixture()
        let first = Tokens.user("alice", nonce: 1)
        let second = Tokens.user("alice", nonce: 2)
        _ = fixture.stager.identify(token: first)
        _ = fixture.stager.identify(token: second)
        let session = fixture.stager.session
        #expect(fixture.stager.identityRejected(Self.expired, token: first, session: session) == .ignored)
        let mismatch = ReceptionError(code: ReceptionError.Code.identityMismatch, status: 409)
        #expect(fixture.stager.identityRejected(mismatch, token: first, session: session) == .ignored)
        #expect(fixture.stager.stagedToken?.value == second)
        #expect(fixture.stager.session == session)
    }

    @Test func lateAnswersForTheOldSessionAfterASwitchAreIgnored() {
        let fixture = StagerFixture(verifiedUserId: "alice", registered: true)
        let alice = Tokens.user("alice")
        _ = fixture.stager.identify(token: alice)
        let oldSession = fixture.stager.session
        let oldPayload = fixture.stager.devicePayload(.update, builder: testBuilder, preferences: DevicePreferences())
        // While that update is in flight, a token for bob arrives: the session is replaced synchronously.
        let bob = Tokens.user("bob")
        #expect(fixture.stager.identify(token: bob) == .switchUser)
        let mismatch = ReceptionError(code: ReceptionError.Code.identityMismatch, status: 409)
        #expect(fixture.stager.identityRejected(mismatch, token: alice, session: oldSession) == .ignored)
        #expect(fixture.stager.identityRejected(Self.expired, token: bob, session: oldSession) == .ignored,
                "even naming the current token, an old session's answer is ignored")
        fixture.stager.deviceSynchronised(oldPayload, session: oldSession)
        #expect(fixture.stager.stagedToken == StagedToken(value: bob, userId: "bob", state: .unsent))
        #expect(fixture.stager.session.number == 2)
    }

    @Test func otherErrorCodesAreNotRejections() {
        let fixture = StagerFixture()
        let token = Tokens.user("alice")
        _ = fixture.stager.identify(token: token)
        let error = ReceptionError(code: ReceptionError.Code.verificationRequired, status: 403)
        #expect(fixture.stager.identityRejected(error, token: token, session: fixture.stager.session) == .ignored)
        #expect(fixture.stager.stagedToken?.value == token)
    }
}
