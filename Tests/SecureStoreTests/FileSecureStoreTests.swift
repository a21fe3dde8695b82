import Foundation
@testable import ReceptionCore
import ReceptionTesting
@testable import SecureStore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file store's own rules: permissions, atomic replacement and the documented outcome of every kind of bad
/// file (Docs/SecureStore.md).
@Suite("FileSecureStoreTests")
final class FileSecureStoreTests {
    deinit { try? FileManager.default.removeItem(at: directory) }

    let directory = TemporaryFolder.make()
    let log = RecordingLogHandler()
    let key = SecureStoreKey.session(scope: "app_AAAAAAAAAAAAAAAAAAAAAA-6F1C")
    let secret = Data(#"{"sessionSecret":"ss_do_not_log_me","verifiedUserId":null}"#.utf8)

    var store: FileSecureStore { FileSecureStore(directory: directory, logger: log.logger()) }

    func itemPath(_ key: SecureStoreKey) -> String {
        directory.appendingPathComponent(FileSecureStore.encodeName(key.namespace))
            .appendingPathComponent(FileSecureStore.encodeName(key.account)).path
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        stat(path, &info)
        return info.st_mode & 0o777
    }

    @Test func foldersAre0700AndItemsAre0600() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        try store.write(secret, for: key)
        #expect(mode(directory.path) == 0o700)
        #expect(mode((itemPath(key) as NSString).deletingLastPathComponent) == 0o700)
        #expect(mode(itemPath(key)) == 0o600)
    }

