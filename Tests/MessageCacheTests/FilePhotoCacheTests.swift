import Foundation
@testable import MessageCache
import ReceptionCore
import ReceptionTesting
import Testing

/// What only the file cache can get wrong (issue 39; Docs/MessageCache.md "The photo cache"): where its files live,
/// their modes, names no attachment ID can steer, and the damage a disk or a hostile writer can do between two
/// launches. The rules every implementation shares are `PhotoCacheContract`.
@Suite struct FilePhotoCacheTests {
    static let scope = StorageScope(appID: "app_photosAAAAAAAAAAAAAAAAAAAA", generation: "-g1")

    static func open(_ directory: TemporaryDirectory, budget: Int = 1 << 20) throws -> FilePhotoCache {
        try FilePhotoCache(directory: directory.url, scope: scope, byteBudget: budget, logger: .silent)
    }

    static func photo(_ tag: UInt8, size: Int = 4000) -> Data { Data(repeating: tag, count: size) }

    private func mode(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }

    /// Every name under `folder`, recursively, relative to it.
    private func names(under folder: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        return (enumerator?.allObjects as? [String] ?? []).sorted()
    }

    @Test func photosLiveInThePhotosFolderOfTheDataFolderPrivateToTheUser() throws {
        let directory = TemporaryDirectory()
        let cache = try Self.open(directory)
        cache.store(Self.photo(1), for: "att_1")
        let root = directory.url.appendingPathComponent(FilePhotoCache.folderName)
        #expect(cache.folderURL.deletingLastPathComponent().standardizedFileURL == root.standardizedFileURL)
        #expect(try mode(root) == 0o700)
        #expect(try mode(cache.folderURL) == 0o700)
        for name in names(under: cache.folderURL) {
            #expect(try mode(cache.folderURL.appendingPathComponent(name)) == 0o600, "\(name)")
        }
        #expect(try Data(contentsOf: cache.fileURL("att_1")) == Self.photo(1))
    }

