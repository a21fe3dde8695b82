import CSQLite
import Foundation

/// A value bound to a statement parameter; `nil` payloads bind SQL `NULL`.
enum SQLiteValue {
    case integer(Int64?)
    case real(Double?)
    case text(String?)
    case blob(Data?)
}

/// `SQLITE_TRANSIENT`, which tells SQLite to copy a bound buffer before the call returns. The C macro is a cast of
/// -1 to a function pointer, which Swift cannot import, so it is rebuilt here (`reception_sqlite_transient()` in
/// shim.h is the C view of the same value, for a test to compare).
var sqliteTransient: sqlite3_destructor_type {
    unsafeBitCast(-1 as Int, to: sqlite3_destructor_type.self)
}

extension SQLiteStatement {
    /// Binds `value` to the 1-based parameter `index`.
    func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteFailure) {
        let code: Int32
        switch value {
        case .integer(let number?): code = sqlite3_bind_int64(handle, index, number)
        case .real(let number?): code = sqlite3_bind_double(handle, index, number)
        case .text(let string?):
            // The explicit byte count keeps embedded NUL characters; an empty string needs a non-null pointer,
            // or SQLite would store NULL instead of "".
            var string = string
            code = string.withUTF8 { bytes in
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
                }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text64(handle, index, $0, sqlite3_uint64(bytes.count), sqliteTransient,
                                        UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let data?):
            code = data.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
                return sqlite3_bind_blob64(handle, index, base, sqlite3_uint64(bytes.count), sqliteTransient)
            }
        case .integer(nil), .real(nil), .text(nil), .blob(nil): code = sqlite3_bind_null(handle, index)
        }
        try check(code)
    }

    /// Binds `values` to parameters 1, 2, ….
    func bind(_ values: [SQLiteValue]) throws(SQLiteFailure) {
        for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1)) }
    }

    /// Whether column `index` of the current row is SQL `NULL`.
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// The integer in column `index` (0 for `NULL`).
    func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// The integer in column `index`, or `nil` for `NULL`.
    func optionalInt64(_ index: Int32) -> Int64? { isNull(index) ? nil : int64(index) }

    /// The real in column `index`, or `nil` for `NULL`.
    func optionalDouble(_ index: Int32) -> Double? { isNull(index) ? nil : sqlite3_column_double(handle, index) }

    /// The text in column `index` ("" for `NULL`), read by byte count so embedded NULs survive.
    func text(_ index: Int32) -> String { optionalText(index) ?? "" }

    /// The text in column `index`, or `nil` for `NULL`.
    func optionalText(_ index: Int32) -> String? {
        guard !isNull(index) else { return nil }
        // Ask for the text before its length: the conversion may change the byte count (SQLite's documented order).
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The bytes in column `index`, or `nil` for `NULL`.
    func optionalBlob(_ index: Int32) -> Data? {
        guard !isNull(index) else { return nil }
        guard let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, index)))
    }
}
