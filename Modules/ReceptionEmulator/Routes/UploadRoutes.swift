import Digest

/// spec 3.14–3.15 and 3.18: upload reservation, the storage PUT, attachment resolution and signed downloads.
extension EmulatorState {
    /// How long an upload URL stays valid, in seconds, from the reservation that returned it (the spec names no
    /// lifetime; one hour, like the download links). Repeating the reservation (same `requestId`) before the PUT
    /// returns a fresh URL for the same attachment, so a client that retries later is never stuck with a dead one.
    static let uploadReservationLifetime: Double = 3600

    /// Accepted `width` and `height` of a photo, in pixels.
    static let photoSides: ClosedRange<Int64> = 1...100_000

    /// `POST /v1/uploads` (spec 3.14): reserves an attachment; the same `requestId` again returns the same
    /// reservation.
    func reserveUpload(_ request: HTTPRequest) throws -> HTTPResponse {
        let device = try authenticate(request)
        let body = try request.jsonObject()
        let requestId = try body.requiredIdentifier("requestId")
        let contentType = try body.requiredString("contentType")
        let checksum = try body.requiredString("checksum")
        guard let bytes = try body.optionalInt("bytes", in: 1...Int64(BodyLimits.upload)),
            let width = try body.optionalInt("width", in: Self.photoSides),
            let height = try body.optionalInt("height", in: Self.photoSides)
        else { throw APIError.invalidRequest("bytes (1…1048576), width and height (1…100000) are required") }
        guard !requestId.isEmpty, requestId.utf16.count <= 64 else {
            throw APIError.invalidRequest("requestId must have 1–64 characters")
        }
        guard contentType == "image/jpeg" else { throw APIError.invalidRequest("contentType must be image/jpeg") }
        guard Base64.decode(checksum, alphabet: .standard)?.count == SHA256.byteCount else {
            throw APIError.invalidRequest("checksum must be the standard Base64 of a SHA-256 digest")
        }
        try admit(scopes: ["uploads", "requests"], subject: device.id)
        try checkMaySend(device)
        if let existing = try db.row(
            "SELECT \(Columns.attachments) FROM attachments WHERE device_id = ? AND request_id = ?", [.text(device.id), .text(requestId)])
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

    /// The upload URL signs the attachment ID with the end of the reservation's lifetime (`put:<id>:<expires>`),
    /// like the download links.
    private func reservation(attachmentId: String) -> JSONValue {
        [
            "attachmentId": .string(attachmentId),
            "uploadUrl": .string(
                signedLink(
                    route: "storage", purpose: "put", id: attachmentId, lifetime: Self.uploadReservationLifetime)),
            "headers": ["Content-Type": "image/jpeg", "If-Match": .string(pendingTag(attachmentId))],
        ]
    }

    /// `PUT /storage/<id>?expires=&sig=`: needs the signature (compared in constant time) before the
    /// reservation's lifetime ends (403 `invalid_signature` otherwise), the reservation's `If-Match` (412 once the
    /// object was written: an earlier PUT succeeded) and exactly the reserved bytes (size and SHA-256 checked).
    func storagePut(_ request: HTTPRequest, attachmentId: String) throws -> HTTPResponse {
        guard hasValidSignature(request, purpose: "put", id: attachmentId),
            let row = try db.row("SELECT \(Columns.attachments) FROM attachments WHERE id = ?", [.text(attachmentId)])
        else { throw APIError(403, "invalid_signature", "The upload URL is not valid or has expired.") }
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
            "SELECT \(Columns.attachments) FROM attachments WHERE id = ? AND device_id = ? AND uploaded = 1", [.text(id), .text(device.id)])
        else { throw APIError(404, "attachment_not_found", "No such attachment for this device.") }
        return .json(200, attachmentJSON(row))
    }
}
