import Foundation

/// Keeps the bytes of confirmed photos (attachments) on this device, so a photo is downloaded once: a bubble
/// shown again, the full-screen viewer, a rotation and a relaunch read it from here (issue 39). The chat engine
/// consults it before a download and stores what it downloads, and what it uploaded under the attachment ID the
/// service gave (`ChatEngine.photo(_:)`).
///
/// A cache belongs to one storage scope (spec 7.15): the facade opens one per session and removes it with the
/// session's other data on logout, deletion and a chat reset. It is bounded by bytes and evicts the least recently
/// used photo first. It is a cache, not a store: every failure (a full disk, a damaged file) is a miss, so the
/// photo is downloaded again; nothing here throws. Calls may come from any task; an implementation serialises them.
///
/// The default is `MessageCache.FilePhotoCache` (files in the data folder, out of backups); tests use
/// `ReceptionTesting.InMemoryPhotoCache`, and `PhotoCacheContract` checks both.
public protocol PhotoCaching: Sendable {
    /// The bytes kept for `attachmentID`, which become the most recently used; `nil` when none are kept (never
    /// stored, evicted, removed, or found damaged, which removes them).
    func photo(for attachmentID: String) -> Data?

    /// Keeps `data` for `attachmentID` as the most recently used photo, replacing what was kept for it, and evicts
    /// the least recently used photos until the cache is within its budget. Bytes larger than the whole budget are
    /// not kept (and evict nothing); a write that fails keeps nothing for the ID.
    func store(_ data: Data, for attachmentID: String)

    /// Removes every kept photo (a chat reset deleted them on the service; logout and deletion end the scope).
    func removeAll()
}

/// A cache that keeps nothing: every photo is downloaded each time (a session whose data folder is unusable).
public struct NoPhotoCache: PhotoCaching {
    /// Makes the empty cache.
    @_optimize(size) public init() {}

    @_optimize(size) public func photo(for attachmentID: String) -> Data? { nil }
    @_optimize(size) public func store(_ data: Data, for attachmentID: String) {}
    @_optimize(size) public func removeAll() {}
}
