import Foundation
import ReceptionCore

/// How a `StoredMessage` maps onto a `messages` row. Dates are stored as seconds since the reference date, the
/// value `Date` itself holds, so they read back bit for bit.
enum MessageRow {
    /// The columns `read` expects, in order.
    static let columns = """
        row, id, seq, sender, text, kind, review_url, paywall_id, paywall_title, button_label, author_id, \
        action_clicked_at, created_at, delivery, attachments, attachment_ids, expected_image_count
        """

    /// Inserts the message, or updates every column of the row with the same scope and ID; returns the row.
    static let upsert = """
        INSERT INTO messages(scope, id, seq, sender, text, kind, review_url, paywall_id, paywall_title, \
        button_label, author_id, action_clicked_at, created_at, delivery, attachments, attachment_ids, \
        expected_image_count)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)
        ON CONFLICT(scope, id) DO UPDATE SET seq = excluded.seq, sender = excluded.sender, text = excluded.text, \
        kind = excluded.kind, review_url = excluded.review_url, paywall_id = excluded.paywall_id, \
        paywall_title = excluded.paywall_title, button_label = excluded.button_label, \
        author_id = excluded.author_id, action_clicked_at = excluded.action_clicked_at, \
        created_at = excluded.created_at, delivery = excluded.delivery, attachments = excluded.attachments, \
        attachment_ids = excluded.attachment_ids, expected_image_count = excluded.expected_image_count
        RETURNING row
        """

    /// Inserts a new message; a second message with the same ID violates the unique key.
    static let insert = """
        INSERT INTO messages(scope, id, seq, sender, text, kind, review_url, paywall_id, paywall_title, \
        button_label, author_id, action_clicked_at, created_at, delivery, attachments, attachment_ids, \
        expected_image_count)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)
        RETURNING row
        """

    /// The values for `upsert` and `insert`.
    static func values(_ message: StoredMessage, scope: StorageScope) -> [SQLiteValue] {
        [
            .text(scope.key), .text(message.id), .integer(message.seq), .text(message.sender.rawValue),
            .text(message.text), .text(message.kind.rawValue), .text(message.reviewUrl), .text(message.paywallId),
            .text(message.paywallTitle), .text(message.buttonLabel), .text(message.authorId),
            .real(message.actionClickedAt?.timeIntervalSinceReferenceDate),
            .real(message.createdAt.timeIntervalSinceReferenceDate), .integer(Int64(message.delivery.rawValue)),
            .blob(encodeList(message.attachments)), .blob(encodeList(message.attachmentIds)),
            .integer(Int64(message.expectedImageCount)),
        ]
    }

    /// The message in the current row of a statement selecting `columns` (without photos), and its row ID.
    static func read(_ statement: SQLiteStatement, logger: ReceptionLogger) -> (row: Int64, message: StoredMessage) {
        let message = StoredMessage(
            id: statement.text(1), seq: statement.optionalInt64(2), sender: MessageSender(rawValue: statement.text(3)),
            text: statement.text(4), kind: MessageKind(rawValue: statement.text(5)),
            reviewUrl: statement.optionalText(6), paywallId: statement.optionalText(7),
            paywallTitle: statement.optionalText(8), buttonLabel: statement.optionalText(9),
            authorId: statement.optionalText(10),
            actionClickedAt: statement.optionalDouble(11).map(Date.init(timeIntervalSinceReferenceDate:)),
            createdAt: Date(timeIntervalSinceReferenceDate: statement.optionalDouble(12) ?? 0),
            delivery: DeliveryFlags(rawValue: Int(statement.int64(13))),
            attachments: decodeList(statement.optionalBlob(14), logger: logger),
            attachmentIds: decodeList(statement.optionalBlob(15), logger: logger),
            expectedImageCount: Int(statement.int64(16)))
        return (statement.int64(0), message)
    }

    /// Most messages have no attachments: `NULL` then, so the common append encodes no JSON at all.
    static func encodeList<T: Encodable>(_ list: [T]) -> Data? {
        list.isEmpty ? nil : try? JSONEncoder().encode(list)
    }

    /// A list column we wrote ourselves; one that no longer decodes is read as empty (with a log line) rather
    /// than hiding the whole message.
    static func decodeList<T: Decodable>(_ data: Data?, logger: ReceptionLogger) -> [T] {
        guard let data else { return [] }
        do {
            return try JSONDecoder().decode([T].self, from: data)
        } catch {
            logger.write(.error, "a stored \(T.self) list did not decode; read as empty")
            return []
        }
    }
}
