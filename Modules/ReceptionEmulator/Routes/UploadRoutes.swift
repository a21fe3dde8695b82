import Digest

/// spec 3.14–3.15 and 3.18: upload reservation, the storage PUT, attachment resolution and signed downloads.
extension EmulatorState {
    /// `POST /v1/uploads` (spec 3.14): reserves an attachment; the same `requestId` again returns the same
    /// reservation.
    func reserveUpload(_ request: HTTPRequest) throws -> HTTPResponse {
        let device = try authenticate(request)
        let body = try request.jsonObject()
        let requestId = try body.requiredString("requestId")
        let contentType = try body.requiredString("contentType")
        let checksum = try body.requiredString("checksum")
        guard let bytes = try body.optionalInt("bytes"), let width = try body.optionalInt("width"),
            let height = try body.optionalInt("height")
        else { throw APIError.invalidRequest("bytes, width and height are required whole numbers") }
        guard !requestId.isEmpty, requestId.utf16.count <= 64 else {
            throw APIError.invalidRequest("requestId must have 1–64 characters")
        }
        guard contentType == "image/jpeg" else { throw APIError.invalidRequest("contentType must be image/jpeg") }
        guard (1...Int64(BodyLimits.upload)).contains(bytes) else {
            throw APIError.invalidRequest("bytes must be 1…1,048,576")
        }
        guard width > 0, height > 0, width <= 100_000, height <= 100_000 else {
            throw APIError.invalidRequest("width and height must be positive")
        }
        guard Base64.decode(checksum, alphabet: .standard)?.count == SHA256.byteCount else {
            throw APIError.invalidRequest("checksum must be the standard Base64 of a SHA-256 digest")
        }
        try admit(scopes: ["uploads", "requests"], subject: device.id)
        try checkMaySend(device)
        if let existing = try db.row(
            "SELECT * FROM attachments WHERE device_id = ? AND request_id = ?", [.text(device.id), .text(requestId)])
        {
            guard existing.text("checksum") == checksum, existing.int("bytes") == bytes else {
                throw APIError.invalidRequest("requestId was reserved for other bytes")
            }
            return .json(200, reservation(attachmentId: existing.text("id") ?? ""))
        }
        let attachmentId = newID("att_")
        try db.query(
            """
            INSERT INTO attachments (id, device_id, request_id, content_type, bytes, width, height, checksum, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(attachmentId), .text(device.id), .text(requestId), .text(contentType), .int(bytes), .int(width),
                .int(height), .text(checksum), .double(now),
            ])
        return .json(201, reservation(attachmentId: attachmentId))
    }

    /// The entity tag of a reserved, still empty object: the PUT's `If-Match` (spec 3.14).
    private func pendingTag(_ attachmentId: String) -> String { "\"pending-\(attachmentId)\"" }

    private func reservation(attachmentId: String) -> JSONValue {
        [
            "attachmentId": .string(attachmentId),
            "uploadUrl": .string("\(baseURL)/storage/\(attachmentId)?sig=\(signature("put:\(attachmentId)"))"),
            "headers": ["Content-Type": "image/jpeg", "If-Match": .string(pendingTag(attachmentId))],
        ]
    }

    /// `PUT /storage/<id>`: needs the signature, the reservation's `If-Match` (412 once the object was written:
    /// an earlier PUT succeeded) and exactly the reserved bytes (size and SHA-256 checked).
    func storagePut(_ request: HTTPRequest, attachmentId: String) throws -> HTTPResponse {
        guard request.query["sig"] == signature("put:\(attachmentId)"),
            let row = try db.row("SELECT * FROM attachments WHERE id = ?", [.text(attachmentId)])
        else { throw APIError(403, "invalid_signature", "The upload URL is not valid.") }
        guard row.bool("uploaded") != true, request.header("if-match") == pendingTag(attachmentId) else {
            throw APIError(412, "precondition_failed", "The object has already been written or If-Match is wrong.")
        }
        guard request.header("content-type") == row.text("content_type") else {
            throw APIError(400, "invalid_content_type", "Content-Type must match the reservation.")
        }
        guard Int64(request.body.count) == row.int("bytes") else {
            throw APIError(400, "size_mismatch", "The body size differs from the reservation.")
        }
        let checksum = Base64.encode(SHA256.hash(request.body))
        guard checksum == row.text("checksum") else {
            throw APIError(400, "checksum_mismatch", "The SHA-256 of the body differs from the reservation.")
        }
        try db.query("UPDATE attachments SET data = ?, uploaded = 1 WHERE id = ?", [.blob(request.body), .text(attachmentId)])
        return HTTPResponse(status: 200, headers: [("ETag", "\"\(Hex.encode(SHA256.hash(request.body)))\"")])
    }

    /// `GET /files/<id>?expires=&sig=`: the bytes behind an attachment URL; 403 once expired (spec 3.18).
    func fileGet(_ request: HTTPRequest, attachmentId: String) throws -> HTTPResponse {
        try checkSignedLink(request, purpose: "get", id: attachmentId)
        return try storedBytes(
            "SELECT content_type, data FROM attachments WHERE id = ? AND uploaded = 1", [.text(attachmentId)],
            what: "file", defaultType: "image/jpeg")
    }

    /// `GET /v1/attachments/<id>` (spec 3.15): a fresh Attachment of this device's conversation or uploads.
    func attachment(_ request: HTTPRequest, id: String) throws -> HTTPResponse {
        let device = try authenticate(request)
        try admit(scopes: ["requests"], subject: device.id)
        guard let row = try db.row(
            "SELECT * FROM attachments WHERE id = ? AND device_id = ? AND uploaded = 1", [.text(id), .text(device.id)])
        else { throw APIError(404, "attachment_not_found", "No such attachment for this device.") }
        return .json(200, attachmentJSON(row))
    }
}
