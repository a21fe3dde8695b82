import Digest
import Foundation
import ReceptionCore

/// Who the person is, as far as the SDK stages it for the service (spec 7.14, 7.16, 7.17): the unverified labels,
/// the metadata and the push registration (persisted through a `PendingIdentityStore`), and the identity token with
/// its progress (memory only).
///
/// The setters never send anything: the staged state travels with the next registration or device update, which
/// asks `devicePayload(_:builder:preferences:)` for the body. Thread-safe; every method is synchronous.
public final class IdentityStager: Sendable {
    /// Reads the verified user ID of the current session from the secure store: `nil` when none is stored, a
    /// `secure_storage_unavailable` error when the store cannot answer.
    public typealias VerifiedUserIdReader = @Sendable () throws(ReceptionError) -> String?

    private struct State {
        var pending: PendingIdentity
        var token: StagedToken?
        /// Spec 7.14.3 step 1: the last string passed to `identify(token:)`, whatever became of it.
        var lastPassedToken: String?
        var session = IdentitySession(number: 1)
        /// Spec 7.7: the service said only verified users can chat (memory only, spec 7.17).
        var verificationRequired = false
    }

    private let state: Locked<State>
    private let store: PendingIdentityStore
    private let verifiedUserId: VerifiedUserIdReader
    private let logger: ReceptionLogger

    /// A stager starting from the pending identity in `store` (or a fresh one).
    @inline(never) @_optimize(size) public init(
        store: PendingIdentityStore, verifiedUserId: @escaping VerifiedUserIdReader,
        logger: ReceptionLogger = ReceptionLogger(category: "Identity")
    ) {
        self.store = store
        self.verifiedUserId = verifiedUserId
        self.logger = logger
        self.state = Locked(State(pending: store.load() ?? PendingIdentity()))
    }

    /// A reader of the verified user ID kept in `SessionCredentials` under `SecureStoreKey.session(scope:)`, for
    /// the scope `scope()` names at the time of the read.
    @inline(never) @_optimize(size) public static func verifiedUserIdReader(
        secureStore: any SecureStoring, scope: @escaping @Sendable () -> String
    ) -> VerifiedUserIdReader {
        { () throws(ReceptionError) -> String? in
            try SessionCredentials.read(from: secureStore, scope: scope())?.verifiedUserId
        }
    }

    // MARK: - Reading

    /// The staged labels, metadata and push registration.
    @_optimize(size) public var pendingIdentity: PendingIdentity { state.withLock { $0.pending } }

    /// The identity token held in memory, if any.
    @_optimize(size) public var stagedToken: StagedToken? { state.withLock { $0.token } }

    /// The current identity session; capture it when wiring a session's transport hooks.
    @_optimize(size) public var session: IdentitySession { state.withLock { $0.session } }

    /// Spec 7.7: whether the person must sign in (send a valid token) before sending.
    @_optimize(size) public var isVerificationRequired: Bool { state.withLock { $0.verificationRequired } }

    // MARK: - Labels, metadata, push (spec 7.14.1, 7.14.2, 7.16)

    /// Spec 7.14.1 and seed 000 "Identity fields": replaces the three labels. A value over its UTF-16 limit is
    /// dropped, not truncated, with a log that names the field only; `nil` omits the field from requests (on an
    /// existing device the service keeps its value), so all three `nil` leave the service's identity as it is and
    /// start no new session. Values are used exactly as given.
    @inline(never) @_optimize(size) public func identify(userId: String?, name: String?, email: String?) {
        let labels: [(String, String?, UTF16Limit)] = [
            ("user ID", userId, Limits.externalUserId), ("name", name, Limits.name), ("email", email, Limits.email),
        ]
        for (field, value, limit) in labels where value != nil && limit.admitted(value) == nil {
            logger.write(.error, "identify: the \(field) is longer than \(limit.maximum) UTF-16 units and is left out")
        }
        // Spec 7.14.1: a verified user is stored and the labels name someone else. Only a log: labels never
        // change a verified identity (seed 000 §0.6), and resetting here could drop the wrong person's chat.
        // A `nil` user ID names nobody (the service keeps its value), so it cannot differ from the verified one.
        if let userId, let verified = try? verifiedUserId(), !Self.sameBytes(verified, userId) {
            logger.write(
                .error, "identify: the user ID differs from the verified user of this session; call logout when users switch")
        }
        state.withLock { state in
            state.pending.externalUserId = Limits.externalUserId.admitted(userId)
            state.pending.name = Limits.name.admitted(name)
            state.pending.email = Limits.email.admitted(email)
            store.save(state.pending)
        }
    }

