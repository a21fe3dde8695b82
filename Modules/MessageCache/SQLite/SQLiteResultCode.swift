import CSQLite
import ReceptionCore

/// A SQLite result code (primary or extended), wrapped so the rest of the module asks questions about it instead
/// of comparing raw integers.
struct SQLiteResultCode: Equatable, Sendable, CustomStringConvertible {
    /// The value SQLite returned.
    let rawValue: Int32

    /// The primary code: extended codes keep it in their low byte.
    var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

    static let ok = SQLiteResultCode(rawValue: SQLITE_OK)
    static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
    static let locked = SQLiteResultCode(rawValue: SQLITE_LOCKED)
    static let full = SQLiteResultCode(rawValue: SQLITE_FULL)
    static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
    static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)
    static let tooBig = SQLiteResultCode(rawValue: SQLITE_TOOBIG)
    static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
    static let misuse = SQLiteResultCode(rawValue: SQLITE_MISUSE)

    var description: String { "\(rawValue) (\(String(cString: sqlite3_errstr(rawValue))))" }
}

/// A failed SQLite call. The message is SQLite's own text, which names tables and constraints but never bound
/// values, so it may be logged (spec 7.22 forbids message text in logs).
struct SQLiteFailure: Error, CustomStringConvertible {
    /// What SQLite returned.
    let code: SQLiteResultCode
    /// SQLite's explanation, or ours for failures found above SQLite.
    let message: String
    /// The file cannot be used as it is: not a database, corrupt, or written by a newer schema. Only such a file
    /// is moved aside; a locked or full one is left alone, because nothing is wrong with what it holds.
    let fileIsUnusable: Bool

    init(code: SQLiteResultCode, message: String, fileIsUnusable: Bool? = nil) {
        self.code = code
        self.message = message
        self.fileIsUnusable = fileIsUnusable
            ?? (code.primary == .corrupt || code.primary == .notADatabase)
    }

    /// The stable error a host sees: a full disk is `storage_full`, a value SQLite refuses is `invalid_input`,
    /// everything else `storage_unavailable`.
    var receptionError: ReceptionError {
        switch code.primary {
        case .full: .storageFull
        case .tooBig, .constraint: .invalidInput
        default: .storageUnavailable
        }
    }

    var description: String { "sqlite \(code): \(message)" }
}