    @Test func missingFoldersAboveTheStoreAreCreated0700AndAFileInTheWayIsUnavailable() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let deep = directory.appendingPathComponent("one").appendingPathComponent("two")
        let nested = FileSecureStore(directory: deep.appendingPathComponent("store"), logger: log.logger())
        try nested.write(secret, for: key)
        #expect(nested.read(key) == .value(secret))
        for folder in [directory, deep.deletingLastPathComponent(), deep, deep.appendingPathComponent("store")] {
            #expect(mode(folder.path) == 0o700, "\(folder.path)")
        }
        let blocked = directory.appendingPathComponent("file")
        #expect(FileManager.default.createFile(atPath: blocked.path, contents: Data([1])))
        let refused = FileSecureStore(directory: blocked.appendingPathComponent("store"), logger: log.logger())
        #expect(throws: ReceptionError.secureStorageUnavailable) { try refused.write(secret, for: key) }
        #expect(log.messages(at: .error).contains { $0.contains("could not create the secure store folder") })
    }

    @Test func aMissingFolderReadsAsMissingAndIsCreatedOnWrite() throws {
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        #expect(store.read(key) == .missing)
        try store.write(secret, for: key)
        #expect(store.read(key) == .value(secret))
    }

    @Test func theSecretIsNotStoredInPlainViewOfTheLogAndNeverLogged() throws {
        try store.write(secret, for: key)
        _ = store.read(key)
        try store.delete(key)
        #expect(!log.contains("ss_do_not_log_me"))
    }

    @Test func anItemReadableByOthersIsTightenedAndStillRead() throws {
        try store.write(secret, for: key)
        chmod(itemPath(key), 0o644)
        #expect(store.read(key) == .value(secret))
        #expect(mode(itemPath(key)) == 0o600)
        #expect(log.messages(at: .info).contains { $0.contains("tightened") })
    }

    @Test func anOpenFolderIsTightenedOnTheNextWrite() throws {
        try store.write(secret, for: key)
        chmod(directory.path, 0o755)
        try store.write(secret, for: key)
        #expect(mode(directory.path) == 0o700)
    }

    // Only root can give a file to another user (chown); anyone else skips this test, and the run says so.
    @Test(.enabled(if: geteuid() == 0, "needs root: only root can chown the item to another user"))
    func anItemOwnedByAnotherUserIsUnavailable() throws {
        try store.write(secret, for: key)
        #expect(chown(itemPath(key), 4242, 4242) == 0)
        guard case .unavailable = store.read(key) else {
            Issue.record("a planted item was trusted")
            return
        }
    }

    // Every way a file can be damaged reads as unavailable (never missing), and the file stays for a later write.
    @Test(arguments: ["garbage", "truncated", "empty", "flipped", "too long"])
    func aDamagedItemIsUnavailableNotMissing(damage: String) throws {
        try store.write(secret, for: key)
        let path = itemPath(key)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        switch damage {
        case "garbage": bytes = Data("not an item at all".utf8)
        case "truncated": bytes = bytes.prefix(bytes.count - 5)
        case "empty": bytes = Data()
        case "flipped": bytes[bytes.count - 1] ^= 0x01
        default: bytes.append(0)
        }
        try bytes.write(to: URL(fileURLWithPath: path))
        let read = store.read(key)
        guard case .unavailable = read else {
            Issue.record("\(damage): expected .unavailable, got \(read)")
            return
        }
        #expect(throws: ReceptionError.secureStorageUnavailable) { try read.value() }
        #expect(FileManager.default.fileExists(atPath: path), "the damaged file must not be deleted by a read")
        #expect(log.messages(at: .error).contains { $0.contains("unavailable") })
        try store.write(secret, for: key)
        #expect(store.read(key) == .value(secret))
    }

    @Test func aFolderWhereTheItemShouldBeIsUnavailable() throws {
        try FileManager.default.createDirectory(atPath: itemPath(key), withIntermediateDirectories: true)
        guard case .unavailable = store.read(key) else {
            Issue.record("a folder in place of the item read as something else")
            return
        }
    }

    @Test func aSymlinkIsNotFollowed() throws {
        let target = directory.appendingPathComponent("elsewhere")
        try store.write(secret, for: key)
        try FileManager.default.moveItem(atPath: itemPath(key), toPath: target.path)
        try FileManager.default.createSymbolicLink(atPath: itemPath(key), withDestinationPath: target.path)
        guard case .unavailable = store.read(key) else {
            Issue.record("a symlinked item was followed")
            return
        }
    }

    @Test func aFileWhereTheFolderShouldBeMakesReadsUnavailableAndWritesThrow() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let folder = (itemPath(key) as NSString).deletingLastPathComponent
        try Data("a file, not a folder".utf8).write(to: URL(fileURLWithPath: folder))
        guard case .unavailable = store.read(key) else {
            Issue.record("expected .unavailable when the namespace folder is a file")
            return
        }
        #expect(throws: ReceptionError.secureStorageUnavailable) { try store.write(secret, for: key) }
    }

    // A full disk or an I/O error at any step of the atomic write keeps the previous value and leaves no
    // temporary file behind.
    @Test(arguments: [FileSecureStore.WritePhase.write, .sync, .rename])
    func aFailedWriteKeepsThePreviousValue(phase: FileSecureStore.WritePhase) throws {
        try store.write(secret, for: key)
        let failing = FileSecureStore(directory: directory, logger: log.logger(), faultInjection: { step in
            step == phase ? ENOSPC : nil
        })
        #expect(throws: ReceptionError.secureStorageUnavailable) {
            try failing.write(Data("replacement".utf8), for: key)
        }
        #expect(store.read(key) == .value(secret))
        let folder = (itemPath(key) as NSString).deletingLastPathComponent
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func namespacesCannotEscapeTheFolder() throws {
        let hostile = SecureStoreKey(namespace: "../../etc", account: "../passwd")
        try store.write(secret, for: hostile)
        let parent = directory.deletingLastPathComponent()
        #expect(!FileManager.default.fileExists(atPath: parent.appendingPathComponent("etc").path))
        #expect(store.read(hostile) == .value(secret))
        #expect(FileSecureStore.encodeName("../x") == "%2E.%2Fx")
        #expect(FileSecureStore.encodeName("app_A-1.session") == "app_A-1.session")
        #expect(FileSecureStore.encodeName("") == "%")
        let long = FileSecureStore.encodeName(String(repeating: "é", count: 200))
        #expect(long.hasPrefix("~") && long.count == 65)
    }

    @Test func anOversizedValueIsRefusedWithoutTouchingTheStoredOne() throws {
        try store.write(secret, for: key)
        #expect(throws: ReceptionError.secureStorageUnavailable) {
            try store.write(Data(count: 2 << 20), for: key)
        }
        #expect(store.read(key) == .value(secret))
    }

    @Test func twoStoresOverOneFolderSeeEachOthersWrites() async throws {
        let first = store
        let second = FileSecureStore(directory: directory, logger: .silent)
        try first.write(Data("one".utf8), for: key)
        #expect(second.read(key) == .value(Data("one".utf8)))
        try second.write(Data("two".utf8), for: key)
        #expect(first.read(key) == .value(Data("two".utf8)))
    }
}