    /// Spec 7.14.2: replaces the whole metadata map. More than 20 entries stage an empty map; otherwise entries
    /// with a key outside 1–64 or a value over 512 UTF-16 units are dropped. `[:]` clears the service's metadata at
    /// the next update.
    @inline(never) @_optimize(size) public func setMetadata(_ metadata: [String: String]) {
        let (kept, dropped) = Limits.sanitizedMetadata(metadata)
        if metadata.count > Limits.metadataEntries {
            logger.write(
                .error, "setMetadata: \(metadata.count) entries exceed \(Limits.metadataEntries); no metadata is sent")
        } else if dropped > 0 {
            logger.write(
                .error, "setMetadata: \(dropped) entries break the key or value length limits and are left out")
        }
        state.withLock { state in
            state.pending.metadata = kept
            store.save(state.pending)
        }
    }

    /// Spec 7.16: stages the APNs token as lower-case hex with its resolved environment. An empty token or an
    /// unresolved environment (`nil`) is ignored. Returns whether the token was staged; when the device is already
    /// registered the facade then sends a device update.
    @discardableResult
    @inline(never)
    @_optimize(size) public func setPushToken(_ token: some Sequence<UInt8>, environment: PushEnvironment?) -> Bool {
        let hex = Hex.encode(token)
        guard !hex.isEmpty else {
            logger.write(.info, "setPushToken: empty token ignored")
            return false
        }
        guard let environment else {
            logger.write(.error, "setPushToken: the push environment could not be resolved; token ignored")
            return false
        }
        state.withLock { state in
            state.pending.pushToken = hex
            state.pending.pushEnvironment = environment
            store.save(state.pending)
        }
        logger.write(.info, "push token staged for \(environment.rawValue)")
        return true
    }

    // MARK: - Identity token (spec 7.14.3)

    /// Spec 7.14.3 steps 1–7: stages a verified-identity token for the next registration or update.
    ///
    /// The same string as last time is ignored; a secret, an overlong or unreadable token is ignored with no
    /// event; an unreadable secure store ignores it. A token for the current user is staged unsent and clears
    /// "verification required". A token for another user starts a new session at once (keeping only the push
    /// registration and this token) and returns `.switchUser` for the facade to finish the logout.
    @inline(never) @_optimize(size) public func identify(token: String) -> TokenStagingOutcome {
        let repeated = state.withLock { state in
            defer { state.lastPassedToken = token }
            return state.lastPassedToken.map { Self.sameBytes($0, token) } ?? false
        }
        if repeated { return .ignored(.repeated) }
        let userId: String
        switch IdentityTokenInspector.userId(of: token) {
        case .success(let id):
            userId = id
        case .failure(let refusal):
            logger.write(.error, "identify(token:): token ignored (\(refusal.rawValue))")
            return .ignored(.refused(refusal))
        }
        let verified: String?
        do {
            verified = try verifiedUserId()
        } catch {
            logger.write(.error, "identify(token:): token ignored, the secure store cannot be read (\(error.code))")
            return .ignored(.secureStorageUnavailable)
        }
        let outcome = state.withLock { Self.stage(token, userId: userId, verified: verified, in: &$0, store: store) }
        switch outcome {
        case .switchUser: logger.write(.info, "identity token names another user; switching user")
        case .staged: logger.write(.debug, "identity token staged")
        case .ignored: break
        }
        return outcome
    }

    /// Stages `token` for `userId` under the lock: the same user keeps the labels; another one switches user. A
    /// function of its own, never inlined, rather than the `withLock` closure's body: a closure is compiled at the
    /// host's -O, a cold function for size (Docs/Footprint.md).
    @inline(never) @_optimize(size) private static func stage(
        _ token: String, userId: String, verified: String?, in state: inout State, store: PendingIdentityStore
    ) -> TokenStagingOutcome {
        let staged = StagedToken(value: token, userId: userId)
        guard isSameUser(userId, verified: verified, state: state) else {
            state.session = state.session.next
            state.pending = state.pending.keepingOnlyPush
            state.token = staged
            state.verificationRequired = false
            store.save(state.pending)
            return .switchUser
        }
        state.token = staged
        state.verificationRequired = false
        return .staged
    }

    /// Spec 7.14.3 step 5. With a verified user stored, only it decides; otherwise the staged labels and an
    /// already staged token must not name someone else. Comparison is by UTF-8 bytes.
    @inline(never)
    @_optimize(size) private static func isSameUser(_ userId: String, verified: String?, state: State) -> Bool {
        if let verified { return sameBytes(verified, userId) }
        if let label = state.pending.externalUserId, !sameBytes(label, userId) { return false }
        if let other = state.token, !sameBytes(other.userId, userId) { return false }
        return true
    }

    /// Spec 7.14.3 step 9: the service rejected `token` in `session`. Only the token still staged for the current
    /// session counts: `identity_token_invalid`, `_expired` and `identity_not_configured` drop it and produce the
    /// `identityRejected` event; `identity_mismatch` switches user to it. Anything else is ignored.
    @inline(never) @_optimize(size) public func identityRejected(
        _ error: ReceptionError, token: String, session: IdentitySession
    ) -> TokenRejectionOutcome {
        let eventCodes = [
            ReceptionError.Code.identityTokenInvalid, ReceptionError.Code.identityTokenExpired,
            ReceptionError.Code.identityNotConfigured,
        ]
        let outcome = state.withLock {
            Self.reject(token, error: error, eventCodes: eventCodes, session: session, in: &$0, store: store)
        }
        switch outcome {
        case .rejected: logger.write(.error, "identity token rejected (\(error.code), status \(error.status))")
        case .switchUser: logger.write(.info, "identity_mismatch: the session belongs to another user; switching user")
        case .ignored: logger.write(.debug, "identity rejection (\(error.code)) for a superseded token ignored")
        }
        return outcome
    }

