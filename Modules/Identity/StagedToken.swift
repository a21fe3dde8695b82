import ReceptionCore

/// One identity session of the stager: a new one starts at every logout, switch of user and server revocation.
/// Answers the transport reports for an older session are ignored (spec 7.14.3 step 9), so the facade captures the
/// session when it builds a session's hooks and passes it back with every report.
public struct IdentitySession: Hashable, Sendable, CustomStringConvertible {
    /// Increases by one with every new session of the same stager.
    public let number: Int

    /// Makes a session value.
    @_optimize(size) public init(number: Int) { self.number = number }

    /// The session after this one.
    @_optimize(size) var next: IdentitySession { IdentitySession(number: number + 1) }

    @_optimize(size) public var description: String { "session \(number)" }
}

/// The identity token the stager holds in memory (spec 7.14.3; never persisted).
public struct StagedToken: Hashable, Sendable {
    /// Where the token is on its way to the service.
    public enum State: String, Hashable, Sendable, CaseIdentity {
        /// Staged; no request has carried it yet. While unsent it may lift "verification required" (spec 7.7).
        case unsent
        /// A registration or update carrying it was built; no success has been reported yet.
        case sent
        /// A registration or update carrying it succeeded: updates stop carrying it (spec 3.2).
        case accepted
    }

    /// The JWT as the host passed it.
    public let value: String
    /// Its `user_id` claim, read locally without a signature check.
    public let userId: String
    /// Its progress.
    public internal(set) var state: State

    /// Makes a staged token.
    @inline(never) @_optimize(size) public init(value: String, userId: String, state: State = .unsent) {
        self.value = value
        self.userId = userId
        self.state = state
    }

    /// Hashes the token only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// What `identify(token:)` did.
public indirect enum TokenStagingOutcome: Hashable, Sendable {
    /// The token is staged, unsent, for the current user (spec 7.14.3 step 7).
    case staged
    /// The token names another user (step 6). The stager already started a new session holding only the push
    /// registration and this token; the facade must now perform the rest of logout (queue the revocation, reset
    /// the local session, rotate the namespace) and then call `persistPending()`.
    case switchUser
    /// Nothing changed, and no event is emitted.
    case ignored(TokenIgnoredReason)

    /// Hashes the case only; `==` compares the values too, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
        switch self {
        case .staged: hasher.combine(0)
        case .switchUser: hasher.combine(1)
        case .ignored: hasher.combine(2)
        }
    }
}

/// Why `identify(token:)` ignored a token. Safe to log.
public indirect enum TokenIgnoredReason: Hashable, Sendable {
    /// The same string as the last token passed (step 1).
    case repeated
    /// Local inspection refused it (steps 2–3).
    case refused(IdentityTokenInspector.Refusal)
    /// The secure store could not say which user is verified (step 4).
    case secureStorageUnavailable

    /// Hashes the case only; `==` compares the values too, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
        switch self {
        case .repeated: hasher.combine(0)
        case .refused: hasher.combine(1)
        case .secureStorageUnavailable: hasher.combine(2)
        }
    }
}

/// What the stager made of the service rejecting a token (spec 7.14.3 step 9).
public indirect enum TokenRejectionOutcome: Hashable, Sendable {
    /// The current token was dropped; deliver this `identityRejected` event to the host.
    case rejected(ReceptionEvent)
    /// `identity_mismatch` for the current token: a switch of user, as for `TokenStagingOutcome.switchUser`.
    case switchUser
    /// A superseded token, an older session, or not an identity code: nothing changed.
    case ignored

    /// Hashes the case only; `==` compares the values too, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
        switch self {
        case .rejected: hasher.combine(0)
        case .switchUser: hasher.combine(1)
        case .ignored: hasher.combine(2)
        }
    }
}
