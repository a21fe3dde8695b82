/// A device's conversation row.
struct ConversationRecord {
    var id: String
    var status: String
    var createdAt: Double
    var lastMessageAt: Double?
    var lastSeq: Int64
}

/// A new message before it is stored.
struct NewMessage {
    var sender: String
    var text: String
    var clientId: String?
    var kind = "TEXT"
    var reviewUrl: String?
    var paywallId: String?
    var paywallTitle: String?
    var buttonLabel: String?
    var authorId: String?
    /// Attachment IDs (already stored, owned by the device) in order.
    var attachmentIds: [String] = []
}

/// Conversation and message storage shared by the device routes and the admin API.
extension EmulatorState {
    /// Messages per `GET conversation` window and per `messages?after=` page (spec 0.7, 8.1.5).
    static let pageSize = 50

    func conversationRecord(deviceId: String) throws -> ConversationRecord? {
        guard let row = try db.row("SELECT \(Columns.conversations) FROM conversations WHERE device_id = ?", [.text(deviceId)]),
            let id = row.text("id"), let status = row.text("status")
        else { return nil }
        return ConversationRecord(
            id: id, status: status, createdAt: row.double("created_at") ?? 0, lastMessageAt: row.double("last_message_at"),
            lastSeq: row.int("last_seq") ?? 0)
    }

    /// `AGENT` messages after the device's read sequence (spec 8.2).
    func unreadCount(conversationId: String, readSeq: Int64) throws -> Int64 {
        try db.row(
            "SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ? AND sender = 'AGENT' AND seq > ?",
            [.text(conversationId), .int(readSeq)])?.int("n") ?? 0
    }

    /// The customer's messages after `teamReadSeq`: what the team has not read yet.
    func teamUnreadCount(conversationId: String, teamReadSeq: Int64) throws -> Int64 {
        try db.row(
            "SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ? AND sender = 'USER' AND seq > ?",
            [.text(conversationId), .int(teamReadSeq)])?.int("n") ?? 0
    }

    /// The full Conversation object of spec 4.3.
    func conversationJSON(_ record: ConversationRecord, readSeq: Int64) throws -> JSONValue {
        [
            "id": .string(record.id), "status": .string(record.status),
            "unreadForUser": .int(try unreadCount(conversationId: record.id, readSeq: readSeq)),
            "createdAt": .string(InternetDate.string(record.createdAt)),
        ]
    }

    /// Messages of `sql` (which selects from `messages`) as spec 4.2 objects, with attachments and signed URLs;
    /// with `receipts` (the admin API), agent messages also carry `deliveredAt` and `readAt`.
    func messagesJSON(_ sql: String, _ arguments: [SQLValue], receipts: Bool = false) throws -> [JSONValue] {
        try db.query(sql, arguments).map { row in
            let id = row.text("id") ?? ""
            var message: [String: JSONValue] = [
                "id": .string(id), "seq": .int(row.int("seq") ?? 0), "sender": .string(row.text("sender") ?? "AGENT"),
                "text": .string(row.text("text") ?? ""), "kind": .string(row.text("kind") ?? "TEXT"),
                "createdAt": .string(InternetDate.string(row.double("created_at") ?? 0)),
                "clientId": .optional(row.text("client_id")),
                "attachments": .array(
                    try db.query(
                        "SELECT \(Columns.attachments) FROM attachments WHERE message_id = ? ORDER BY position", [.text(id)]
                    ).map(attachmentJSON)),
            ]
            for (key, column) in [
                ("reviewUrl", "review_url"), ("paywallId", "paywall_id"), ("paywallTitle", "paywall_title"),
                ("buttonLabel", "button_label"), ("authorId", "author_id"),
            ] {
                if let value = row.text(column) { message[key] = .string(value) }
            }
            if message["kind"] != "TEXT" {
                message["actionClickedAt"] = InternetDate.json(row.double("action_clicked_at"))
            }
            if receipts, message["sender"] == "AGENT" { message.merge(Self.receiptsJSON(row)) { _, receipt in receipt } }
            return .object(message)
        }
    }