    /// `identityRejected` under the lock (a function of its own for the reason `stage` is).
    @inline(never) @_optimize(size) private static func reject(
        _ token: String, error: ReceptionError, eventCodes: [ReceptionError.Code], session: IdentitySession,
        in state: inout State, store: PendingIdentityStore
    ) -> TokenRejectionOutcome {
        guard session == state.session, let staged = state.token, sameBytes(staged.value, token) else {
            return .ignored
        }
        if eventCodes.contains(ReceptionError.Code(error.code)) {
            state.token = nil
            return .rejected(.identityRejected(ReceptionError(code: error.code, status: error.status)))
        }
        guard error.code == ReceptionError.Code.identityMismatch else { return .ignored }
        state.session = state.session.next
        state.pending = state.pending.keepingOnlyPush
        state.token = StagedToken(value: staged.value, userId: staged.userId)
        state.verificationRequired = false
        store.save(state.pending)
        return .switchUser
    }

    // MARK: - Payload and synchronisation (spec 3.1, 3.2, 4.1)

    /// The device payload for the current state. A registration carries any staged token; an update carries it
    /// until the service accepted it. An unsent token that goes into a payload becomes *sent*.
    @inline(never) @_optimize(size) public func devicePayload(
        _ purpose: DevicePayloadPurpose, builder: DevicePayloadBuilder, preferences: DevicePreferences
    ) -> DevicePayload {
        let (identity, token) = state.withLock { state -> (PendingIdentity, String?) in
            guard var staged = state.token, purpose == .registration || staged.state != .accepted else {
                return (state.pending, nil)
            }
            if staged.state == .unsent {
                staged.state = .sent
                state.token = staged
            }
            return (state.pending, staged.value)
        }
        return builder.payload(purpose, identity: identity, preferences: preferences, identityToken: token)
    }

    /// A registration or update carrying `payload` succeeded in `session`: the token it carried, if still the
    /// staged one, is accepted and later updates leave it out (spec 3.2).
    @inline(never) @_optimize(size) public func deviceSynchronised(_ payload: DevicePayload, session: IdentitySession) {
        state.withLock { state in
            guard session == state.session, let carried = payload.identityToken, var staged = state.token,
                  Self.sameBytes(staged.value, carried) else { return }
            staged.state = .accepted
            state.token = staged
        }
    }

    /// Spec 7.7: the service's `verificationRequired` flag arrived. `false` clears the requirement; `true` sets it
    /// unless a staged token has not been sent yet (it may lift the requirement). Returns the resulting state.
    @discardableResult
    @inline(never) @_optimize(size) public func verificationRequirement(reported required: Bool) -> Bool {
        state.withLock { state in
            state.verificationRequired = required && state.token?.state != .unsent
            return state.verificationRequired
        }
    }

    // MARK: - Session ends (spec 7.5, 7.15)

    /// Spec 7.15 logout (and deletion): forgets the labels, metadata, push registration and token, and starts a
    /// new session. Call after rotating the namespace, so the empty pending identity is saved under the new scope.
    @inline(never) @_optimize(size) public func logout() {
        state.withLock { state in
            state = State(pending: PendingIdentity(), session: state.session.next)
            store.save(state.pending)
        }
        logger.write(.debug, "identity reset by logout")
    }

    /// Spec 7.5: the service revoked the session. The token is forgotten; labels, metadata and push registration
    /// are kept for the next registration. Call `persistPending()` after rotating the namespace.
    @inline(never) @_optimize(size) public func sessionRevoked() {
        state.withLock { state in
            state = State(pending: state.pending, session: state.session.next)
        }
        logger.write(.debug, "identity token forgotten after session revocation")
    }

    /// Saves the pending identity through the store again: after a switch of user or a revocation, once the
    /// facade has pointed the store at the new session's scope.
    @_optimize(size) public func persistPending() {
        state.withLock { state in store.save(state.pending) }
    }

    // MARK: - Helpers

    /// Byte equality of the UTF-8 forms: Swift's `==` would call NFC and NFD spellings equal, the service does not.
    @inline(never) @_optimize(size) static func sameBytes(_ a: String, _ b: String) -> Bool {
        // A loop, not `elementsEqual` with its closure: the closure made a copy of the standard library's
        // comparison at the host's `-O` (Docs/Footprint.md, "Loops for one-off closures").
        guard a.utf8.count == b.utf8.count else { return false }
        var other = b.utf8.makeIterator()
        for byte in a.utf8 where other.next() != byte { return false }
        return true
    }
}
