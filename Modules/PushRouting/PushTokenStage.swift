import ReceptionCore

/// A push token ready for the next device update (spec 7.16): lower-case hex and its resolved environment.
public struct StagedPushToken: Sendable, Hashable {
    /// The APNs token, lower-case hex, two characters per byte.
    public var token: String
    /// The APNs environment it belongs to.
    public var environment: PushEnvironment

    /// Makes a staged token.
    @inline(never) @_optimize(size) public init(token: String, environment: PushEnvironment) {
        self.token = token
        self.environment = environment
    }

    /// Hashes the token only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(token) }
}

/// Holds the staged push token where the device payload builder can read it from any thread. The token travels
/// only in `PATCH devices/me`, never in a registration (spec 7.16); logout clears it, a revocation by the server
/// keeps it (spec 7.5).
public final class PushTokenStage: Sendable {
    private let value = Locked<StagedPushToken?>(nil)

    /// An empty stage.
    @_optimize(size) public init() {}

    /// The staged token, if any.
    @_optimize(size) public var current: StagedPushToken? { value.withLock { $0 } }

    /// Stages `token`; returns whether it differs from what was staged.
    @discardableResult
    @inline(never) @_optimize(size) public func stage(_ token: StagedPushToken) -> Bool {
        value.withLock { current in
            defer { current = token }
            return current != token
        }
    }

    /// Forgets the staged token (logout).
    @_optimize(size) public func clear() { value.withLock { $0 = nil } }
}
