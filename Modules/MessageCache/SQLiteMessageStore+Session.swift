import Foundation
import ReceptionCore

extension SQLiteMessageStore {
    @inline(never) @_optimize(size) public func draft() throws(ReceptionError) -> String {
        try access("read the draft") { connection, scope throws(SQLiteFailure) in
            try Self.readDraft(connection, scope)
        }
    }

    @inline(never) @_optimize(size) public func setDraft(_ text: String) throws(ReceptionError) {
        try access("save the draft") { connection, scope throws(SQLiteFailure) in
            try Self.writeDraft(text, connection, scope)
        }
    }

    @inline(never) @_optimize(size) public func sessionState() throws(ReceptionError) -> SessionState {
        try access("read the session state") { connection, scope throws(SQLiteFailure) in
            try Self.readSessionState(connection, scope, logger: logger)
        }
    }

    @inline(never)
    @_optimize(size) public func updateSessionState(_ change: (inout SessionState) -> Void) throws(ReceptionError) {
        try access("save the session state") { connection, scope throws(SQLiteFailure) in
            try Self.updateSessionState(change, connection, scope, logger: logger)
        }
    }

    // The work of the operations above, out of their closures: a closure is compiled at the host's `-O` whatever
    // encloses it, so each keeps to one call and the work is compiled for size, never inlined back into it
    // (Docs/Footprint.md, "The store's cold operations").

    @inline(never) @_optimize(size)
    static func readDraft(_ connection: SQLiteConnection, _ scope: StorageScope) throws(SQLiteFailure) -> String {
        guard let data = try value(Key.draft, connection, scope) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    @inline(never) @_optimize(size)
    static func writeDraft(
        _ text: String, _ connection: SQLiteConnection, _ scope: StorageScope
    ) throws(SQLiteFailure) {
        if text.isEmpty {
            try connection.run(
                "DELETE FROM session_values WHERE scope = ?1 AND key = ?2", [.text(scope.key), .text(Key.draft)])
        } else {
            try setValue(UTF8Bytes.data(text), for: Key.draft, connection, scope)
        }
    }

    @inline(never) @_optimize(size) static func updateSessionState(
        _ change: (inout SessionState) -> Void, _ connection: SQLiteConnection, _ scope: StorageScope,
        logger: ReceptionLogger
    ) throws(SQLiteFailure) {
        try connection.transaction { () throws(SQLiteFailure) in
            var state = try readSessionState(connection, scope, logger: logger)
            change(&state)
            try writeSessionState(state, connection, scope)
        }
    }

    @_optimize(size) @inline(never) static func readSessionState(
        _ connection: SQLiteConnection, _ scope: StorageScope, logger: ReceptionLogger
    ) throws(SQLiteFailure) -> SessionState {
        guard let data = try value(Key.session, connection, scope) else { return SessionState() }
        do {
            return try JSONDecoder().decode(SessionState.self, from: data)
        } catch {
            // Only this build writes the value; if it stops decoding, a fresh state is the safe fallback (the
            // service re-teaches the cursor, revision and cooldowns on the next request).
            logger.write(.error, "stored session state did not decode; starting from a fresh state")
            return SessionState()
        }
    }

    @_optimize(size) @inline(never) static func writeSessionState(
        _ state: SessionState, _ connection: SQLiteConnection, _ scope: StorageScope
    ) throws(SQLiteFailure) {
        guard let data = try? JSONEncoder().encode(state) else {
            throw SQLiteFailure(code: .misuse, message: "session state did not encode")
        }
        try setValue(data, for: Key.session, connection, scope)
    }

    @_optimize(size) @inline(never) private static func value(
        _ key: String, _ connection: SQLiteConnection, _ scope: StorageScope
    ) throws(SQLiteFailure) -> Data? {
        try connection.with(
            "SELECT value FROM session_values WHERE scope = ?1 AND key = ?2", [.text(scope.key), .text(key)]
        ) { statement throws(SQLiteFailure) in
            try statement.step() ? statement.optionalBlob(0) : nil
        }
    }

    @_optimize(size) @inline(never) private static func setValue(
        _ data: Data, for key: String, _ connection: SQLiteConnection, _ scope: StorageScope
    ) throws(SQLiteFailure) {
        try connection.run(
            "INSERT OR REPLACE INTO session_values(scope, key, value) VALUES (?1, ?2, ?3)",
            [.text(scope.key), .text(key), .blob(data)])
    }
}
