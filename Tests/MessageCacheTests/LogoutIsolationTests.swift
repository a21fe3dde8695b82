import Foundation
import MessageCache
import ReceptionCore
import ReceptionTesting
import Testing

/// Spec 7.15: after logout rotates the generation, the previous user's text is gone from the bytes on disk, not
/// just from query results (secure_delete, WAL checkpoint).
@Suite struct LogoutIsolationTests {
    static let marker = "PREVIOUS-USER-zq7"

    /// Every file SQLite keeps for the store, concatenated.
    private func bytesOnDisk(_ directory: TemporaryDirectory) throws -> Data {
        var bytes = Data()
        for suffix in ["", "-wal", "-shm"] {
            let url = URL(fileURLWithPath: directory.databaseURL.path + suffix)
            if let data = try? Data(contentsOf: url) { bytes.append(data) }
        }
        return bytes
    }

    @Test func noTextOfThePreviousUserRemainsInTheFileAfterRotation() throws {
        let directory = TemporaryDirectory()
        let store = try SQLiteMessageStore(directory: directory.url, scope: testScope, logger: .silent)
        for index in 0..<20 {
            var message = MessageStoreContract.unsent("u\(index)", photos: 1)
            message.text = "\(Self.marker) unsent \(index) " + String(repeating: "long ", count: index * 200)
            try store.enqueue(message)
        }
        try store.save((Int64(1)...70).map { seq in
            var message = MessageStoreContract.confirmed(seq)
            message.text = "\(Self.marker) reply \(seq)"
            return message
        })
        try store.setDraft("\(Self.marker) draft")
        let before = try bytesOnDisk(directory)
        #expect(before.range(of: Data(Self.marker.utf8)) != nil, "the scan cannot see stored text")

        try store.rotate(to: StorageScope(appID: testScope.appID, generation: "-next"))
        try store.enqueue(MessageStoreContract.unsent("new user"))

        let after = try bytesOnDisk(directory)
        #expect(after.range(of: Data(Self.marker.utf8)) == nil, "the previous user's text is still in the file")
        #expect(try store.loadWindow().map(\.id) == ["new user"])
    }

    @Test func anErasureLeftUnfinishedIsCompletedAtTheNextOpen() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try SQLiteMessageStore(directory: directory.url, scope: testScope, logger: .silent)
            try store.setDraft("\(Self.marker) draft")
        }
        // The host rotated its generation but the process died before the store erased anything.
        let next = StorageScope(appID: testScope.appID, generation: "-next")
        let store = try SQLiteMessageStore(directory: directory.url, scope: next, logger: .silent)
        #expect(try store.draft() == "")
        try store.rotate(to: next)
        let after = try bytesOnDisk(directory)
        #expect(after.range(of: Data(Self.marker.utf8)) == nil)
    }

    // Issue 15: a copy moved aside because the file was damaged holds the previous user's chat; the rotation of a
    // logout or deletion removes it with its -wal and -shm, and the store goes on working.
    @Test func aRotationRemovesTheDamagedCopiesOfThePreviousChat() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try SQLiteMessageStore(directory: directory.url, scope: testScope, logger: .silent)
            for index in 0..<10 {
                var message = MessageStoreContract.unsent("u\(index)")
                message.text = "\(Self.marker) unsent \(index)"
                try store.enqueue(message)
            }
        }
        // The header goes at a relaunch; the pages with the chat stay, and the open moves the file aside.
        let handle = try FileHandle(forWritingTo: directory.databaseURL)
        try handle.write(contentsOf: Data(repeating: 0xEE, count: 100))
        try handle.close()
        let store = try SQLiteMessageStore(directory: directory.url, scope: testScope, logger: .silent)
        let damaged = ["", "-wal", "-shm"].map { SQLiteMessageStore.fileName + ".damaged" + $0 }
        var copies = Data()
        for name in damaged where directory.contains(name) {
            copies.append(try Data(contentsOf: directory.url.appendingPathComponent(name)))
        }
        try #require(copies.range(of: Data(Self.marker.utf8)) != nil, "the damaged copy does not hold the chat")

        try store.rotate(to: StorageScope(appID: testScope.appID, generation: "-next"))
        for name in damaged { #expect(!directory.contains(name), "\(name) is still there") }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        var everything = Data()
        for name in names { everything.append((try? Data(contentsOf: directory.url.appendingPathComponent(name))) ?? Data()) }
        #expect(everything.range(of: Data(Self.marker.utf8)) == nil, "the previous chat is still in \(names)")
        try store.enqueue(MessageStoreContract.unsent("new user"))
        #expect(try store.unsentMessages().map(\.id) == ["new user"])
    }
}
