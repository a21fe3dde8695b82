import Digest

/// `/admin/devices/<id>/…`: what the team does to one device (spec 8.2 "Team actions to emulate").
extension EmulatorState {
    func routeAdminDevice(_ request: HTTPRequest, _ deviceId: String, _ rest: [String]) throws -> HTTPResponse {
        guard let device = try devicesJSON(deviceId).first else {
            throw APIError(404, "device_not_found", "No such device.")
        }
        switch (request.method, rest) {
        case ("GET", []): return .json(200, device)
        case ("PATCH", []): return try setDisplayName(request, deviceId: deviceId)
        case ("POST", ["seen"]): return try markSeenByTeam(deviceId: deviceId)
        case ("DELETE", []):
            try removeDevice(deviceId)
            return .json(200, [:])
        case ("GET", ["messages"]):
            let record = try conversationRecord(deviceId: deviceId)
            let messages = try record.map {
                try messagesJSON(
                    "SELECT \(Columns.messages) FROM messages WHERE conversation_id = ? ORDER BY seq", [.text($0.id)], receipts: true)
            }
            return .json(200, ["messages": .array(messages ?? [])])
        case ("POST", ["messages"]): return try agentReply(request, deviceId: deviceId)
        case ("POST", ["unverify"]):
            // seed 000: the owner marks one chat unverified; the next valid token verifies it again.
            try markUnverified(deviceId: deviceId)
            return .json(200, try devicesJSON(deviceId).first ?? .null)
        case ("POST", ["test-push"]): return .json(201, try queueTestPush(deviceId: deviceId))
        case ("POST", ["typing"]):
            guard let typing = try request.jsonObject().optionalBool("typing") else {
                throw APIError.invalidRequest("typing must be a boolean")
            }
            hub.send(typing ? "typing" : "idle", to: deviceId)
            return .json(200, [:])
        case ("POST", ["block"]), ("POST", ["unblock"]):
            try db.query("UPDATE devices SET blocked = ? WHERE id = ?", [.bool(rest == ["block"]), .text(deviceId)])
            hub.send("changed", to: deviceId)
            return .json(200, try devicesJSON(deviceId).first ?? .null)
        case ("POST", ["reset"]): return try resetSupport(deviceId)
        case ("POST", ["status"]):
            let status = try request.jsonObject().requiredString("status")
            guard !status.isEmpty, status.utf16.count <= 32 else { throw APIError.invalidRequest("status must be 1–32 characters") }
            guard let record = try conversationRecord(deviceId: deviceId) else {
                throw APIError(404, "no_conversation", "This device has no conversation yet.")
            }
            try db.query("UPDATE conversations SET status = ? WHERE id = ?", [.text(status), .text(record.id)])
            hub.send("changed", to: deviceId)
            return .json(200, ["id": .string(record.id), "status": .string(status)])
        default: throw APIError.notFound
        }
    }

    /// Dashboard "Reset support" (seed 000): deletes conversations and images, keeps the device, session, identity,
    /// metadata, push token and review-request timestamp, clears the block and chat activity (typing, Last active
    /// in chat, and In chat: the open streams end), and bumps the reset revision so the client's next request gets
    /// 409 `chat_reset` (spec 7.12).
    private func resetSupport(_ deviceId: String) throws -> HTTPResponse {
        try db.transaction {
            try db.query("DELETE FROM conversations WHERE device_id = ?", [.text(deviceId)])
            try db.query("DELETE FROM attachments WHERE device_id = ?", [.text(deviceId)])
            try db.query(
                """
                UPDATE devices SET blocked = 0, read_seq = 0, user_typing = 0, last_active_in_chat_at = NULL,
                reset_revision = reset_revision + 1 WHERE id = ?
                """,
                [.text(deviceId)])
        }
        hub.close(deviceId: deviceId)
        return .json(200, try devicesJSON(deviceId).first ?? .null)
    }

