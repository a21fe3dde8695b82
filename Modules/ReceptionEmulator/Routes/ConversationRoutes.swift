/// spec 3.6–3.13: history window, paging, send, read, unread, typing, event stream and action clicks.
extension EmulatorState {
    /// Largest `seq`/`throughSeq` the protocol allows (2^53 − 1, spec 1.6).
    static let maximumSeq: Int64 = 9_007_199_254_740_991

    /// A `seq` as a query value: decimal digits only (no sign, no spaces), at most 2^53 − 1 (spec 1.6); `nil`
    /// otherwise. Sixteen digits at most, so the conversion cannot overflow.
    static func sequenceNumber(_ text: String) -> Int64? {
        let digits = text.utf8
        guard !digits.isEmpty, digits.count <= 16, digits.allSatisfy({ (0x30...0x39).contains($0) }),
            let value = Int64(text), value <= maximumSeq
        else { return nil }
        return value
    }

    /// `GET /v1/conversation` (spec 3.6): the latest 50 messages, flags, team, `boundedRead`, and `limits` when
    /// `limits=1` was asked.
    func conversation(_ request: HTTPRequest) throws -> HTTPResponse {
        let device = try authenticate(request)
        try admit(scopes: ["requests"], subject: device.id)
        try noteChatActivity(deviceId: device.id)
        let record = try conversationRecord(deviceId: device.id)
        let messages = try record.map {
            try messagesJSON(
                "SELECT \(Columns.messages) FROM (SELECT \(Columns.messages) FROM messages WHERE conversation_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq",
                [.text($0.id), .int(Int64(Self.pageSize))])
        } ?? []
        if let record { try markDelivered(conversationId: record.id, messages: messages) }
        var body: [String: JSONValue] = [
            "conversation": try record.map { try conversationJSON($0, readSeq: device.readSeq) } ?? .null,
            "messages": .array(messages), "device": deviceFlags(device),
            "team": try teamJSON(conversationId: record?.id), "boundedRead": true,
        ]
        if request.query["limits"] == "1" {
            body["limits"] = [
                "messages": .int(Int64(secondsToWait(scope: "messages", subject: device.id))),
                "uploads": .int(Int64(secondsToWait(scope: "uploads", subject: device.id))),
            ]
        }
        return .json(200, .object(body))
    }

