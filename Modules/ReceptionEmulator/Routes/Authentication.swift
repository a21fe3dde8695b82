import Foundation

/// The device behind a bearer token, with what every bearer route needs to decide.
struct AuthenticatedDevice {
    var id: String
    var blocked: Bool
    var verifiedUserId: String?
    var resetRevision: Int64
    var readSeq: Int64
    var tokenExpiresAt: Double
}

extension EmulatorState {
    /// spec 8.1.4: an unknown or expired access token, or one of a revoked session, is 401 `unauthorized`. Then
    /// spec 7.12: an `X-Reception-Revision` older than the device's reset revision is 409 `chat_reset`; one that is
    /// not a whole number from 0 to 2^53 − 1 is 400 `invalid_request`.
    func authenticate(_ request: HTTPRequest) throws -> AuthenticatedDevice {
        guard let header = request.header("authorization"), header.hasPrefix("Bearer ") else {
            throw APIError.unauthorized
        }
        let token = String(header.dropFirst("Bearer ".count)).trimmingCharacters(in: .whitespaces)
        guard
            let row = try db.row(
                """
                SELECT d.id, d.blocked, d.verified_user_id, d.reset_revision, d.read_seq, d.last_seen_at, t.expires_at
                FROM access_tokens t JOIN sessions s ON s.secret = t.session_secret JOIN devices d ON d.id = t.device_id
                WHERE t.token = ? AND s.revoked = 0
                """, [.text(token)]),
            let id = row.text("id"), case .double(let expiresAt)? = row.columns["expires_at"], expiresAt > now
        else { throw APIError.unauthorized }
        let device = AuthenticatedDevice(
            id: id, blocked: row.bool("blocked") ?? false, verifiedUserId: row.text("verified_user_id"),
            resetRevision: row.int("reset_revision") ?? 0, readSeq: row.int("read_seq") ?? 0,
            tokenExpiresAt: expiresAt)
        // "Last seen" in the dashboard: written at most once a minute, so busy clients cost no extra writes.
        if now - (row.double("last_seen_at") ?? 0) >= 60 {
            try db.query("UPDATE devices SET last_seen_at = ? WHERE id = ?", [.double(now), .text(id)])
        }
        // The chat revision the client holds: decimal digits, 0…2^53 − 1 (spec 1.6); an absent or empty header is 0.
        var revision: Int64 = 0
        if let text = request.header("x-reception-revision")?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            guard let value = Self.sequenceNumber(text) else {
                throw APIError.invalidRequest("X-Reception-Revision must be a whole number from 0 to 2^53 − 1")
            }
            revision = value
        }
        if revision < device.resetRevision {
            throw APIError(
                409, "chat_reset", "The chat was reset; start again at the new revision.",
                resetRevision: device.resetRevision)
        }
        return device
    }

    /// Sends need a verified session while "Only verified users can chat" is on (seed 000).
    func requiresVerification(_ device: AuthenticatedDevice) -> Bool {
        settings.onlyVerifiedUsers && device.verifiedUserId == nil
    }

    /// Refuses writes of a blocked device (403 `blocked`) and, with only-verified on, of an unverified one
    /// (403 `verification_required`).
    func checkMaySend(_ device: AuthenticatedDevice) throws(APIError) {
        if device.blocked { throw APIError(403, "blocked", "This device is blocked.") }
        if requiresVerification(device) {
            throw APIError(403, "verification_required", "Only verified users can chat.")
        }
    }

    /// Issues a fresh opaque access token for the session.
    func issueAccessToken(deviceId: String, sessionSecret: String) throws -> String {
        let token = newID("at_")
        try db.query(
            "INSERT INTO access_tokens (token, device_id, session_secret, expires_at) VALUES (?, ?, ?, ?)",
            [.text(token), .text(deviceId), .text(sessionSecret), .double(now + configuration.accessTokenLifetime)])
        return token
    }
}
