/// The namespace a session's data lives in (spec 7.15): an App ID and a storage generation. Logout rotates the
/// generation, and with it everything stored under the previous scope becomes unreadable.
public struct StorageScope: Hashable, Sendable, CustomStringConvertible {
    /// The App ID the data belongs to.
    public let appID: String
    /// The generation, replaced on logout and data deletion.
    public let generation: String

    /// Makes a scope.
    @_optimize(size) public init(appID: String, generation: String) {
        self.appID = appID
        self.generation = generation
    }

    /// Spec 7.15: `scope = appId + generation`, the prefix of every per-session key.
    @_optimize(size) public var key: String { appID + generation }

    @_optimize(size) public var description: String { key }

    /// Hashes the generation only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(generation) }
}