    /// `GET /v1/conversation/messages?after=N` (spec 3.7, 8.1.5): up to 50 messages with `seq > N`, ascending, and
    /// `hasMore` when another page follows.
    func messagesPage(_ request: HTTPRequest) throws -> HTTPResponse {
        let device = try authenticate(request)
        try admit(scopes: ["requests"], subject: device.id)
        guard let after = Self.sequenceNumber(request.query["after"] ?? "0") else {
            throw APIError.invalidRequest("after must be a decimal whole number in 0…2^53−1")
        }
        try noteChatActivity(deviceId: device.id)
        let record = try conversationRecord(deviceId: device.id)
        var messages: [JSONValue] = []
        if let record {
            messages = try messagesJSON(
                "SELECT \(Columns.messages) FROM messages WHERE conversation_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                [.text(record.id), .int(after), .int(Int64(Self.pageSize + 1))])
        }
        let hasMore = messages.count > Self.pageSize
        let page = Array(messages.prefix(Self.pageSize))
        if let record { try markDelivered(conversationId: record.id, messages: page) }
        return .json(
            200,
            [
                "messages": .array(page), "hasMore": .bool(hasMore),
                "conversation": record.map { ["id": .string($0.id), "status": .string($0.status)] } ?? .null,
                "device": deviceFlags(device), "team": try teamJSON(conversationId: record?.id), "boundedRead": true,
            ])
    }

    /// `POST /v1/conversation/messages` (spec 3.8): 201 `{conversation, message}`; the same `clientId` again returns
    /// the stored message instead of a second one.
    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        let device = try authenticate(request)
        let body = try request.jsonObject()
        // Identifiers refuse U+0000; the text keeps it whole (spec 3.8 limits the text by length only).
        let clientId = try body.requiredIdentifier("clientId")
        let text = try body.requiredString("text")
        guard let idValues = body["attachmentIds"]?.arrayValue else {
            throw APIError.invalidRequest("attachmentIds must be an array")
        }
        let attachmentIds = idValues.compactMap(\.stringValue).filter { !$0.containsNUL }
        guard attachmentIds.count == idValues.count, attachmentIds.count <= 5 else {
            throw APIError.invalidRequest("attachmentIds must be at most 5 strings without U+0000")
        }
        guard !clientId.isEmpty, clientId.utf16.count <= 128 else {
            throw APIError.invalidRequest("clientId must have 1–128 characters")
        }
        guard text.utf16.count <= 4000 else { throw APIError.invalidRequest("text is longer than 4,000 characters") }
        guard !text.isEmpty || !attachmentIds.isEmpty else { throw APIError.invalidRequest("the message is empty") }
        try admit(
            scopes: attachmentIds.isEmpty ? ["messages", "requests"] : ["messages", "uploads", "requests"],
            subject: device.id)
        // A refused send (blocked, verification required) is still the person acting in the chat.
        try noteChatActivity(deviceId: device.id)
        try checkMaySend(device)
        if let record = try conversationRecord(deviceId: device.id),
            let existing = try messagesJSON(
                "SELECT \(Columns.messages) FROM messages WHERE conversation_id = ? AND client_id = ?", [.text(record.id), .text(clientId)]
            ).first
        {
            return .json(201, ["conversation": try conversationJSON(record, readSeq: device.readSeq), "message": existing])
        }
        try checkAttachments(attachmentIds, deviceId: device.id)
        let (record, messageId) = try addMessage(
            NewMessage(sender: "USER", text: text, clientId: clientId, attachmentIds: attachmentIds), deviceId: device.id)
        let message = try messagesJSON("SELECT \(Columns.messages) FROM messages WHERE id = ?", [.text(messageId)]).first ?? .null
        return .json(201, ["conversation": try conversationJSON(record, readSeq: device.readSeq), "message": message])
    }

    /// spec 8.2: every ID must be a finished upload of this device, not yet used, holding a JPEG.
    private func checkAttachments(_ ids: [String], deviceId: String) throws {
        guard Set(ids).count == ids.count else { throw APIError(400, "invalid_attachment", "An attachment repeats.") }
        for id in ids {
            guard let row = try db.row("SELECT \(Columns.attachmentsWithData) FROM attachments WHERE id = ? AND device_id = ?", [.text(id), .text(deviceId)]),
                row.text("message_id") == nil
            else { throw APIError(400, "invalid_attachment", "Unknown attachment \(id).") }
            guard row.bool("uploaded") == true else {
                throw APIError(409, "upload_incomplete", "Attachment \(id) has not been uploaded.")
            }
            guard let data = row.blob("data"), data.starts(with: [0xFF, 0xD8, 0xFF]) else {
                throw APIError(400, "invalid_attachment", "Attachment \(id) is not a JPEG image.")
            }
        }
    }

    /// `POST /v1/conversation/read` (spec 3.9): bounded `{conversationId, throughSeq}` → `{conversationId, readSeq,
    /// unreadCount}`; an empty body is the legacy read of everything → `{}`.
    func read(_ request: HTTPRequest) throws -> HTTPResponse {
        let device = try authenticate(request)
        try admit(scopes: ["requests"], subject: device.id)
        try noteChatActivity(deviceId: device.id)
        let record = try conversationRecord(deviceId: device.id)
        let isLegacy = request.body.allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if isLegacy {
            if let record {
                try db.query(
                    "UPDATE devices SET read_seq = MAX(read_seq, ?) WHERE id = ?", [.int(record.lastSeq), .text(device.id)])
                try markRead(conversationId: record.id, through: max(device.readSeq, record.lastSeq))
            }
            return .json(200, [:])
        }
        let body = try request.jsonObject()
        let conversationId = try body.requiredIdentifier("conversationId")
        guard let throughSeq = try body.optionalInt("throughSeq", in: 0...Self.maximumSeq) else {
            throw APIError.invalidRequest("throughSeq must be a whole number in 0…2^53−1")
        }
        guard let record, record.id == conversationId else {
            throw APIError(404, "no_conversation", "This device has no such conversation.")
        }
        let readSeq = max(device.readSeq, throughSeq)
        try db.query("UPDATE devices SET read_seq = ? WHERE id = ?", [.int(readSeq), .text(device.id)])
        try markRead(conversationId: record.id, through: readSeq)
        return .json(
            200,
            [
                "conversationId": .string(record.id), "readSeq": .int(readSeq),
                "unreadCount": .int(try unreadCount(conversationId: record.id, readSeq: readSeq)),
            ])
    }

