/// spec 3.1–3.5: registration, device update, token refresh, logout revocation and device deletion.
extension EmulatorState {
    /// `POST /v1/devices` (spec 3.1): 201 `{token, sessionSecret, verifiedUserId}`.
    func register(_ request: HTTPRequest) throws -> HTTPResponse {
        try admit(scopes: ["session"], subject: "app")
        let payload = try DevicePayload(try request.jsonObject())
        let identity = try payload.identityToken.map { token throws(APIError) in try verifyIdentity(token) }
        // seed 000 / spec 0.4: with only verified users, a registration without a valid token is refused.
        if settings.onlyVerifiedUsers, identity == nil {
            throw APIError(403, "verification_required", "Only verified users can chat.")
        }
        let deviceId = newID("dev_")
        let secret = "ss_" + configuration.randomText(40)
        let token = try db.transaction { () throws -> String in
            try db.query(
                "INSERT INTO devices (id, created_at, last_seen_at, info, metadata, paywalls) VALUES (?, ?, ?, '{}', '{}', '[]')",
                [.text(deviceId), .double(now), .double(now)])
            try apply(payload, identity: identity, to: deviceId)
            try db.query(
                "INSERT INTO sessions (secret, device_id, created_at) VALUES (?, ?, ?)",
                [.text(secret), .text(deviceId), .double(now)])
            let token = try issueAccessToken(deviceId: deviceId, sessionSecret: secret)
            try pruneAccessTokens()
            return token
        }
        return .json(
            201,
            ["token": .string(token), "sessionSecret": .string(secret), "verifiedUserId": .optional(identity?.userId)])
    }

    /// `PATCH /v1/devices/me` (spec 3.2): 200 `{verifiedUserId}`.
    func updateDevice(_ request: HTTPRequest) throws -> HTTPResponse {
        let device = try authenticate(request)
        try admit(scopes: ["requests"], subject: device.id)
        let payload = try DevicePayload(try request.jsonObject())
        let identity = try payload.identityToken.map { token throws(APIError) in try verifyIdentity(token) }
        if let identity, let current = device.verifiedUserId, current != identity.userId {
            throw APIError(409, "identity_mismatch", "This chat belongs to a different verified user.")
        }
        try db.transaction { try apply(payload, identity: identity, to: device.id) }
        let verified = try db.row("SELECT verified_user_id FROM devices WHERE id = ?", [.text(device.id)])
        return .json(200, ["verifiedUserId": .optional(verified?.text("verified_user_id"))])
    }

    /// `POST /v1/devices/me/token` (spec 3.3): a new access token, or 401 `session_revoked`.
    func refreshToken(_ request: HTTPRequest) throws -> HTTPResponse {
        let secret = try request.jsonObject().requiredIdentifier("sessionSecret")
        guard let session = try liveSession(secret) else {
            throw APIError(401, "session_revoked", "This session has ended.")
        }
        try admit(scopes: ["session"], subject: session)
        let token = try db.transaction { () throws -> String in
            let token = try issueAccessToken(deviceId: session, sessionSecret: secret)
            try pruneAccessTokens()
            return token
        }
        return .json(200, ["token": .string(token)])
    }

    /// `POST /v1/devices/me/logout` (spec 3.4, 0.5): ends the session and removes its push registration; 200 `{}`
    /// also for unknown or already revoked sessions.
    func logout(_ request: HTTPRequest) throws -> HTTPResponse {
        let secret = try request.jsonObject().requiredIdentifier("sessionSecret")
        if let deviceId = try liveSession(secret) {
            try db.transaction {
                try db.query("UPDATE sessions SET revoked = 1 WHERE secret = ?", [.text(secret)])
                try db.query("DELETE FROM access_tokens WHERE session_secret = ?", [.text(secret)])
                try db.query(
                    "UPDATE devices SET push_token = NULL, push_environment = NULL WHERE id = ?", [.text(deviceId)])
            }
            hub.close(deviceId: deviceId)
        }
        return .json(200, [:])
    }

