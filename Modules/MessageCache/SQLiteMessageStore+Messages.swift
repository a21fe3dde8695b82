import Foundation
import ReceptionCore

extension SQLiteMessageStore {
    public func loadWindow() throws(ReceptionError) -> [StoredMessage] {
        try access("load the window") { connection, scope throws(SQLiteFailure) in
            StoredMessage.inListOrder(try Self.readMessages(.window, connection, scope, logger: logger))
        }
    }

    public func save(_ messages: [StoredMessage]) throws(ReceptionError) {
        guard !messages.isEmpty else { return }
        let limit = confirmedWindow
        try access("save messages") { connection, scope throws(SQLiteFailure) in
            try connection.transaction { () throws(SQLiteFailure) in
                for message in messages { try Self.upsert(message, connection, scope) }
                try Self.trimWindow(connection, scope, keeping: limit)
            }
        }
    }

    public func removeConfirmed(notIn window: Set<Int64>) throws(ReceptionError) {
        try access("drop messages outside the window") { connection, scope throws(SQLiteFailure) in
            try connection.transaction { () throws(SQLiteFailure) in
                let stored = try connection.with(
                    "SELECT seq FROM messages WHERE scope = ?1 AND seq IS NOT NULL", [.text(scope.key)]
                ) { statement throws(SQLiteFailure) -> [Int64] in
                    var seqs: [Int64] = []
                    while try statement.step() { seqs.append(statement.int64(0)) }
                    return seqs
                }
                // Photos go with their row (ON DELETE CASCADE).
                for seq in stored where !window.contains(seq) {
                    try connection.run(
                        "DELETE FROM messages WHERE scope = ?1 AND seq = ?2", [.text(scope.key), .integer(seq)])
                }
            }
        }
    }

    public func removeUnsent(_ id: String) throws(ReceptionError) {
        try access("remove an unsent message") { connection, scope throws(SQLiteFailure) in
            try connection.run(
                "DELETE FROM messages WHERE scope = ?1 AND id = ?2 AND seq IS NULL", [.text(scope.key), .text(id)])
        }
    }

    public func enqueue(_ message: StoredMessage) throws(ReceptionError) {
        guard !message.isConfirmed else {
            logger.write(.error, "refused to enqueue a confirmed message")
            throw .invalidInput
        }
        try access("enqueue a message") { connection, scope throws(SQLiteFailure) in
            try connection.transaction { () throws(SQLiteFailure) in
                let row = try connection.with(MessageRow.insert, MessageRow.values(message, scope: scope)) {
                    statement throws(SQLiteFailure) in
                    _ = try statement.step()
                    return statement.int64(0)
                }
                try Self.insertImages(message.images, row: row, connection)
            }
        }
    }

    public func unsentMessages() throws(ReceptionError) -> [StoredMessage] {
        try access("read the outbox") { connection, scope throws(SQLiteFailure) in
            try Self.readMessages(.outbox, connection, scope, logger: logger)
        }
    }

    public func setDelivery(_ delivery: DeliveryFlags, of id: String) throws(ReceptionError) {
        try access("record delivery") { connection, scope throws(SQLiteFailure) in
            try connection.run(
                "UPDATE messages SET delivery = ?3 WHERE scope = ?1 AND id = ?2 AND seq IS NULL",
                [.text(scope.key), .text(id), .integer(Int64(delivery.rawValue))])
        }
    }

    public func appendAttachmentID(_ attachmentID: String, to id: String) throws(ReceptionError) {
        try access("save an attachment ID") { connection, scope throws(SQLiteFailure) in
            try connection.transaction { () throws(SQLiteFailure) in
                let key: [SQLiteValue] = [.text(scope.key), .text(id)]
                let found = try connection.with(
                    "SELECT attachment_ids FROM messages WHERE scope = ?1 AND id = ?2", key
                ) { statement throws(SQLiteFailure) -> [String]? in
                    guard try statement.step() else { return nil }
                    return MessageRow.decodeList(statement.optionalBlob(0), logger: logger)
                }
                guard var ids = found else { return }
                ids.append(attachmentID)
                try connection.run(
                    "UPDATE messages SET attachment_ids = ?3 WHERE scope = ?1 AND id = ?2",
                    key + [.blob(MessageRow.encodeList(ids))])
            }
        }
    }

    public func clearAttachmentIDs(of id: String) throws(ReceptionError) {
        try access("clear attachment IDs") { connection, scope throws(SQLiteFailure) in
            try connection.run(
                "UPDATE messages SET attachment_ids = NULL WHERE scope = ?1 AND id = ?2", [.text(scope.key), .text(id)])
        }
    }

