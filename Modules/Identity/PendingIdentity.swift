import ReceptionCore

/// What the host staged about the person for the next registration or device update (spec 7.17's `<scope>.pending`
/// row): the unverified identity labels, the custom metadata and the push registration. Never the identity token,
/// which lives in memory only.
public struct PendingIdentity: Codable, Hashable, Sendable {
    /// The unverified user ID from `identify(userId:name:email:)`, at most 255 UTF-16 units.
    public var externalUserId: String?
    /// The display name, at most 200 UTF-16 units.
    public var name: String?
    /// The email address, at most 254 UTF-16 units.
    public var email: String?
    /// The custom fields, already sanitised (spec 7.14.2); a fresh session starts empty.
    public var metadata: [String: String]
    /// Lower-case hex of the APNs token (spec 7.16).
    public var pushToken: String?
    /// The token's APNs environment.
    public var pushEnvironment: PushEnvironment?

    /// Makes a pending identity; the defaults are those of a fresh session.
    @inline(never) @_optimize(size) public init(
        externalUserId: String? = nil, name: String? = nil, email: String? = nil, metadata: [String: String] = [:],
        pushToken: String? = nil, pushEnvironment: PushEnvironment? = nil
    ) {
        self.externalUserId = externalUserId
        self.name = name
        self.email = email
        self.metadata = metadata
        self.pushToken = pushToken
        self.pushEnvironment = pushEnvironment
    }

    /// Spec 7.14.3 step 6: what a switch of user keeps, the push registration and nothing else.
    @_optimize(size) public var keepingOnlyPush: PendingIdentity {
        PendingIdentity(pushToken: pushToken, pushEnvironment: pushEnvironment)
    }

    /// Hashes the user ID only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(externalUserId) }
}

/// Where the pending identity is kept between launches. The facade points it at plain preferences under
/// `<scope>.pending` for the current session scope (spec 7.17); tests use `inMemory()`.
///
/// `save` is called while the stager holds its lock, so it must not call back into the stager.
public struct PendingIdentityStore: Sendable {
    /// The stored value, or `nil` when none is stored or it does not decode.
    public var load: @Sendable () -> PendingIdentity?
    /// Replaces the stored value.
    public var save: @Sendable (PendingIdentity) -> Void

    /// A store made of two functions.
    @inline(never) @_optimize(size) public init(
        load: @escaping @Sendable () -> PendingIdentity?, save: @escaping @Sendable (PendingIdentity) -> Void
    ) {
        self.load = load
        self.save = save
    }

    /// A store kept in memory, optionally starting with `initial`.
    @_optimize(size) public static func inMemory(_ initial: PendingIdentity? = nil) -> PendingIdentityStore {
        let box = Locked<PendingIdentity?>(initial)
        return PendingIdentityStore(load: { box.withLock { $0 } }, save: { value in box.withLock { $0 = value } })
    }
}

extension PendingIdentity {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        externalUserId = try c.decodeIfPresent(String.self, forKey: "externalUserId")
        name = try c.decodeIfPresent(String.self, forKey: "name")
        email = try c.decodeIfPresent(String.self, forKey: "email")
        metadata = try c.decode([String: String].self, forKey: "metadata")
        pushToken = try c.decodeIfPresent(String.self, forKey: "pushToken")
        pushEnvironment = try c.decodeIfPresent(PushEnvironment.self, forKey: "pushEnvironment")
    }

    @inline(never) @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encodeIfPresent(externalUserId, forKey: "externalUserId")
        try c.encodeIfPresent(name, forKey: "name")
        try c.encodeIfPresent(email, forKey: "email")
        try c.encode(metadata, forKey: "metadata")
        try c.encodeIfPresent(pushToken, forKey: "pushToken")
        try c.encodeIfPresent(pushEnvironment, forKey: "pushEnvironment")
    }
}