    /// spec 4.4 with a signed download URL that expires (spec 3.18).
    func attachmentJSON(_ row: SQLRow) -> JSONValue {
        let id = row.text("id") ?? ""
        var object: [String: JSONValue] = [
            "id": .string(id), "contentType": .string(row.text("content_type") ?? "image/jpeg"),
            "url": .string(
                signedLink(route: "files", purpose: "get", id: id, lifetime: configuration.attachmentURLLifetime)),
        ]
        if let width = row.int("width") { object["width"] = .int(width) }
        if let height = row.int("height") { object["height"] = .int(height) }
        return .object(object)
    }

    /// `{blocked, verificationRequired}` (spec 4.6).
    func deviceFlags(_ device: AuthenticatedDevice) -> JSONValue {
        ["blocked": .bool(device.blocked), "verificationRequired": .bool(requiresVerification(device))]
    }

    /// Stores `message` in the device's conversation (created, or reopened when resolved — spec 0.8), attaches
    /// its photos, notifies the device's streams and returns `(conversation, message ID)`.
    func addMessage(_ message: NewMessage, deviceId: String) throws -> (ConversationRecord, String) {
        let result = try db.transaction { () throws -> (ConversationRecord, String) in
            var conversation: ConversationRecord
            if let existing = try conversationRecord(deviceId: deviceId) {
                conversation = existing
            } else {
                conversation = ConversationRecord(
                    id: newID("conv_"), status: "OPEN", createdAt: now, lastMessageAt: nil, lastSeq: 0)
                try db.query(
                    "INSERT INTO conversations (id, device_id, status, created_at) VALUES (?, ?, 'OPEN', ?)",
                    [.text(conversation.id), .text(deviceId), .double(now)])
            }
            conversation.lastSeq += 1
            conversation.lastMessageAt = now
            if message.sender == "USER" { conversation.status = "OPEN" }
            let id = newID("msg_")
            try db.query(
                """
                INSERT INTO messages (id, conversation_id, seq, client_id, sender, text, kind, review_url, paywall_id,
                paywall_title, button_label, author_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(id), .text(conversation.id), .int(conversation.lastSeq), .optional(message.clientId),
                    .text(message.sender), .text(message.text), .text(message.kind), .optional(message.reviewUrl),
                    .optional(message.paywallId), .optional(message.paywallTitle), .optional(message.buttonLabel),
                    .optional(message.authorId), .double(now),
                ])
            for (position, attachmentId) in message.attachmentIds.enumerated() {
                try db.query(
                    "UPDATE attachments SET message_id = ?, position = ? WHERE id = ?",
                    [.text(id), .int(Int64(position)), .text(attachmentId)])
            }
            try db.query(
                "UPDATE conversations SET last_seq = ?, last_message_at = ?, status = ? WHERE id = ?",
                [.int(conversation.lastSeq), .double(now), .text(conversation.status), .text(conversation.id)])
            if message.sender == "AGENT",
                let readSeq = try db.row("SELECT read_seq FROM devices WHERE id = ?", [.text(deviceId)])?.int("read_seq"),
                readSeq >= conversation.lastSeq
            {
                // A client that read ahead (throughSeq beyond the last message) already covers this one: it is
                // read, as the unread count says.
                try markRead(conversationId: conversation.id, through: readSeq)
            }
            return (conversation, id)
        }
        // The `changed` line names an agent reply, so a stream that carries it records the delivery.
        hub.send("changed", to: deviceId, messageId: message.sender == "AGENT" ? result.1 : nil)
        return result
    }
}

extension SQLRow {
    /// A REAL column (an INTEGER reads as its value too).
    func double(_ column: String) -> Double? {
        switch columns[column] {
        case .double(let value)?: return value
        case .int(let value)?: return Double(value)
        default: return nil
        }
    }
}