    @Test func noIdentifierAppearsInAFileNameAndNoIDLeavesTheFolder() throws {
        let directory = TemporaryDirectory()
        let cache = try Self.open(directory)
        for id in ["../../../outside", "/etc/passwd", "a/b", "..", "att_visible_name"] {
            cache.store(Self.photo(2), for: id)
            #expect(cache.fileURL(id).deletingLastPathComponent().standardizedFileURL
                    == cache.folderURL.standardizedFileURL, "\(id) left the folder")
        }
        let everything = names(under: directory.url)
        #expect(!everything.contains { $0.contains("outside") || $0.contains("passwd") || $0.contains("visible") })
        #expect(!everything.contains { $0.contains(Self.scope.appID) || $0.contains(Self.scope.generation) })
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("outside").path))
    }

    @Test(arguments: [0, 1, 2000, 3999])
    func aTruncatedFileIsAMissAndIsDownloadedAgain(keeping bytes: Int) throws {
        let directory = TemporaryDirectory()
        try Self.open(directory).store(Self.photo(3), for: "att_1")
        let file = try Self.open(directory).fileURL("att_1")
        try Data(Self.photo(3).prefix(bytes)).write(to: file)
        let relaunched = try Self.open(directory)
        #expect(relaunched.photo(for: "att_1") == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path), "the damaged file stayed")
        relaunched.store(Self.photo(3), for: "att_1")
        #expect(try Self.open(directory).photo(for: "att_1") == Self.photo(3))
    }

    @Test func bytesOfTheSameLengthButChangedAreAMiss() throws {
        let directory = TemporaryDirectory()
        let cache = try Self.open(directory)
        cache.store(Self.photo(4), for: "att_1")
        var changed = Self.photo(4)
        changed[100] ^= 0xFF
        try changed.write(to: cache.fileURL("att_1"))
        #expect(cache.photo(for: "att_1") == nil)
    }

    @Test func aMissingFileIsAMiss() throws {
        let directory = TemporaryDirectory()
        let cache = try Self.open(directory)
        cache.store(Self.photo(5), for: "att_1")
        try FileManager.default.removeItem(at: cache.fileURL("att_1"))
        #expect(try Self.open(directory).photo(for: "att_1") == nil)
    }

    @Test(arguments: [
        "", "not json", "{", "[]", #"{"entries":{},"counter":-1}"#,
        #"{"entries":{"att_1":{"bytes":-5,"sha256":"00","use":1}},"counter":1}"#,
        #"{"entries":{"att_1":{"bytes":4000,"sha256":"zz","use":1}},"counter":1}"#,
        #"{"entries":{"att_1":{"bytes":99999999999,"sha256":"0000000000000000000000000000000000000000000000000000000000000000","use":1}},"counter":1}"#,
        #"{"entries":{"att_1":{"bytes":4000,"sha256":"0000000000000000000000000000000000000000000000000000000000000000","use":9}},"counter":1}"#,
    ])
    func aDamagedOrHostileIndexEmptiesTheCacheWithoutACrash(index: String) throws {
        let directory = TemporaryDirectory()
        let cache = try Self.open(directory)
        cache.store(Self.photo(6), for: "att_1")
        cache.store(Self.photo(7), for: "att_2")
        try Data(index.utf8).write(to: cache.folderURL.appendingPathComponent("index.json"))
        let relaunched = try Self.open(directory)
        #expect(relaunched.photo(for: "att_1") == nil && relaunched.photo(for: "att_2") == nil)
        #expect(relaunched.totalBytes == 0)
        relaunched.store(Self.photo(8), for: "att_3")
        #expect(try Self.open(directory).photo(for: "att_3") == Self.photo(8), "the cache stopped working")
    }

    @Test func filesTheIndexDoesNotNameGoAtTheNextOpen() throws {
        let directory = TemporaryDirectory()
        let cache = try Self.open(directory)
        cache.store(Self.photo(1), for: "att_1")
        // A photo written before a crash kept the index from naming it, and an interrupted write's temporary file.
        let stray = cache.folderURL.appendingPathComponent(String(repeating: "ab", count: 32))
        let temporary = cache.folderURL.appendingPathComponent(".index.json.tmp-123")
        try Self.photo(9).write(to: stray)
        try Self.photo(9).write(to: temporary)
        let relaunched = try Self.open(directory)
        #expect(!FileManager.default.fileExists(atPath: stray.path))
        #expect(!FileManager.default.fileExists(atPath: temporary.path))
        #expect(relaunched.photo(for: "att_1") == Self.photo(1))
    }

    @Test func theBudgetHoldsOnDiskAndEvictedFilesAreDeleted() throws {
        let directory = TemporaryDirectory()
        let cache = try Self.open(directory, budget: 10_000)
        for tag in UInt8(1)...5 { cache.store(Self.photo(tag), for: "att_\(tag)") }
        #expect(cache.totalBytes <= 10_000)
        let files = names(under: cache.folderURL).filter { $0 != "index.json" }
        #expect(files.count == 2, "files on disk: \(files)")
        let onDisk = try files.reduce(0) { $0 + (try Data(contentsOf: cache.folderURL.appendingPathComponent($1)).count) }
        #expect(onDisk <= 10_000)
        #expect(cache.photo(for: "att_5") == Self.photo(5) && cache.photo(for: "att_4") == Self.photo(4))
    }

    @Test func removeAllRemovesTheScopeFolder() throws {
        let directory = TemporaryDirectory()
        let cache = try Self.open(directory)
        cache.store(Self.photo(1), for: "att_1")
        cache.removeAll()
        #expect(!FileManager.default.fileExists(atPath: cache.folderURL.path))
        #expect(names(under: directory.url.appendingPathComponent(FilePhotoCache.folderName)).isEmpty)
    }

    @Test func aFolderThatCannotBeMadeThrowsStorageUnavailable() throws {
        let directory = TemporaryDirectory()
        // A file where the photos folder should be.
        try Data("x".utf8).write(to: directory.url.appendingPathComponent(FilePhotoCache.folderName))
        #expect(throws: ReceptionError.storageUnavailable) { try Self.open(directory) }
    }
}
