import CSQLite
import Foundation
import ReceptionCore

/// The default `MessageStoring`: one SQLite file in WAL mode holding every scope's window, outbox, draft and
/// session state, with each call in one transaction (Docs/MessageCache.md).
///
/// A file that is not a database, is corrupt, or comes from a newer build is moved aside (`messages.sqlite.damaged`)
/// and the store opens empty, with an error line in the log; the next `rotate(to:)` (logout, deletion) removes that
/// copy. A file another process holds locked is left alone and the open throws `storage_unavailable`. The folder is
/// created 0700 and the database with its `-wal` and `-shm` files 0600.
public final class SQLiteMessageStore: MessageStoring {
    /// Tuning a host rarely needs; tests use it to shorten waits.
    public struct Options: Sendable {
        /// How long a call waits for another connection's lock before failing with `storage_unavailable`.
        public var busyTimeoutMilliseconds: Int32

        /// Makes options; by default a locked file is waited on for two seconds.
        @_optimize(size) public init(busyTimeoutMilliseconds: Int32 = 2000) {
            self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        }
    }

    struct State {
        let connection: SQLiteConnection
        var scope: StorageScope
    }

    /// The connection lives only inside this lock, so calls from any thread or task are serialised.
    let state: Locked<State>
    let logger: ReceptionLogger
    let directory: StoreDirectory
    /// The database file.
    public let fileURL: URL

    /// The file name inside the store's directory.
    public static let fileName = "messages.sqlite"

    /// Opens (or creates) the store in `directory` for `scope`, erasing whatever an earlier generation of the same
    /// App ID left behind (a logout that could not finish its erasure).
    @_optimize(size) public init(
        directory: URL, scope: StorageScope, logger: ReceptionLogger = ReceptionLogger(category: "MessageCache"),
        options: Options = Options()
    ) throws(ReceptionError) {
        self.logger = logger
        let storeDirectory = StoreDirectory(url: directory, logger: logger)
        try storeDirectory.prepare()
        self.directory = storeDirectory
        fileURL = storeDirectory.databaseURL
        let connection = try Self.openConnection(in: storeDirectory, options: options, logger: logger)
        do {
            try Self.adopt(scope, on: connection)
        } catch {
            logger.write(.error, "could not register the storage scope: \(error)")
            throw error.receptionError
        }
        state = Locked(State(connection: connection, scope: scope))
    }

    /// The scope reads and writes go to.
    @_optimize(size) public var scope: StorageScope { state.withLock { $0.scope } }

    /// Runs `body` on the connection under the lock and turns a SQLite failure into the stable error, with a log
    /// line naming the operation (never the data).
    // One copy for every result type (Docs/Footprint.md, "Size on iOS").
    @_semantics("optimize.sil.specialize.generic.never")
    @inline(never) @_optimize(size) func access<T: Sendable>(
        _ operation: String, _ body: (SQLiteConnection, StorageScope) throws(SQLiteFailure) -> T
    ) throws(ReceptionError) -> T {
        do {
            return try state.withLock { state throws(SQLiteFailure) -> T in
                try body(state.connection, state.scope)
            }
        } catch {
            logger.write(.error, "message cache could not \(operation): \(error)")
            throw error.receptionError
        }
    }
}

extension SQLiteMessageStore {
    /// The keys of `session_values`.
    enum Key {
        static let draft = "draft"
        static let session = "session"
    }
}
