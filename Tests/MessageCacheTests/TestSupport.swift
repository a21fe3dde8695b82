import Foundation
@testable import MessageCache
@testable import ReceptionCore
import ReceptionTesting

/// A fresh folder under the system's temporary directory, removed when the last reference goes away.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("MessageCacheTests-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The store's database file in this folder.
    var databaseURL: URL { url.appendingPathComponent(SQLiteMessageStore.fileName) }

    /// Whether a file with this name exists in the folder.
    func contains(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path)
    }
}

let testScope = MessageStoreContract.scope

extension MessageStoreFixture {
    /// `SQLiteMessageStore` on a real file in a fresh temporary folder.
    static func sqlite() -> MessageStoreFixture {
        let directory = TemporaryDirectory()
        return MessageStoreFixture(
            name: "SQLiteMessageStore",
            open: { scope in try SQLiteMessageStore(directory: directory.url, scope: scope, logger: .silent) },
            makeWritesFail: { store in try (store as? SQLiteMessageStore)?.limitGrowthToCurrentSize() })
    }
}

/// The helper executable built beside the test bundle (`Tests/MessageCacheChild`).
func childExecutable() -> URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("message-cache-child")
}

/// A running `message-cache-child` and the lines it has printed so far.
final class ChildProcess {
    let process: Subprocess
    private let output = Pipe()
    private var pending = Data()
    private(set) var ended = false

    init(_ arguments: [String]) throws {
        // The pipe's ends close on exec: a child another test starts meanwhile must not inherit the write end and
        // hold back the end of this child's output.
        for handle in [output.fileHandleForReading, output.fileHandleForWriting] {
            _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
        process = try Subprocess(
            childExecutable().path, arguments, standardOutput: .descriptor(output.fileHandleForWriting.fileDescriptor))
        // Only the child holds the write end now, so reading ends when it exits.
        try? output.fileHandleForWriting.close()
    }

    /// The next complete line, blocking until it arrives; `nil` once the child has closed its output.
    func nextLine() -> String? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                return line
            }
            if ended { return nil }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { ended = true } else { pending.append(chunk) }
        }
    }

    /// SIGKILL: no cleanup, no flush, as when the system ends a suspended app.
    func kill() {
        process.terminate(SIGKILL)
        process.waitUntilExit()
    }
}
