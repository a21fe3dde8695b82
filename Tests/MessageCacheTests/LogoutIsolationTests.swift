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
}