    /// `POST /admin/devices/<id>/messages`: `{kind?: TEXT|REVIEW|PAYWALL, text?, authorId?, reviewUrl?,
    /// paywallId?, buttonLabel?, photos?: [{data: Base64 JPEG, width?, height?}]}` → 201 with the message; a REVIEW
    /// card while the app has no App Store ID is 409 `app_store_id_required`.
    private func agentReply(_ request: HTTPRequest, deviceId: String) throws -> HTTPResponse {
        let body = try request.jsonObject()
        var message = NewMessage(sender: "AGENT", text: try body.optionalString("text") ?? "")
        message.kind = try body.optionalString("kind") ?? "TEXT"
        message.buttonLabel = try body.optionalString("buttonLabel")
        message.authorId = try body.optionalIdentifier("authorId")
        guard message.text.utf16.count <= 4000 else { throw APIError.invalidRequest("text is longer than 4,000") }
        if let author = message.authorId, try db.row("SELECT id FROM team WHERE id = ?", [.text(author)]) == nil {
            throw APIError.invalidRequest("authorId is not a team member")
        }
        switch message.kind {
        case "TEXT": break
        case "REVIEW":
            // seed 001 "Review cards": an agent sends one only "after an App Store ID has been configured for the app".
            guard settings.appStoreId != nil else {
                throw APIError(
                    409, "app_store_id_required",
                    "A review card can be sent only once the app has an App Store ID (Settings → Review & Offer CTAs).")
            }
            guard let url = try body.optionalString("reviewUrl"), url.hasPrefix("https://") || url.hasPrefix("http://") else {
                throw APIError.invalidRequest("a REVIEW card needs an http(s) reviewUrl")
            }
            message.reviewUrl = url
        case "PAYWALL":
            let paywallId = try body.requiredIdentifier("paywallId")
            let registered = try db.row("SELECT paywalls FROM devices WHERE id = ?", [.text(deviceId)])?.text("paywalls")
            let entry = (try? JSONValue.parse(registered ?? "[]"))?.arrayValue?.first { $0["id"]?.stringValue == paywallId }
            guard let entry else { throw APIError.invalidRequest("the device has not registered paywall \(paywallId)") }
            message.paywallId = paywallId
            message.paywallTitle = entry["title"]?.stringValue
        default:
            throw APIError.invalidRequest("kind must be TEXT, REVIEW or PAYWALL")
        }
        let photos: [JSONValue]
        switch body["photos"] {
        case nil, .null?: photos = []
        case .array(let list)?: photos = list
        default: throw APIError.invalidRequest("photos must be an array")
        }
        guard photos.count <= 5 else { throw APIError.invalidRequest("at most 5 photos") }
        guard !message.text.isEmpty || !photos.isEmpty || message.kind != "TEXT" else {
            throw APIError.invalidRequest("the message is empty")
        }
        let (record, messageId) = try db.transaction { () throws -> (ConversationRecord, String) in
            message.attachmentIds = try photos.map { try storeAgentPhoto($0, deviceId: deviceId) }
            // seed 000: the device's review-request state, kept by Reset support, removed with the device.
            if message.kind == "REVIEW" {
                try db.query("UPDATE devices SET review_requested_at = ? WHERE id = ?", [.double(now), .text(deviceId)])
            }
            return try addMessage(message, deviceId: deviceId)
        }
        try queuePush(for: message, photoCount: photos.count, conversationId: record.id, deviceId: deviceId)
        let stored = try messagesJSON("SELECT \(Columns.messages) FROM messages WHERE id = ?", [.text(messageId)], receipts: true).first ?? .null
        return .json(201, ["conversationId": .string(record.id), "message": stored])
    }

