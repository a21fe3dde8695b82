/// What the dashboard shows about a device's chat (seed 001 "delivery and read status", "In chat", "Last active in
/// chat"; seed 004): delivered and read receipts of agent messages and the time of the last chat activity. Unread
/// requests touch none of them (seed 004, spec 0.9).
extension EmulatorState {
    /// The device fetched the agent messages among `messages` (a history window or page, contiguous in `seq`):
    /// each is delivered from now on, unless it already was.
    func markDelivered(conversationId: String, messages: [JSONValue]) throws {
        let seqs = messages.compactMap { $0["seq"]?.integerValue }
        guard let first = seqs.min(), let last = seqs.max() else { return }
        try db.query(
            """
            UPDATE messages SET delivered_at = ? WHERE conversation_id = ? AND sender = 'AGENT'
            AND delivered_at IS NULL AND seq BETWEEN ? AND ?
            """, [.double(now), .text(conversationId), .int(first), .int(last)])
    }

    /// An event stream announced these agent messages to the device (`data: changed`): delivered from now on.
    func markDelivered(messageIds: [String]) throws {
        for id in messageIds {
            try db.query(
                "UPDATE messages SET delivered_at = COALESCE(delivered_at, ?) WHERE id = ? AND sender = 'AGENT'",
                [.double(now), .text(id)])
        }
    }

    /// The device's read position now covers `readSeq`: its agent messages up to there are read from now on, and a
    /// read message counts as delivered too.
    func markRead(conversationId: String, through readSeq: Int64) throws {
        try db.query(
            """
            UPDATE messages SET read_at = ?, delivered_at = COALESCE(delivered_at, ?)
            WHERE conversation_id = ? AND sender = 'AGENT' AND read_at IS NULL AND seq <= ?
            """, [.double(now), .double(now), .text(conversationId), .int(readSeq)])
    }

    /// An authenticated, admitted chat request (history, page, send, read, typing, stream): "Last active in chat".
    func noteChatActivity(deviceId: String) throws {
        try db.query("UPDATE devices SET last_active_in_chat_at = ? WHERE id = ?", [.double(now), .text(deviceId)])
    }

    /// `deliveredAt` and `readAt` of a stored agent message (ISO dates or null), for the admin API.
    static func receiptsJSON(_ row: SQLRow) -> [String: JSONValue] {
        ["deliveredAt": InternetDate.json(row.double("delivered_at")), "readAt": InternetDate.json(row.double("read_at"))]
    }
}
