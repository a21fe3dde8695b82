import Foundation
import MessageCache
import ReceptionCore
import ReceptionTesting
import Testing

/// A writer killed with SIGKILL at a random moment loses nothing it reported as committed and leaves no half row.
@Suite struct CrashSafetyTests {
    static let scope = StorageScope(appID: "app_crashAAAAAAAAAAAAAAAAAAAAA", generation: "-g1")

    @Test func everyCommittedOutboxRowSurvivesSIGKILLIntact() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: childExecutable().path),
            "message-cache-child is missing beside the test bundle; run `swift build` first")
        let directory = TemporaryDirectory()
        // The kill points are random; the seed is printed and in every failure message, so a run can be repeated.
        var generator = SeededRandomNumberGenerator.fromEnvironment()
        let seed = generator.reproduction
        print("CrashSafetyTests: \(seed)")
        var committed = Set<Int>()
        var next = 0
        // Several rounds over one file: each relaunch must also cope with what the previous kill left behind.
        for _ in 0..<4 {
            let child = try ChildProcess(["outbox", directory.url.path, String(next)])
            let killAfter = Int.random(in: 3...40, using: &generator)
            var seen = 0
            while seen < killAfter, let line = child.nextLine() {
                if let index = Self.committedIndex(line) { committed.insert(index) }
                seen += 1
            }
            try #require(seen == killAfter, "the child stopped on its own after \(seen) commits (\(seed))")
            // A random pause moves the kill to a random point inside the next transaction.
            usleep(UInt32.random(in: 0..<20_000, using: &generator))
            child.kill()
            while let line = child.nextLine() {
                if let index = Self.committedIndex(line) { committed.insert(index) }
            }

            let recorder = RecordingLogHandler()
            let store = try SQLiteMessageStore(directory: directory.url, scope: Self.scope, logger: recorder.logger())
            let rows = try store.unsentMessages()
            let intact = rows.compactMap(SelfCheckingMessage.index(ofIntact:))
            #expect(intact.count == rows.count, "a row was stored half-written (\(seed))")
            #expect(committed.isSubset(of: Set(intact)), "committed rows lost: \(committed.subtracting(intact)) (\(seed))")
            // At most the transaction in flight at the kill may have landed without being reported.
            let unreported = Set(intact).subtracting(committed)
            #expect(unreported.count <= 1, "rows nobody wrote: \(unreported) (\(seed))")
            #expect(recorder.messages(at: .error).isEmpty, "reopening logged errors (\(seed))")
            // A row that landed unreported in this round is simply stored from now on; without this, the next
            // round would count it again next to its own in-flight row.
            committed.formUnion(intact)
            next = (intact.max() ?? -1) + 1
        }
        #expect(committed.count >= 12, "\(seed)")
    }

    private static func committedIndex(_ line: String) -> Int? {
        guard line.hasPrefix("committed ") else { return nil }
        return Int(line.dropFirst("committed ".count))
    }
}