    private func storeAgentPhoto(_ photo: JSONValue, deviceId: String) throws -> String {
        guard let fields = photo.objectValue, let text = photo["data"]?.stringValue,
            let data = Base64.decode(text, alphabet: .standard), data.starts(with: [0xFF, 0xD8, 0xFF])
        else { throw APIError.invalidRequest("a photo is {data: standard Base64 of a JPEG}") }
        // The same pixel bounds as a device's reservation (spec 4.4 sizes reach the client as they are stored).
        let width = try fields.optionalInt("width", in: Self.photoSides)
        let height = try fields.optionalInt("height", in: Self.photoSides)
        let id = newID("att_")
        try db.query(
            """
            INSERT INTO attachments (id, device_id, content_type, bytes, width, height, checksum, data, uploaded, created_at)
            VALUES (?, ?, 'image/jpeg', ?, ?, ?, ?, ?, 1, ?)
            """,
            [
                .text(id), .text(deviceId), .int(Int64(data.count)), .optional(width), .optional(height),
                .text(Base64.encode(SHA256.hash(data))), .blob(data),
                .double(now),
            ])
        return id
    }

    /// Devices as the team sees them (all, the one with `id`, or those matching the search text `matching`).
    func devicesJSON(_ id: String?, matching query: String? = nil) throws -> [JSONValue] {
        let rows: [SQLRow]
        if let id {
            rows = try db.query("SELECT \(Columns.devices) FROM devices WHERE id = ?", [.text(id)])
        } else if let query {
            rows = try db.query("SELECT \(Columns.devices) FROM devices WHERE \(Self.searchCondition) ORDER BY rowid", [.text(query)])
        } else {
            rows = try db.query("SELECT \(Columns.devices) FROM devices ORDER BY rowid")
        }
        return try rows.map { row in
            let deviceId = row.text("id") ?? ""
            let record = try conversationRecord(deviceId: deviceId)
            let streams = hub.count(deviceId: deviceId)
            var device: [String: JSONValue] = [
                "id": .string(deviceId), "createdAt": .string(InternetDate.string(row.double("created_at") ?? 0)),
                "info": (try? JSONValue.parse(row.text("info") ?? "{}")) ?? .null,
                "externalUserId": .optional(row.text("external_user_id")), "name": .optional(row.text("name")),
                "email": .optional(row.text("email")), "language": .optional(row.text("language")),
                "metadata": (try? JSONValue.parse(row.text("metadata") ?? "{}")) ?? .null,
                "paywalls": (try? JSONValue.parse(row.text("paywalls") ?? "[]")) ?? .null,
                "pushToken": .optional(row.text("push_token")), "pushEnvironment": .optional(row.text("push_environment")),
                "updatesAppBadge": row.bool("updates_app_badge").map(JSONValue.bool) ?? .null,
                "verifiedUserId": .optional(row.text("verified_user_id")),
                "verifiedName": .optional(row.text("verified_name")), "verifiedEmail": .optional(row.text("verified_email")),
                "blocked": .bool(row.bool("blocked") ?? false), "resetRevision": .int(row.int("reset_revision") ?? 0),
                "readSeq": .int(row.int("read_seq") ?? 0), "typing": .bool(row.bool("user_typing") ?? false),
                "conversationId": .optional(record?.id), "status": .optional(record?.status),
                "openStreams": .int(Int64(streams)),
                // seed 001: "In chat" is a live chat connection; "Last active in chat" the last chat request.
                "inChat": .bool(streams > 0),
                "lastActiveInChatAt": InternetDate.json(row.double("last_active_in_chat_at")),
            ]
            // seed 002: APNs's last rejection for this device, shown until a delivery succeeds.
            device["pushRejection"] = row.text("push_rejection").flatMap { try? JSONValue.parse($0) } ?? .null
            device["displayName"] = .optional(row.text("display_name"))
            device["lastSeenAt"] = InternetDate.json(row.double("last_seen_at"))
            device["verifiedAt"] = InternetDate.json(row.double("verified_at"))
            device["reviewRequestedAt"] = InternetDate.json(row.double("review_requested_at"))
            device.merge(Self.identityJSON(row)) { _, identity in identity }
            return JSONValue.object(device)
        }
    }
}
