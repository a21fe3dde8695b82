import Foundation
import ReceptionCore

/// A `PhotoCaching` in memory, kept honest by `PhotoCacheContract`: the same byte budget and least-recently-used
/// order as `MessageCache.FilePhotoCache`, with a record of what was stored and read, and a way to damage a kept
/// photo. Instances made with `reopened(scope:byteBudget:)` share the storage, like two launches over one data
/// folder; opening a scope removes the photos of the App ID's other scopes, as the file cache does.
public final class InMemoryPhotoCache: PhotoCaching {
    private struct ScopeContents {
        var index = PhotoCacheIndex()
        var bytes: [String: Data] = [:]
    }

    private struct Contents {
        var scopes: [StorageScope: ScopeContents] = [:]
        var stored: [String] = []
        var hits: [String] = []
    }

    /// What every instance over the same storage shares.
    private final class Storage: Sendable {
        let contents = Locked(Contents())
    }

    private let storage: Storage
    /// The scope this instance reads and writes.
    public let scope: StorageScope
    /// The most bytes kept at once.
    public let byteBudget: Int

    /// An empty cache for `scope` keeping at most `byteBudget` bytes (the file cache's default unless given).
    public convenience init(
        scope: StorageScope = StorageScope(appID: "app", generation: "-g"), byteBudget: Int = 64 * 1024 * 1024
    ) {
        self.init(storage: Storage(), scope: scope, byteBudget: byteBudget)
    }

    private init(storage: Storage, scope: StorageScope, byteBudget: Int) {
        self.storage = storage
        self.scope = scope
        self.byteBudget = max(0, byteBudget)
        storage.contents.withLock { contents in
            for other in contents.scopes.keys where other.appID == scope.appID && other != scope {
                contents.scopes[other] = nil
            }
            var current = contents.scopes[scope] ?? ScopeContents()
            for id in current.index.trim(to: self.byteBudget) { current.bytes[id] = nil }
            contents.scopes[scope] = current
        }
    }

    /// Another instance over the same storage: a relaunch on the same data folder.
    public func reopened(scope: StorageScope? = nil, byteBudget: Int? = nil) -> InMemoryPhotoCache {
        InMemoryPhotoCache(storage: storage, scope: scope ?? self.scope, byteBudget: byteBudget ?? self.byteBudget)
    }

    /// Every attachment ID stored through any instance, in order (an ID the budget refused included).
    public var storedIDs: [String] { storage.contents.withLock { $0.stored } }

    /// Every attachment ID a read found, in order.
    public var hitIDs: [String] { storage.contents.withLock { $0.hits } }

    /// The attachment IDs kept for this scope now.
    public var keptIDs: Set<String> { storage.contents.withLock { Set(($0.scopes[scope]?.bytes ?? [:]).keys) } }

    /// Cuts the bytes kept for `attachmentID` to their first half, as a truncated file would be.
    public func damage(_ attachmentID: String) {
        storage.contents.withLock { contents in
            guard let data = contents.scopes[scope]?.bytes[attachmentID] else { return }
            contents.scopes[scope]?.bytes[attachmentID] = data.prefix(data.count / 2)
        }
    }

    public func photo(for attachmentID: String) -> Data? {
        guard PhotoCacheIndex.accepts(attachmentID) else { return nil }
        return storage.contents.withLock { contents -> Data? in
            guard var current = contents.scopes[scope], let entry = current.index.entries[attachmentID] else {
                return nil
            }
            defer { contents.scopes[scope] = current }
            guard let data = current.bytes[attachmentID], data.count == entry.bytes, PhotoCacheIndex.digest(of: data) == entry.sha256
            else {
                current.index.remove(attachmentID)
                current.bytes[attachmentID] = nil
                return nil
            }
            _ = current.index.use(attachmentID)
            contents.hits.append(attachmentID)
            return data
        }
    }

    public func store(_ data: Data, for attachmentID: String) {
        storage.contents.withLock { contents in
            contents.stored.append(attachmentID)
            guard PhotoCacheIndex.accepts(attachmentID) else { return }
            var current = contents.scopes[scope] ?? ScopeContents()
            let (kept, evicted) = current.index.insert(
                attachmentID, bytes: data.count, sha256: PhotoCacheIndex.digest(of: data), budget: byteBudget)
            if kept { current.bytes[attachmentID] = data }
            for id in evicted { current.bytes[id] = nil }
            contents.scopes[scope] = current
        }
    }

    public func removeAll() {
        storage.contents.withLock { $0.scopes[scope] = ScopeContents() }
    }
}