    /// `GET /v1/conversation/unread` (spec 3.10). Not chat activity (spec 0.9).
    func unread(_ request: HTTPRequest) throws -> HTTPResponse {
        let device = try authenticate(request)
        try admit(scopes: ["requests"], subject: device.id)
        let record = try conversationRecord(deviceId: device.id)
        let pushToken = try db.row("SELECT push_token FROM devices WHERE id = ?", [.text(device.id)])?.text("push_token")
        let stages = settings.unreadPolling.map { stages in
            JSONValue.array(stages.map { ["forMinutes": .int(Int64($0.forMinutes)), "everySeconds": .int(Int64($0.everySeconds))] })
        }
        return .json(
            200,
            [
                "hasConversation": .bool(record != nil),
                "unreadCount": .int(try record.map { try unreadCount(conversationId: $0.id, readSeq: device.readSeq) } ?? 0),
                "status": .optional(record?.status),
                "lastMessageAt": InternetDate.json(record?.lastMessageAt),
                "push": .bool(pushAvailable && pushToken != nil),
                "unreadPolling": stages ?? .null,
            ])
    }

    /// `POST /v1/conversation/typing` (spec 3.11): `{typing: bool}` → `{}`; the team sees it in the admin API.
    func typing(_ request: HTTPRequest) throws -> HTTPResponse {
        let device = try authenticate(request)
        try admit(scopes: ["requests"], subject: device.id)
        guard let typing = try request.jsonObject().optionalBool("typing") else {
            throw APIError.invalidRequest("typing must be a boolean")
        }
        try noteChatActivity(deviceId: device.id)
        if device.blocked { throw APIError(403, "blocked", "This device is blocked.") }
        try db.query("UPDATE devices SET user_typing = ? WHERE id = ?", [.bool(typing), .text(device.id)])
        return .json(200, [:])
    }

    /// `GET /v1/conversation/events` (spec 3.12, 8.1.8): 404 `no_conversation` before the first message, else a
    /// stream that ends with `data: reconnect` when the access token expires.
    func events(_ request: HTTPRequest) throws -> HTTPResponse {
        let device = try authenticate(request)
        try admit(scopes: ["stream", "requests"], subject: device.id)
        guard try conversationRecord(deviceId: device.id) != nil else {
            throw APIError(404, "no_conversation", "This device has no conversation yet.")
        }
        // One device holds at most `EventHub.streamsPerDevice` streams: adding this one ends its oldest.
        try noteChatActivity(deviceId: device.id)
        let stream = EventStream(
            deviceId: device.id, pingInterval: configuration.pingInterval, lifetime: device.tokenExpiresAt - now,
            received: streamReceived)
        hub.add(stream)
        return HTTPResponse(
            status: 200,
            headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")],
            body: .stream(stream))
    }

    /// `POST /v1/conversation/action-click` (spec 3.13): records the first click on a review or paywall card;
    /// 404 `action_not_found` for any other message.
    func actionClick(_ request: HTTPRequest) throws -> HTTPResponse {
        let device = try authenticate(request)
        try admit(scopes: ["requests"], subject: device.id)
        let messageId = try request.jsonObject().requiredIdentifier("messageId")
        guard let record = try conversationRecord(deviceId: device.id),
            try db.row(
                "SELECT id FROM messages WHERE id = ? AND conversation_id = ? AND kind IN ('REVIEW', 'PAYWALL')",
                [.text(messageId), .text(record.id)]) != nil
        else { throw APIError(404, "action_not_found", "No card message with this ID.") }
        try db.query(
            "UPDATE messages SET action_clicked_at = COALESCE(action_clicked_at, ?) WHERE id = ?",
            [.double(now), .text(messageId)])
        return .json(200, [:])
    }
}
