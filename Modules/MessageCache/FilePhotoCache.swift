import Foundation
import ReceptionCore

/// The default `PhotoCaching`: one file per photo in `<data folder>/photos/<scope>/`, with an index file that
/// records each photo's size, SHA-256 and last use (Docs/MessageCache.md, "The photo cache").
///
/// - The `photos` folder is prepared as the message cache's folder is (`StoreDirectory`): mode 0700, kept out of
///   backups on Apple platforms; each file is written atomically with mode 0600 (`PrivateFiles.write`).
/// - One folder per storage scope, named by digests of the App ID and the scope, so a file name never carries an
///   identifier. Opening the cache of a scope removes the folders of the App ID's other scopes (a logout or deletion
///   that could not finish its removal), as the message store erases their rows.
/// - A photo's file is named by the SHA-256 of its attachment ID, so no ID (`../x`, `a/b`, a NUL, a name that
///   differs only in case) can leave the folder or meet another's file.
/// - Least recently used first out of `byteBudget`, by the index's use counter, never by file timestamps.
/// - A file whose bytes no longer match the index (truncated, overwritten) is a miss and goes; an index that does
///   not decode or is implausible empties the folder; files the index does not name (a write interrupted before the
///   index) go when the cache opens. Nothing here throws after `init`: a failure is a miss, and a log line.
public final class FilePhotoCache: PhotoCaching {
    /// The byte budget by default: about 60 thumbnails' worth of 1 MiB uploads, far below the 48 MB the screen's
    /// decoded images may use, and small next to the message cache's own photos.
    public static let defaultByteBudget = 64 * 1024 * 1024
    /// The folder inside the data folder.
    public static let folderName = "photos"
    /// The index file inside a scope's folder.
    static let indexName = "index.json"
    /// An index claiming more entries than this is not trusted.
    static let maximumEntries = 10_000

    private let state: Locked<PhotoCacheIndex>
    private let logger: ReceptionLogger
    /// The scope's folder: what `removeAll()` removes.
    public let folderURL: URL
    /// The most bytes kept at once.
    public let byteBudget: Int

    /// Opens (or creates) the photo cache of `scope` in `directory` (the data folder), removing the caches of the
    /// App ID's other scopes, and evicting down to `byteBudget` (a negative budget keeps nothing). Throws
    /// `storage_unavailable` when the `photos` folder cannot be made (the session then caches nothing).
    @inline(never) @_optimize(size) public init(
        directory: URL, scope: StorageScope, byteBudget: Int = FilePhotoCache.defaultByteBudget,
        logger: ReceptionLogger = ReceptionLogger(category: "MessageCache")
    ) throws(ReceptionError) {
        let root = StoreDirectory(url: directory.appendingPathComponent(Self.folderName, isDirectory: true),
                                  logger: logger, contents: "photo cache")
        try root.prepare()
        self.logger = logger
        self.byteBudget = max(0, byteBudget)
        let folder = Self.folderName(of: scope)
        folderURL = root.url.appendingPathComponent(folder, isDirectory: true)
        Self.removeOtherScopes(of: scope, keeping: folder, in: root.url, logger: logger)
        var index = Self.loadIndex(in: folderURL, logger: logger)
        let evicted = index.trim(to: self.byteBudget)
        state = Locked(index)
        removeUnindexedFiles(index)
        if !evicted.isEmpty {
            for id in evicted { unlink(fileURL(id)) }
            writeIndex(index)
        }
    }

    @inline(never) @_optimize(size) public func photo(for attachmentID: String) -> Data? {
        guard PhotoCacheIndex.accepts(attachmentID) else { return nil }
        // The work under the lock is a method: a closure's body is compiled at the host's -O (Docs/Footprint.md).
        return state.withLock { index in read(attachmentID, index: &index) }
    }

    @inline(never) @_optimize(size) public func store(_ data: Data, for attachmentID: String) {
        guard PhotoCacheIndex.accepts(attachmentID) else { return }
        state.withLock { index in keep(data, for: attachmentID, index: &index) }
    }

    /// `photo(for:)` under the lock.
    @inline(never) @_optimize(size) private func read(_ attachmentID: String, index: inout PhotoCacheIndex) -> Data? {
        guard let entry = index.entries[attachmentID] else { return nil }
        let url = fileURL(attachmentID)
        guard let data = try? Data(contentsOf: url), data.count == entry.bytes,
            PhotoCacheIndex.digest(of: data) == entry.sha256
        else {
            logger.write(.info, "a cached photo was missing or damaged; it is downloaded again")
            index.remove(attachmentID)
            unlink(url)
            writeIndex(index)
            return nil
        }
        if !index.isMostRecent(attachmentID) {
            _ = index.use(attachmentID)
            writeIndex(index)
        }
        return data
    }

