import Foundation
import MessageCache
import ReceptionCore
import ReceptionTesting
import Testing

/// Issue 15: the cache is readable by the app's user only — the folder it creates is 0700, the database and its
/// `-wal` and `-shm` files 0600 — checked with `stat` on real files.
@Suite struct FileModeTests {
    private func mode(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }

    private func companions(_ folder: URL) -> [URL] {
        ["", "-wal", "-shm"].map { folder.appendingPathComponent(SQLiteMessageStore.fileName + $0) }
    }

    @Test func aNewStoreIsPrivateToTheUser() throws {
        let parent = TemporaryDirectory()
        let folder = parent.url.appendingPathComponent("cache", isDirectory: true)
        let store = try SQLiteMessageStore(directory: folder, scope: testScope, logger: .silent)
        try store.enqueue(MessageStoreContract.unsent("one", photos: 1))
        #expect(try mode(folder) == 0o700)
        for file in companions(folder) {
            try #require(FileManager.default.fileExists(atPath: file.path), "\(file.lastPathComponent) missing")
            let bits = try mode(file)
            #expect(bits == 0o600, "\(file.lastPathComponent) is \(String(bits, radix: 8))")
        }
    }

    @Test func filesAnEarlierVersionLeftOpenAreTightenedAtTheNextOpen() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try SQLiteMessageStore(directory: directory.url, scope: testScope, logger: .silent)
            try store.enqueue(MessageStoreContract.unsent("before"))
            for file in companions(directory.url) where FileManager.default.fileExists(atPath: file.path) {
                try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
            }
            // A second connection holds the file open, so the WAL of the first stays on disk at the reopen.
            let reopened = try SQLiteMessageStore(directory: directory.url, scope: testScope, logger: .silent)
            try reopened.enqueue(MessageStoreContract.unsent("after"))
            for file in companions(directory.url) where FileManager.default.fileExists(atPath: file.path) {
                let bits = try mode(file)
                #expect(bits == 0o600, "\(file.lastPathComponent) is still \(String(bits, radix: 8))")
            }
            #expect(try reopened.unsentMessages().map(\.id) == ["before", "after"])
        }
    }

    @Test func theFileRecreatedAfterDamageIsPrivateToo() throws {
        let directory = TemporaryDirectory()
        try Data("not a database, just text that is long enough to look like a header".utf8).write(to: directory.databaseURL)
        let store = try SQLiteMessageStore(directory: directory.url, scope: testScope, logger: .silent)
        try store.enqueue(MessageStoreContract.unsent("fresh"))
        #expect(directory.contains(SQLiteMessageStore.fileName + ".damaged"))
        for file in companions(directory.url) { #expect(try mode(file) == 0o600, "\(file.lastPathComponent)") }
    }
}
