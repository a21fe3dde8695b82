import CSQLite

/// One SQLite connection with its statement cache. Not thread-safe: `SQLiteMessageStore` keeps it inside a
/// `Locked`, so exactly one thread uses the C handle at a time, as the connection is opened with
/// `SQLITE_OPEN_NOMUTEX` (SQLite's own locking would only repeat ours).
final class SQLiteConnection {
    private let handle: OpaquePointer
    /// Prepared once per connection and reused: preparing is the expensive part of a small statement.
    private var statements: [String: SQLiteStatement] = [:]

    private init(handle: OpaquePointer) { self.handle = handle }

    deinit {
        // Statements must be finalized before the close, or sqlite3_close_v2 defers it until they are.
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Opens (creating if needed) the database at `path`. Nothing is read yet: a damaged file shows up on the
    /// first statement.
    static func open(path: String, busyTimeoutMilliseconds: Int32) throws(SQLiteFailure) -> SQLiteConnection {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard let handle else {
            throw SQLiteFailure(code: .init(rawValue: code), message: "sqlite3_open_v2 returned no handle")
        }
        // From here the connection owns the handle and closes it on every path, including the throw below.
        let connection = SQLiteConnection(handle: handle)
        guard code == SQLITE_OK else { throw connection.failure(code) }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        return connection
    }

    /// Runs one or more statements without parameters (pragmas, migrations).
    func execute(_ sql: String) throws(SQLiteFailure) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        defer { sqlite3_free(errorMessage) }
        guard code == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            throw SQLiteFailure(code: .init(rawValue: code), message: message)
        }
    }

    /// The cached statement for `sql`, prepared on first use.
    func statement(_ sql: String) throws(SQLiteFailure) -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else { throw failure(code) }
        let statement = SQLiteStatement(handle: prepared)
        statements[sql] = statement
        return statement
    }

    /// Binds `values` to the cached statement for `sql`, hands it to `body` and resets it afterwards.
    @_semantics("optimize.sil.specialize.generic.never")
    func with<T>(
        _ sql: String, _ values: [SQLiteValue] = [], _ body: (SQLiteStatement) throws(SQLiteFailure) -> T
    ) throws(SQLiteFailure) -> T {
        let statement = try self.statement(sql)
        defer { statement.reset() }
        try statement.bind(values)
        return try body(statement)
    }

    /// Runs `sql` with `values` to completion.
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteFailure) {
        try with(sql, values) { statement throws(SQLiteFailure) in try statement.run() }
    }

    /// The first column of the first row of `sql` as an integer, or `nil` without a row or for `NULL`.
    func integer(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteFailure) -> Int64? {
        try with(sql, values) { statement throws(SQLiteFailure) in
            try statement.step() ? statement.optionalInt64(0) : nil
        }
    }

    /// Runs `body` in one write transaction: committed when it returns, rolled back when it or the commit throws,
    /// so a failed write never leaves part of itself (or removes anything) behind.
    func transaction<T>(_ body: () throws(SQLiteFailure) -> T) throws(SQLiteFailure) -> T {
        // IMMEDIATE takes the write lock up front, so a busy database fails here, before any work is done.
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            // A failed COMMIT may already have rolled back; a second rollback then fails harmlessly.
            try? run("ROLLBACK")
            throw error
        }
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    private func failure(_ code: Int32) -> SQLiteFailure {
        SQLiteFailure(code: .init(rawValue: code), message: String(cString: sqlite3_errmsg(handle)))
    }
}
