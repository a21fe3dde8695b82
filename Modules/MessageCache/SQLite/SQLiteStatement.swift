import CSQLite

/// One prepared statement, owned by the connection's statement cache and reset after every use.
final class SQLiteStatement {
    /// The C statement; finalized when the cache lets go of this object.
    let handle: OpaquePointer

    init(handle: OpaquePointer) { self.handle = handle }

    deinit { sqlite3_finalize(handle) }

    /// Ready for the next use: no pending row, no bound values kept alive.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Advances; `true` while a row is available.
    func step() throws(SQLiteFailure) -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw failure(code)
    }

    /// Runs to completion, ignoring rows.
    func run() throws(SQLiteFailure) {
        while try step() {}
    }

    func check(_ code: Int32) throws(SQLiteFailure) {
        if code != SQLITE_OK { throw failure(code) }
    }

    private func failure(_ code: Int32) -> SQLiteFailure {
        let message = sqlite3_db_handle(handle).map { String(cString: sqlite3_errmsg($0)) } ?? ""
        return SQLiteFailure(code: SQLiteResultCode(rawValue: code), message: message)
    }
}
