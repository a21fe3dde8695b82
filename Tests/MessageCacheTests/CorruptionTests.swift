import Foundation
@testable import MessageCache
import ReceptionCore
import ReceptionTesting
import Testing

/// A damaged file opens as an empty store (moved aside, logged); a locked one gives a stable error; never a crash.
@Suite struct CorruptionTests {
    /// Writes a store with enough rows and photos to span many pages, then closes it.
    private func populatedDirectory() throws -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        let store = try SQLiteMessageStore(directory: directory.url, scope: testScope, logger: .silent)
        for index in 0..<30 { try store.enqueue(SelfCheckingMessage.make(index)) }
        try store.save((Int64(1)...60).map { MessageStoreContract.confirmed($0) })
        return directory
    }

    private func damage(
        _ file: URL, keeping length: Int?, garbage: Bool, using generator: inout SeededRandomNumberGenerator
    ) throws {
        var bytes = try Data(contentsOf: file)
        if garbage {
            bytes = Data((0..<bytes.count).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        if let length { bytes = bytes.prefix(length) }
        try bytes.write(to: file)
    }

    @Test(arguments: [
        ("garbage", nil, true), ("truncated to half", 0, false), ("truncated to 100 bytes", 100, false),
    ] as [(String, Int?, Bool)])
    func aDamagedFileOpensEmptyAndIsMovedAside(_ name: String, _ length: Int?, _ garbage: Bool) throws {
        let directory = try populatedDirectory()
        let size = try Data(contentsOf: directory.databaseURL).count
        var generator = SeededRandomNumberGenerator.fromEnvironment()
        // The garbage is random: its seed is printed (a throw carries no message) and names the case in every
        // failure message, so the run can be repeated.
        if garbage { print("CorruptionTests, \(name): \(generator.reproduction)") }
        let label = garbage ? "\(name) (\(generator.reproduction))" : name
        try damage(directory.databaseURL, keeping: length == 0 ? size / 2 : length, garbage: garbage, using: &generator)

        let recorder = RecordingLogHandler()
        let store = try SQLiteMessageStore(directory: directory.url, scope: testScope, logger: recorder.logger())
        #expect(try store.loadWindow().isEmpty, "\(label): damaged contents were read")
        #expect(directory.contains(SQLiteMessageStore.fileName + ".damaged"), "\(label): file not moved aside")
        #expect(recorder.messages(at: .error).contains { $0.contains("moved aside") }, "\(label): no log line")
        // The fresh file works.
        try store.enqueue(MessageStoreContract.unsent("after"))
        #expect(try store.unsentMessages().map(\.id) == ["after"])
    }

    @Test func aFileFromANewerBuildIsMovedAsideNotMisread() throws {
        let directory = try populatedDirectory()
        try rawExecute("PRAGMA user_version = 99", on: directory.databaseURL)
        let recorder = RecordingLogHandler()
        let store = try SQLiteMessageStore(directory: directory.url, scope: testScope, logger: recorder.logger())
        #expect(try store.loadWindow().isEmpty)
        #expect(try store.schemaVersion == 3)
        #expect(directory.contains(SQLiteMessageStore.fileName + ".damaged"))
    }

    @Test func aFileLockedByAnotherProcessGivesAStableErrorAndIsLeftAlone() throws {
        try #require(FileManager.default.isExecutableFile(atPath: childExecutable().path))
        let directory = try populatedDirectory()
        let child = try ChildProcess(["lock", directory.databaseURL.path])
        defer { child.kill() }
        try #require(child.nextLine() == "locked")

        let recorder = RecordingLogHandler()
        let error = #expect(throws: ReceptionError.self) {
            _ = try SQLiteMessageStore(
                directory: directory.url, scope: testScope, logger: recorder.logger(),
                options: .init(busyTimeoutMilliseconds: 50))
        }
        #expect(error?.code == ReceptionError.Code.storageUnavailable)
        #expect(!directory.contains(SQLiteMessageStore.fileName + ".damaged"), "a healthy locked file was moved")
        #expect(!recorder.messages(at: .error).isEmpty, "the failure was not logged")

        child.kill()
        let store = try SQLiteMessageStore(directory: directory.url, scope: testScope, logger: .silent)
        #expect(try store.unsentMessages().count == 30, "data lost after the lock was released")
    }
}
