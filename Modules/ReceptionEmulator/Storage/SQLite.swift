import CSQLite

/// A value bound to or read from SQLite.
package enum SQLValue: Sendable, Equatable {
    /// SQL NULL.
    case null
    /// INTEGER.
    case int(Int64)
    /// REAL.
    case double(Double)
    /// TEXT (UTF-8).
    case text(String)
    /// BLOB.
    case blob([UInt8])
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
    /// A text literal.
    package init(stringLiteral value: String) { self = .text(value) }
    /// An integer literal.
    package init(integerLiteral value: Int64) { self = .int(value) }
    /// NULL.
    package init(nilLiteral: ()) { self = .null }

    /// Text or NULL.
    package static func optional(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }
    /// An integer or NULL.
    package static func optional(_ value: Int64?) -> SQLValue { value.map(SQLValue.int) ?? .null }
    /// A boolean stored as 0/1.
    package static func bool(_ value: Bool) -> SQLValue { .int(value ? 1 : 0) }
}

/// A SQLite result code that was not success (GRDB style: the code wrapped, with the connection's message).
package struct SQLiteError: Error, CustomStringConvertible {
    /// The primary result code.
    package var code: Int32
    /// `sqlite3_errmsg` at the time of the failure.
    package var message: String
    /// A readable description.
    package var description: String { "SQLite error \(code): \(message)" }
}

/// One result row, by column name.
package struct SQLRow: Sendable {
    /// Column values by name.
    package var columns: [String: SQLValue]

    /// Text in `column`, `nil` for NULL or another type.
    package func text(_ column: String) -> String? { if case .text(let v) = columns[column] { return v }; return nil }
    /// An integer in `column`, `nil` for NULL or another type.
    package func int(_ column: String) -> Int64? { if case .int(let v) = columns[column] { return v }; return nil }
    /// A boolean stored as 0/1; `nil` for NULL.
    package func bool(_ column: String) -> Bool? { int(column).map { $0 != 0 } }
    /// A blob in `column` (`[]` for a zero-length blob), `nil` for NULL or another type.
    package func blob(_ column: String) -> [UInt8]? { if case .blob(let v) = columns[column] { return v }; return nil }
}

/// One SQLite connection with a statement cache. Not thread-safe on its own: the emulator keeps it inside a
/// `EmulatorLock`, so exactly one request uses it at a time.
package final class SQLiteDatabase {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    private var transactionDepth = 0
    // SQLITE_TRANSIENT (a macro cast of -1 Swift cannot import): SQLite copies bound bytes before returning.
    private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Opens (creating if needed) the database file at `path`.
    package init(path: String) throws(SQLiteError) {
        let status = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            handle = nil
            throw SQLiteError(code: status, message: message)
        }
        try execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;")
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close(handle)
    }

    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed")
    }

    /// Runs one or more statements without parameters or results (schema, pragmas).
    package func execute(_ sql: String) throws(SQLiteError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status) }
    }

    /// Runs `sql` with `arguments` and returns every row.
    @discardableResult
    package func query(_ sql: String, _ arguments: [SQLValue] = []) throws(SQLiteError) -> [SQLRow] {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, argument) in arguments.enumerated() { try bind(argument, at: Int32(index + 1), in: statement) }
        var rows: [SQLRow] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw error(status) }
            var columns: [String: SQLValue] = [:]
            for column in 0..<sqlite3_column_count(statement) {
                let name = String(cString: sqlite3_column_name(statement, column))
                columns[name] = read(statement, column)
            }
            rows.append(SQLRow(columns: columns))
        }
    }

    /// The first row of `sql`, if any.
    package func row(_ sql: String, _ arguments: [SQLValue] = []) throws(SQLiteError) -> SQLRow? {
        try query(sql, arguments).first
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws. A transaction inside
    /// another becomes a savepoint, so storage helpers can be composed.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        let depth = transactionDepth
        let savepoint = "nested_\(depth)"
        try execute(depth == 0 ? "BEGIN IMMEDIATE" : "SAVEPOINT \(savepoint)")
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        do {
            let result = try body()
            try execute(depth == 0 ? "COMMIT" : "RELEASE \(savepoint)")
            return result
        } catch {
            try? execute(depth == 0 ? "ROLLBACK" : "ROLLBACK TO \(savepoint); RELEASE \(savepoint)")
            throw error
        }
    }

    /// Rows changed by the last statement.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    private func prepared(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        if let cached = statements[sql] { return cached }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status) }
        statements[sql] = statement
        return statement
    }

    private func bind(_ value: SQLValue, at index: Int32, in statement: OpaquePointer) throws(SQLiteError) {
        let status: Int32
        switch value {
        case .null: status = sqlite3_bind_null(statement, index)
        case .int(let v): status = sqlite3_bind_int64(statement, index, v)
        case .double(let v): status = sqlite3_bind_double(statement, index, v)
        case .text(let v):
            // Bound with its exact byte count, so a U+0000 inside is stored, not the end of the text.
            var text = v
            status = text.withUTF8 { bytes in
                // A null pointer would bind NULL; an empty text binds a zero-length string.
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_text64(statement, index, "", 0, transient, UInt8(SQLITE_UTF8))
                }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text64(statement, index, $0, UInt64(bytes.count), transient, UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let v):
            status = v.withUnsafeBytes { bytes in
                // A null pointer would bind NULL: an empty blob is bound as a zero-length blob instead.
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_zeroblob(statement, index, 0)
                }
                return sqlite3_bind_blob64(statement, index, base, UInt64(bytes.count), transient)
            }
        }
        guard status == SQLITE_OK else { throw error(status) }
    }

    private func read(_ statement: OpaquePointer, _ column: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .int(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .double(sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            // Exactly the stored bytes (sqlite3_column_bytes after sqlite3_column_text, as SQLite documents), so a
            // U+0000 inside does not end the text.
            guard let text = sqlite3_column_text(statement, column) else { return .null }
            let count = Int(sqlite3_column_bytes(statement, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: max(0, count)), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard let bytes = sqlite3_column_blob(statement, column), count > 0 else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}
