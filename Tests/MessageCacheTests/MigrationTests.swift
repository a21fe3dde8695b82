import CSQLite
import Foundation
@testable import MessageCache
@testable import ReceptionCore
import ReceptionTesting
import Testing

/// Every earlier schema version migrates to the current one and keeps its data.
@Suite struct MigrationTests {
    /// The rows an earlier build wrote, for each version that has tables for them.
    static func seed(version: Int32, file: URL) throws {
        guard version >= 1 else { return }
        let scope = testScope
        try rawExecute("""
            INSERT INTO scopes(scope, app_id) VALUES ('\(scope.key)', '\(scope.appID)');
            INSERT INTO messages(scope, id, seq, sender, text, kind, created_at, delivery, expected_image_count)
            VALUES ('\(scope.key)', 'old-1', 4, 'AGENT', 'from an older build', 'TEXT', 10.0, 0, 0);
            INSERT INTO messages(scope, id, sender, text, kind, created_at, delivery, expected_image_count)
            VALUES ('\(scope.key)', 'old-2', 'USER', 'unsent before the update', 'TEXT', 20.0, 9, 1);
            INSERT INTO images(message_row, position, jpeg)
            VALUES ((SELECT row FROM messages WHERE id = 'old-2'), 0, x'FFD8FFD9');
            """, on: file)
    }

    @Test(arguments: [Int32](0..<3))
    func aFileAtAnEarlierVersionMigratesAndKeepsItsMessages(_ version: Int32) throws {
        let directory = TemporaryDirectory()
        try SQLiteMessageStore.createDatabase(at: directory.databaseURL, schemaVersion: version)
        try Self.seed(version: version, file: directory.databaseURL)

        let recorder = RecordingLogHandler()
        let store = try SQLiteMessageStore(directory: directory.url, scope: testScope, logger: recorder.logger())
        #expect(try store.schemaVersion == 3)
        #expect(recorder.messages(at: .error).isEmpty)
        let window = try store.loadWindow()
        if version >= 1 {
            #expect(window.map(\.id) == ["old-1", "old-2"])
            #expect(window.last?.images == [Data([0xFF, 0xD8, 0xFF, 0xD9])])
            #expect(window.last?.delivery == [.failed, .retryAfterTransientFailure])
        } else {
            #expect(window.isEmpty)
        }
        // Tables of later versions work.
        try store.setDraft("after migration")
        #expect(try store.draft() == "after migration")
        try store.saveTeamProfiles([TeamProfile(id: "tm_1", name: "Anna", photoKey: "k", photo: Data([1]))])
        #expect(try store.teamProfiles().map(\.name) == ["Anna"])
    }

    @Test func sqliteTransientMatchesTheCMacro() {
        #expect(unsafeBitCast(sqliteTransient, to: Int.self) == unsafeBitCast(reception_sqlite_transient(), to: Int.self))
    }
}