    /// `DELETE /v1/devices/me` (spec 3.5, 0.3): deletes the device with its conversation, messages and images;
    /// 200 `{}` also when the session has ended (nothing is deleted then).
    func deleteDevice(_ request: HTTPRequest) throws -> HTTPResponse {
        let secret = try request.jsonObject().requiredIdentifier("sessionSecret")
        if let deviceId = try liveSession(secret) { try removeDevice(deviceId) }
        return .json(200, [:])
    }

    /// Deletes a device and everything that hangs off it (the foreign keys cascade).
    func removeDevice(_ deviceId: String) throws {
        try db.query("DELETE FROM devices WHERE id = ?", [.text(deviceId)])
        try db.query("DELETE FROM push_outbox WHERE device_id = ?", [.text(deviceId)])
        hub.close(deviceId: deviceId)
    }

    /// Seconds an expired access token stays in `access_tokens` before it is deleted. Expired and unknown tokens
    /// get the same 401, so the grace only keeps a token whose expiry a clock set back would undo.
    static let expiredAccessTokenGrace: Double = 3600

    /// Deletes access tokens that expired more than ``expiredAccessTokenGrace`` ago, so a long-running emulator's
    /// table holds only the tokens of the last lifetime plus grace. Run whenever a token is issued: an indexed
    /// range delete (migration `005_access_token_expiry`), cheap when there is nothing to delete.
    func pruneAccessTokens() throws {
        try db.query("DELETE FROM access_tokens WHERE expires_at < ?", [.double(now - Self.expiredAccessTokenGrace)])
    }

    /// The device of a session secret that has not been revoked.
    private func liveSession(_ secret: String) throws -> String? {
        try db.row("SELECT device_id FROM sessions WHERE secret = ? AND revoked = 0", [.text(secret)])?
            .text("device_id")
    }

    /// Verifies an identity token with the app's secret, mapping rejections to their codes (spec 5.3, seed 000).
    func verifyIdentity(_ token: String) throws(APIError) -> VerifiedIdentity {
        guard let secret = settings.identitySecret else {
            throw APIError(401, "identity_not_configured", "The app has no identity secret.")
        }
        do {
            return try IdentityToken.verify(token, secret: secret, now: now)
        } catch {
            throw APIError(401, error.code, "The identity token was refused.")
        }
    }

    /// Stores a payload: info, language, metadata, paywalls and badge preference replace; omitted identity labels
    /// stay; push fields change only as a pair; an accepted identity replaces the verified claims.
    private func apply(_ payload: DevicePayload, identity: VerifiedIdentity?, to deviceId: String) throws {
        let id = SQLValue.text(deviceId)
        try db.query(
            "UPDATE devices SET info = ?, metadata = ?, paywalls = ? WHERE id = ?",
            [
                .text(JSONValue.object(payload.info).serialized()), .text(payload.metadata.serialized()),
                .text(payload.paywalls.serialized()), id,
            ])
        if let language = payload.language { try db.query("UPDATE devices SET language = ? WHERE id = ?", [.text(language), id]) }
        if let value = payload.externalUserId {
            try db.query("UPDATE devices SET external_user_id = ? WHERE id = ?", [.text(value), id])
        }
        if let value = payload.name { try db.query("UPDATE devices SET name = ? WHERE id = ?", [.text(value), id]) }
        if let value = payload.email { try db.query("UPDATE devices SET email = ? WHERE id = ?", [.text(value), id]) }
        if let badge = payload.updatesAppBadge {
            try db.query("UPDATE devices SET updates_app_badge = ? WHERE id = ?", [.bool(badge), id])
        }
        if let token = payload.pushToken, let environment = payload.pushEnvironment {
            try db.query(
                "UPDATE devices SET push_token = ?, push_environment = ? WHERE id = ?",
                [.text(token), .text(environment), id])
        }
        if let identity {
            try db.query(
                """
                UPDATE devices SET verified_user_id = ?, verified_name = ?, verified_email = ?, verified_at = ?
                WHERE id = ?
                """, [.text(identity.userId), .optional(identity.name), .optional(identity.email), .double(now), id])
        }
    }
}
