import CSQLite
import Foundation
import MessageCache
import ReceptionCore

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
}

/// The limit for this design: the same schema, pragmas and statements as `SQLiteMessageStore`, issued as plain
/// C calls on statements prepared once, without the store's locking, caching by SQL text or value enum.
final class RawSQLiteContender: Contender {
    let name = "raw SQLite C calls"
    private var handle: OpaquePointer?
    private var prepared: [String: OpaquePointer] = [:]
    private let scopeKey = Workload.scope.key
    private let transient = unsafeBitCast(-1 as Int, to: sqlite3_destructor_type.self)

    private static let columns = """
        scope, id, seq, sender, text, kind, created_at, delivery, attachments, expected_image_count
        """

    init(directory: URL) throws {
        // The store creates the schema and registers the scope; then it is closed and only C calls remain.
        _ = try SQLiteMessageStore(directory: directory, scope: Workload.scope, logger: .silent)
        let path = directory.appendingPathComponent(SQLiteMessageStore.fileName).path
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            throw BenchFailure(description: "raw open failed")
        }
        try exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA secure_delete=ON; PRAGMA foreign_keys=ON")
    }

    deinit {
        for statement in prepared.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    private func exec(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchFailure(description: String(cString: sqlite3_errmsg(handle)))
        }
    }

    private func statement(_ sql: String) throws -> OpaquePointer {
        if let statement = prepared[sql] { return statement }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchFailure(description: String(cString: sqlite3_errmsg(handle)))
        }
        prepared[sql] = statement
        return statement
    }

    private func bindText(_ statement: OpaquePointer, _ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) {
                sqlite3_bind_text(statement, index, $0.baseAddress, Int32($0.count), transient)
            }
        }
    }

    private func finish(_ statement: OpaquePointer) throws {
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE || code == SQLITE_ROW else {
            throw BenchFailure(description: String(cString: sqlite3_errmsg(handle)))
        }
    }

    private func insert(_ message: StoredMessage) throws -> Int64 {
        let insert = try statement("INSERT INTO messages(\(Self.columns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)")
        bindText(insert, 1, scopeKey)
        bindText(insert, 2, message.id)
        if let seq = message.seq { sqlite3_bind_int64(insert, 3, seq) } else { sqlite3_bind_null(insert, 3) }
        bindText(insert, 4, message.sender.rawValue)
        bindText(insert, 5, message.text)
        bindText(insert, 6, message.kind.rawValue)
        sqlite3_bind_double(insert, 7, message.createdAt.timeIntervalSinceReferenceDate)
        sqlite3_bind_int64(insert, 8, Int64(message.delivery.rawValue))
        sqlite3_bind_null(insert, 9)
        sqlite3_bind_int64(insert, 10, Int64(message.expectedImageCount))
        try finish(insert)
        return sqlite3_last_insert_rowid(handle)
    }

    private func trim() throws {
        let trim = try statement("""
            DELETE FROM messages WHERE scope = ?1 AND seq < (
                SELECT seq FROM messages WHERE scope = ?1 AND seq IS NOT NULL ORDER BY seq DESC LIMIT 1 OFFSET 49)
            """)
        bindText(trim, 1, scopeKey)
        try finish(trim)
    }

    func appendConfirmed(_ message: StoredMessage) throws {
        try exec("BEGIN IMMEDIATE")
        _ = try insert(message)
        try trim()
        try exec("COMMIT")
    }

    func enqueue(_ message: StoredMessage) throws {
        try exec("BEGIN IMMEDIATE")
        let row = try insert(message)
        let image = try statement("INSERT INTO images(message_row, position, jpeg) VALUES (?1, ?2, ?3)")
        for (position, jpeg) in message.images.enumerated() {
            sqlite3_bind_int64(image, 1, row)
            sqlite3_bind_int64(image, 2, Int64(position))
            _ = jpeg.withUnsafeBytes { sqlite3_bind_blob(image, 3, $0.baseAddress, Int32($0.count), transient) }
            try finish(image)
        }
        try exec("COMMIT")
    }

    func complete(_ id: String, with confirmed: StoredMessage) throws {
        try exec("BEGIN IMMEDIATE")
        let update = try statement("""
            UPDATE messages SET seq = ?3, delivery = 0, attachments = ?4 WHERE scope = ?1 AND id = ?2 RETURNING row
            """)
        bindText(update, 1, scopeKey)
        bindText(update, 2, id)
        sqlite3_bind_int64(update, 3, confirmed.seq ?? 0)
        let attachments = try JSONEncoder().encode(confirmed.attachments)
        _ = attachments.withUnsafeBytes { sqlite3_bind_blob(update, 4, $0.baseAddress, Int32($0.count), transient) }
        let row = sqlite3_step(update) == SQLITE_ROW ? sqlite3_column_int64(update, 0) : 0
        sqlite3_reset(update)
        let delete = try statement("DELETE FROM images WHERE message_row = ?1")
        sqlite3_bind_int64(delete, 1, row)
        try finish(delete)
        try trim()
        try exec("COMMIT")
    }

    private func text(_ statement: OpaquePointer, _ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column))),
                      as: UTF8.self)
    }

    private func optionalText(_ statement: OpaquePointer, _ column: Int32) -> String? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : text(statement, column)
    }

    /// Reads every column the store returns, so both build the same `StoredMessage` values.
    func loadWindowCount() throws -> Int {
        let select = try statement("""
            SELECT row, id, seq, sender, text, kind, review_url, paywall_id, paywall_title, button_label, author_id,
            action_clicked_at, created_at, delivery, attachments, attachment_ids, expected_image_count
            FROM messages WHERE scope = ?1
            """)
        bindText(select, 1, scopeKey)
        var messages: [Int64: StoredMessage] = [:]
        while sqlite3_step(select) == SQLITE_ROW {
            let seq: Int64? = sqlite3_column_type(select, 2) == SQLITE_NULL ? nil : sqlite3_column_int64(select, 2)
            let clicked: Date? = sqlite3_column_type(select, 11) == SQLITE_NULL
                ? nil : Date(timeIntervalSinceReferenceDate: sqlite3_column_double(select, 11))
            // Attachment lists are NULL in this workload's window, as in the store's (no JSON to decode).
            messages[sqlite3_column_int64(select, 0)] = StoredMessage(
                id: text(select, 1), seq: seq, sender: MessageSender(rawValue: text(select, 3)), text: text(select, 4),
                kind: MessageKind(rawValue: text(select, 5)), reviewUrl: optionalText(select, 6),
                paywallId: optionalText(select, 7), paywallTitle: optionalText(select, 8),
                buttonLabel: optionalText(select, 9), authorId: optionalText(select, 10), actionClickedAt: clicked,
                createdAt: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(select, 12)),
                delivery: DeliveryFlags(rawValue: Int(sqlite3_column_int64(select, 13))),
                expectedImageCount: Int(sqlite3_column_int64(select, 16)))
        }
        sqlite3_reset(select)
        let images = try statement("""
            SELECT message_row, jpeg FROM images WHERE message_row IN (SELECT row FROM messages WHERE scope = ?1)
            ORDER BY message_row, position
            """)
        bindText(images, 1, scopeKey)
        while sqlite3_step(images) == SQLITE_ROW {
            let row = sqlite3_column_int64(images, 0)
            let bytes = sqlite3_column_blob(images, 1)
            let data = bytes.map { Data(bytes: $0, count: Int(sqlite3_column_bytes(images, 1))) } ?? Data()
            messages[row]?.images.append(data)
        }
        sqlite3_reset(images)
        return messages.count
    }
}