    public func complete(_ id: String, with confirmed: StoredMessage) throws(ReceptionError) {
        var replacement = confirmed
        replacement.id = id
        let limit = confirmedWindow
        try access("complete a message") { connection, scope throws(SQLiteFailure) in
            try connection.transaction { () throws(SQLiteFailure) in
                // A message erased by a chat reset or logout while it was being sent stays erased.
                guard try connection.integer(
                    "SELECT 1 FROM messages WHERE scope = ?1 AND id = ?2", [.text(scope.key), .text(id)]) != nil
                else { return }
                try Self.upsert(replacement, connection, scope)
                try Self.trimWindow(connection, scope, keeping: limit)
            }
        }
    }

    // MARK: Rows

    private static func upsert(
        _ message: StoredMessage, _ connection: SQLiteConnection, _ scope: StorageScope
    ) throws(SQLiteFailure) {
        let row = try connection.with(MessageRow.upsert, MessageRow.values(message, scope: scope)) {
            statement throws(SQLiteFailure) in
            _ = try statement.step()
            return statement.int64(0)
        }
        if message.images.isEmpty {
            try connection.run("DELETE FROM images WHERE message_row = ?1", [.integer(row)])
            return
        }
        // Photos never change after enqueue; rewriting megabytes on every status change would cost the most of
        // any write here, so the stored bytes are kept when the count still matches.
        let stored = try connection.integer("SELECT count(*) FROM images WHERE message_row = ?1", [.integer(row)])
        guard stored != Int64(message.images.count) else { return }
        try connection.run("DELETE FROM images WHERE message_row = ?1", [.integer(row)])
        try insertImages(message.images, row: row, connection)
    }

    private static func insertImages(_ images: [Data], row: Int64, _ connection: SQLiteConnection) throws(SQLiteFailure) {
        for (position, jpeg) in images.enumerated() {
            try connection.run(
                "INSERT INTO images(message_row, position, jpeg) VALUES (?1, ?2, ?3)",
                [.integer(row), .integer(Int64(position)), .blob(jpeg)])
        }
    }

    /// Spec 7.17: keeps the newest `limit` confirmed messages; unsent ones (no `seq`) are never trimmed.
    /// Runs inside the caller's transaction, so the insert and its trim commit together.
    private static func trimWindow(
        _ connection: SQLiteConnection, _ scope: StorageScope, keeping limit: Int
    ) throws(SQLiteFailure) {
        try connection.run("""
            DELETE FROM messages WHERE scope = ?1 AND seq < (
                SELECT seq FROM messages WHERE scope = ?1 AND seq IS NOT NULL ORDER BY seq DESC LIMIT 1 OFFSET ?2)
            """, [.text(scope.key), .integer(Int64(limit - 1))])
    }

    /// Which messages a read returns; each has its SQL written out once, so a read neither builds nor hashes a
    /// new statement text.
    enum Selection {
        case window
        case outbox

        var messagesSQL: String {
            switch self {
            case .window: Self.windowMessages
            case .outbox: Self.outboxMessages
            }
        }

        var imagesSQL: String {
            switch self {
            case .window: Self.windowImages
            case .outbox: Self.outboxImages
            }
        }

        // No ORDER BY: SQLite would sort through a temporary B-tree; the rows are put in order in Swift instead.
        private static let windowMessages = "SELECT \(MessageRow.columns) FROM messages WHERE scope = ?1"
        private static let outboxMessages =
            "SELECT \(MessageRow.columns) FROM messages WHERE scope = ?1 AND seq IS NULL"
        private static let windowImages = """
            SELECT message_row, jpeg FROM images
            WHERE message_row IN (SELECT row FROM messages WHERE scope = ?1) ORDER BY message_row, position
            """
        private static let outboxImages = """
            SELECT message_row, jpeg FROM images
            WHERE message_row IN (SELECT row FROM messages WHERE scope = ?1 AND seq IS NULL)
            ORDER BY message_row, position
            """
    }

    /// The selected messages in insertion order, with their photos.
    private static func readMessages(
        _ selection: Selection, _ connection: SQLiteConnection, _ scope: StorageScope, logger: ReceptionLogger
    ) throws(SQLiteFailure) -> [StoredMessage] {
        let values: [SQLiteValue] = [.text(scope.key)]
        var rows: [Int64] = []
        var messages: [StoredMessage] = []
        try connection.with(selection.messagesSQL, values) {
            statement throws(SQLiteFailure) in
            while try statement.step() {
                let (row, message) = MessageRow.read(statement, logger: logger)
                rows.append(row)
                messages.append(message)
            }
        }
        if zip(rows, rows.dropFirst()).contains(where: { $0 > $1 }) {
            let order = stableOrder(count: rows.count) { rows[$0] < rows[$1] }
            rows = order.map { rows[$0] }
            messages = order.map { messages[$0] }
        }
        // Both lists are now in row order, so photos are attached by walking the two lists together.
        var position = 0
        try connection.with(selection.imagesSQL, values) { statement throws(SQLiteFailure) in
            while try statement.step() {
                let row = statement.int64(0)
                while position < rows.count, rows[position] < row { position += 1 }
                guard position < rows.count, rows[position] == row else { continue }
                messages[position].images.append(statement.optionalBlob(1) ?? Data())
            }
        }
        return messages
    }
}
