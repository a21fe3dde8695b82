import CSQLite
import Foundation
import ReceptionCore

// Opening the file, adopting a scope, erasing a scope or a chat: once per launch, login, logout or chat reset,
// compiled for size (scripts/cold-code). The per-call work (`access`, the message reads and writes) stays at -O.
extension SQLiteMessageStore {
    @inline(never) @_optimize(size) public func resetChat(revision: Int) throws(ReceptionError) {
        try access("reset the chat") { connection, scope throws(SQLiteFailure) in
            try connection.transaction { () throws(SQLiteFailure) in
                try connection.run("DELETE FROM messages WHERE scope = ?1", [.text(scope.key)])
                try connection.run("DELETE FROM team_profiles WHERE scope = ?1", [.text(scope.key)])
                try connection.run(
                    "DELETE FROM session_values WHERE scope = ?1 AND key = ?2", [.text(scope.key), .text(Key.draft)])
                let state = try Self.readSessionState(connection, scope, logger: logger)
                try Self.writeSessionState(state.afterChatReset(revision: revision), connection, scope)
            }
        }
    }

    @inline(never) @_optimize(size) public func rotate(to newScope: StorageScope) throws(ReceptionError) {
        // The switch happens first and unconditionally: even if the erasure below fails, nothing of the old scope
        // is reachable through this store, and the next open erases it (spec 7.15).
        state.withLock { $0.scope = newScope }
        // A copy moved aside because it was damaged holds the chat of whoever used it: it goes too, whatever the
        // erasure below does (issue 15).
        directory.removeDamagedCopies()
        try access("erase the previous scope") { connection, scope throws(SQLiteFailure) in
            try Self.adopt(scope, on: connection)
            // The WAL still holds copies of the erased pages; checkpointing into the main file (where
            // secure_delete has zeroed them) and truncating the WAL leaves no readable copy behind.
            try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    /// Records `scope` as its App ID's current scope and erases every other scope of that App ID, in one
    /// transaction. Images go with their messages through the foreign key's cascade.
    @inline(never)
    @_optimize(size) static func adopt(_ scope: StorageScope, on connection: SQLiteConnection) throws(SQLiteFailure) {
        try connection.transaction { () throws(SQLiteFailure) in
            try connection.run(
                "INSERT OR IGNORE INTO scopes(scope, app_id) VALUES (?1, ?2)", [.text(scope.key), .text(scope.appID)])
            let stale = "SELECT scope FROM scopes WHERE app_id = ?1 AND scope <> ?2"
            let values: [SQLiteValue] = [.text(scope.appID), .text(scope.key)]
            try connection.run("DELETE FROM messages WHERE scope IN (\(stale))", values)
            try connection.run("DELETE FROM session_values WHERE scope IN (\(stale))", values)
            try connection.run("DELETE FROM team_profiles WHERE scope IN (\(stale))", values)
            try connection.run("DELETE FROM scopes WHERE app_id = ?1 AND scope <> ?2", values)
        }
    }

    /// Opens the file, moving it aside once if it is unusable.
    @inline(never) @_optimize(size) static func openConnection(
        in directory: StoreDirectory, options: Options, logger: ReceptionLogger
    ) throws(ReceptionError) -> SQLiteConnection {
        try directory.prepareDatabaseFile()
        do {
            return try prepareConnection(path: directory.databaseURL.path, options: options)
        } catch where error.fileIsUnusable {
            logger.write(.error, "message cache file unusable (\(error)); moved aside, starting empty")
            try directory.moveDatabaseAside()
        } catch {
            logger.write(.error, "message cache could not be opened: \(error)")
            throw error.receptionError
        }
        try directory.prepareDatabaseFile()
        do {
            return try prepareConnection(path: directory.databaseURL.path, options: options)
        } catch {
            logger.write(.error, "message cache could not be recreated: \(error)")
            throw error.receptionError
        }
    }

    /// Opens, configures, checks and migrates one connection.
    @inline(never) @_optimize(size) static func prepareConnection(
        path: String, options: Options, schemaVersion: Int32 = Schema.latestVersion
    ) throws(SQLiteFailure) -> SQLiteConnection {
        let connection = try SQLiteConnection.open(
            path: path, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds)
        // WAL: a commit appends to the log instead of rewriting pages, and a crash mid-write leaves the last
        // committed state. FULL syncs the log on every commit, so a returned commit survives power loss too.
        try connection.execute("""
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = FULL;
            PRAGMA secure_delete = ON;
            PRAGMA foreign_keys = ON;
            """)
        try checkIntegrity(connection)
        try Schema.migrate(connection, to: schemaVersion)
        return connection
    }

    /// A truncated or overwritten file can still open and fail only when a damaged page is read; a quick check
    /// at open finds that before any message is trusted.
    @inline(never) @_optimize(size) static func checkIntegrity(_ connection: SQLiteConnection) throws(SQLiteFailure) {
        let verdict = try connection.with("PRAGMA quick_check(1)") { statement throws(SQLiteFailure) in
            try statement.step() ? statement.text(0) : "ok"
        }
        if verdict != "ok" {
            throw SQLiteFailure(code: .corrupt, message: "quick_check failed", fileIsUnusable: true)
        }
    }

    /// Test knob: a file at an older schema version, as an earlier build left it, for migration tests.
    @inline(never)
    @_optimize(size) static func createDatabase(at url: URL, schemaVersion: Int32) throws(ReceptionError) {
        do {
            _ = try prepareConnection(path: url.path, options: Options(), schemaVersion: schemaVersion)
        } catch {
            throw error.receptionError
        }
    }

    /// Test knob: the file may not grow past its current size, so the next write that needs a new page fails with
    /// `SQLITE_FULL`, as on a full disk.
    @inline(never) @_optimize(size) func limitGrowthToCurrentSize() throws(ReceptionError) {
        try access("limit growth") { connection, _ throws(SQLiteFailure) in
            let pages = try connection.integer("PRAGMA page_count") ?? 1
            try connection.execute("PRAGMA max_page_count = \(pages)")
        }
    }

    /// The schema version of the open file.
    @inline(never) @_optimize(size) var schemaVersion: Int32 {
        get throws(ReceptionError) {
            try access("read the schema version") { connection, _ throws(SQLiteFailure) in
                Int32(truncatingIfNeeded: try connection.integer("PRAGMA user_version") ?? 0)
            }
        }
    }
}
