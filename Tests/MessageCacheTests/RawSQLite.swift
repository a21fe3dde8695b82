import CSQLite
import Foundation

struct RawSQLiteError: Error, CustomStringConvertible {
    let description: String
}

/// Runs SQL on a file with plain C calls, the way an older build or another tool would, bypassing the store.
func rawExecute(_ sql: String, on file: URL) throws {
    var handle: OpaquePointer?
    defer { sqlite3_close_v2(handle) }
    guard sqlite3_open(file.path, &handle) == SQLITE_OK else { throw RawSQLiteError(description: "open failed") }
    var message: UnsafeMutablePointer<CChar>?
    defer { sqlite3_free(message) }
    guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
        throw RawSQLiteError(description: message.map { String(cString: $0) } ?? "exec failed")
    }
}
