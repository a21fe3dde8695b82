import Foundation

/// Where one secret lives: a namespace (a session scope such as `appId + generation`, or `shared` for data that
/// outlives sessions) and an account within it. On Apple platforms this maps to Keychain service
/// `com.reception.sdk`, account `<namespace>.<account>` (spec 7.17).
public struct SecureStoreKey: Hashable, Sendable, CustomStringConvertible {
    /// The namespace; rotating a session's namespace makes its secrets unreachable.
    public let namespace: String
    /// The item within the namespace.
    public let account: String

    /// Makes a key.
    @inline(never) @_optimize(size) public init(namespace: String, account: String) {
        self.namespace = namespace
        self.account = account
    }

    /// The namespace for items shared by every session of the process (the logout revocation queue, the rotation
    /// journal).
    public static let sharedNamespace = "shared"

    /// Spec 7.17: the session credentials `{sessionSecret, verifiedUserId}` of a session scope.
    @inline(never) @_optimize(size)
    public static func session(scope: String) -> SecureStoreKey { SecureStoreKey(namespace: scope, account: "session") }

    /// Spec 7.17: the queue of sessions still to revoke after logout.
    public static let pendingSessionRevocations = SecureStoreKey(
        namespace: sharedNamespace, account: "pendingSessionRevocations")

    /// Storage-generation rotations the plain preferences may not hold yet (issue 15): written before a logout's
    /// rotation touches `preferences.json`, removed once the file holds it, so a failed write there can never bring
    /// a logged-out scope back at the next launch. It holds App IDs and generations, no user data.
    public static let pendingScopeRotations = SecureStoreKey(
        namespace: sharedNamespace, account: "pendingScopeRotations")

    @_optimize(size) public var description: String { "\(namespace).\(account)" }
}

/// The result of reading a secure item: three states, because "the store cannot answer now" must never be mistaken
/// for "there is nothing" (spec 7.17). Treating *unavailable* as *missing* would register a new device and orphan
/// the user's conversation.
public enum SecureStoreRead: Sendable, Hashable {
    /// The stored bytes.
    case value(Data)
    /// No item exists.
    case missing
    /// The store could not answer (locked before first unlock, unreadable or corrupt item). The reason is for logs
    /// and never contains the secret.
    case unavailable(reason: String)

    /// Written rather than synthesized, and compiled for size: the synthesized `==` takes in `Data`'s comparison,
    /// up to 0.7 kB on iOS (Docs/Footprint.md). It compares every case and value (`WrittenEqualityTests`).
    @inline(never) @_optimize(size) public static func == (lhs: SecureStoreRead, rhs: SecureStoreRead) -> Bool {
        switch (lhs, rhs) {
        case (.value(let left), .value(let right)): left == right
        case (.missing, .missing): true
        case (.unavailable(let left), .unavailable(let right)): left == right
        case (.value, _), (.missing, _), (.unavailable, _): false
        }
    }

    /// The bytes, or `nil` when missing; throws `secure_storage_unavailable` when the store could not answer.
    @inline(never) @_optimize(size) public func value() throws(ReceptionError) -> Data? {
        switch self {
        case .value(let data): return data
        case .missing: return nil
        case .unavailable: throw ReceptionError.secureStorageUnavailable
        }
    }

    /// Hashes the case only; `==` compares the values too, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
        switch self {
        case .value: hasher.combine(0)
        case .missing: hasher.combine(1)
        case .unavailable: hasher.combine(2)
        }
    }
}

/// Storage for secrets: session credentials and the logout revocation queue. A host may supply its own.
///
/// Contract (checked by `SecureStoreContract` over every implementation):
/// - `read` after `write` returns the written bytes, across instances over the same storage;
/// - a value that was readable is never lost by a failed write: the old value stays readable;
/// - `delete` of a missing item succeeds; `deleteAll(namespace:)` removes only that namespace;
/// - a failure to write or delete throws `secure_storage_unavailable`;
/// - a read that cannot be answered is `.unavailable`, never `.missing`.
public protocol SecureStoring: Sendable {
    /// Reads one item.
    func read(_ key: SecureStoreKey) -> SecureStoreRead
    /// Creates or replaces one item, atomically.
    func write(_ value: Data, for key: SecureStoreKey) throws(ReceptionError)
    /// Removes one item; a missing item is success.
    func delete(_ key: SecureStoreKey) throws(ReceptionError)
    /// Removes every item of a namespace; a missing namespace is success.
    func deleteAll(namespace: String) throws(ReceptionError)
}