    /// `store(_:for:)` under the lock.
    @inline(never) @_optimize(size)
    private func keep(_ data: Data, for attachmentID: String, index: inout PhotoCacheIndex) {
        let url = fileURL(attachmentID)
        let (kept, evicted) = index.insert(
            attachmentID, bytes: data.count, sha256: PhotoCacheIndex.digest(of: data), budget: byteBudget)
        if kept {
            do throws(ReceptionError) {
                try PrivateFiles.createFolder(folderURL)
                try PrivateFiles.write(data, to: url)
            } catch {
                logger.write(.error, "a photo could not be cached (\(error.code))")
                index.remove(attachmentID)
                unlink(url)
            }
        }
        for id in evicted { unlink(fileURL(id)) }
        writeIndex(index)
    }

    @inline(never) @_optimize(size) public func removeAll() {
        state.withLock { index in clear(&index) }
    }

    /// `removeAll()` under the lock.
    @inline(never) @_optimize(size) private func clear(_ index: inout PhotoCacheIndex) {
        index = PhotoCacheIndex()
        guard FileManager.default.fileExists(atPath: folderURL.path) else { return }
        do { try FileManager.default.removeItem(at: folderURL) } catch {
            logger.write(.error, "the photo cache could not be removed now; the next open of the App ID removes it")
        }
    }

    /// The bytes the index counts (tests compare it with the budget).
    @_optimize(size) var totalBytes: Int { state.withLock { $0.totalBytes } }

    // MARK: - Files

    /// `<folder>/<SHA-256 of the attachment ID, hex>`.
    @inline(never) @_optimize(size) func fileURL(_ attachmentID: String) -> URL {
        folderURL.appendingPathComponent(PhotoCacheIndex.digest(of: attachmentID))
    }

    @_optimize(size) private var indexURL: URL { folderURL.appendingPathComponent(Self.indexName) }

    /// Writes the index atomically; a failure leaves the previous one, which `photo(for:)` corrects as it reads
    /// (a file whose bytes do not match is a miss, a file the index does not name goes at the next open).
    @inline(never) @_optimize(size) private func writeIndex(_ index: PhotoCacheIndex) {
        guard !index.entries.isEmpty || FileManager.default.fileExists(atPath: folderURL.path) else { return }
        do {
            try PrivateFiles.createFolder(folderURL)
            try PrivateFiles.write(try JSONEncoder().encode(index), to: indexURL)
        } catch {
            logger.write(.error, "the photo cache's index could not be written")
        }
    }

    /// Removes every file of the folder that is neither the index nor a photo it names: photos written before a
    /// crash kept the index from naming them, and temporary files of interrupted writes.
    @inline(never) @_optimize(size) private func removeUnindexedFiles(_ index: PhotoCacheIndex) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folderURL.path) else { return }
        // A loop, not a `map` closure (Docs/Footprint.md, "Loops for one-off closures").
        var kept: Set<String> = [Self.indexName]
        for key in index.entries.keys { kept.insert(fileURL(key).lastPathComponent) }
        for name in names where !kept.contains(name) {
            try? FileManager.default.removeItem(at: folderURL.appendingPathComponent(name))
        }
    }

    @inline(never) @_optimize(size) private func unlink(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }

    // MARK: - Opening

    /// The index in `folder`; an empty one when there is none, and the folder emptied when it does not decode or
    /// is implausible (nothing in it can be trusted then).
    @inline(never)
    @_optimize(size) private static func loadIndex(in folder: URL, logger: ReceptionLogger) -> PhotoCacheIndex {
        let url = folder.appendingPathComponent(indexName)
        guard let data = try? Data(contentsOf: url) else { return PhotoCacheIndex() }
        if let index = try? JSONDecoder().decode(PhotoCacheIndex.self, from: data),
           index.isPlausible(maximumEntries: maximumEntries, maximumBytes: Attachment.maximumDownloadBytes) {
            return index
        }
        logger.write(.error, "the photo cache's index was damaged; the cache starts empty")
        try? FileManager.default.removeItem(at: folder)
        return PhotoCacheIndex()
    }

    /// `<16 hex digits of SHA-256(App ID)>-<32 hex digits of SHA-256(scope key)>`: the App ID's caches share a
    /// prefix, and no identifier appears in a file name.
    @inline(never) @_optimize(size) static func folderName(of scope: StorageScope) -> String {
        appPrefix(scope.appID) + String(PhotoCacheIndex.digest(of: scope.key).prefix(32))
    }

    @inline(never) @_optimize(size) private static func appPrefix(_ appID: String) -> String {
        String(PhotoCacheIndex.digest(of: appID).prefix(16)) + "-"
    }

    /// Spec 7.15: the folders of the App ID's other scopes hold a previous user's photos.
    @inline(never) @_optimize(size) private static func removeOtherScopes(
        of scope: StorageScope, keeping folder: String, in root: URL, logger: ReceptionLogger
    ) {
        let prefix = appPrefix(scope.appID)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root.path) else { return }
        for name in names where name.hasPrefix(prefix) && name != folder {
            do { try FileManager.default.removeItem(at: root.appendingPathComponent(name)) } catch {
                logger.write(.error, "a previous scope's photo cache could not be removed")
            }
        }
    }
}
