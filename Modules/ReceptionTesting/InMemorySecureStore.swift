import Foundation
import ReceptionCore

/// A `SecureStoring` in memory, with switches for the failures a real keychain or file system produces: reads that
/// cannot be answered (a device locked before its first unlock) and writes that fail (a full disk).
public final class InMemorySecureStore: SecureStoring {
    private struct State {
        var items: [SecureStoreKey: Data] = [:]
        var readsUnavailable = false
        var unavailableKeys: Set<SecureStoreKey> = []
        var writesFail = false
        var writeCount = 0
    }

    private let state = Locked(State())

    /// An empty store.
    public init() {}

    /// While `true`, every read answers `.unavailable` (the values are kept and come back when switched off).
    public var readsUnavailable: Bool {
        get { state.withLock { $0.readsUnavailable } }
        set { state.withLock { $0.readsUnavailable = newValue } }
    }

    /// While `true`, writes and deletions throw `secure_storage_unavailable` and change nothing.
    public var writesFail: Bool {
        get { state.withLock { $0.writesFail } }
        set { state.withLock { $0.writesFail = newValue } }
    }

    /// Makes reads of one item unavailable (a corrupt item) until it is written or deleted.
    public func makeUnavailable(_ key: SecureStoreKey) {
        state.withLock { _ = $0.unavailableKeys.insert(key) }
    }

    /// How many writes succeeded (tests assert that an unchanged value causes no write).
    public var writeCount: Int { state.withLock { $0.writeCount } }

    /// Every stored key.
    public var keys: Set<SecureStoreKey> { state.withLock { Set($0.items.keys) } }

    public func read(_ key: SecureStoreKey) -> SecureStoreRead {
        state.withLock { state in
            if state.readsUnavailable { return .unavailable(reason: "reads switched off") }
            if state.unavailableKeys.contains(key) { return .unavailable(reason: "item marked unavailable") }
            return state.items[key].map(SecureStoreRead.value) ?? .missing
        }
    }

    public func write(_ value: Data, for key: SecureStoreKey) throws(ReceptionError) {
        try state.withLock { state throws(ReceptionError) in
            if state.writesFail { throw ReceptionError.secureStorageUnavailable }
            state.items[key] = value
            state.unavailableKeys.remove(key)
            state.writeCount += 1
        }
    }

    public func delete(_ key: SecureStoreKey) throws(ReceptionError) {
        try state.withLock { state throws(ReceptionError) in
            if state.writesFail { throw ReceptionError.secureStorageUnavailable }
            state.items.removeValue(forKey: key)
            state.unavailableKeys.remove(key)
        }
    }

    public func deleteAll(namespace: String) throws(ReceptionError) {
        try state.withLock { state throws(ReceptionError) in
            if state.writesFail { throw ReceptionError.secureStorageUnavailable }
            state.items = state.items.filter { $0.key.namespace != namespace }
            state.unavailableKeys = state.unavailableKeys.filter { $0.namespace != namespace }
        }
    }
}
