import Foundation

/// Settings → Apple Push Notifications (seed 002 "Configure APNs in the dashboard"): saving the key and its
/// identifiers (Connect, Save changes with an optional Replace key), and Disconnect. Saving sends nothing.
///
/// The key is stored in a settings row of its own (``apnsKeyRow``), never in the app document, so the admin API's
/// `GET /admin/app`, the request log and a snapshot (unless it asks for the key) never carry it.
extension EmulatorState {
    /// The `settings` row holding the key's PEM text.
    static let apnsKeyRow = "apns_key"
    /// Key ID and Team ID: exactly 10 letters or digits, as Apple issues them.
    static let apnsIdentifierLength = 10
    /// A bundle ID: at most 155 characters of letters, digits, `.` and `-` (Apple's rule for bundle IDs).
    static let bundleIdLimit = 155

    /// The saved key, or `nil` when none is saved or the stored text no longer reads as a key.
    func loadAPNsKey() throws -> APNsSigningKey? {
        guard let text = try db.row("SELECT value FROM settings WHERE key = ?", [.text(Self.apnsKeyRow)])?.text("value")
        else { return nil }
        return try? APNsSigningKey(pem: text)
    }

    /// What the provider signs and addresses pushes with; `nil` until a key and its identifiers are saved.
    var apnsCredentials: APNsCredentials? {
        guard let ids = settings.apns, let key = apnsKey else { return nil }
        return APNsCredentials(keyId: ids.keyId, teamId: ids.teamId, bundleId: ids.bundleId, key: key)
    }

    /// Whether pushes are produced at all: with a saved key (real delivery) or simulated credentials (outbox only).
    var pushAvailable: Bool { apnsCredentials != nil || settings.push.configured }

    /// The connection as `GET /admin/app` shows it (`apns`): never the key, only that one is saved and when.
    var apnsJSON: JSONValue {
        let ids = settings.apns
        return [
            "connected": .bool(apnsCredentials != nil), "keyId": .optional(ids?.keyId), "teamId": .optional(ids?.teamId),
            "bundleId": .optional(ids?.bundleId), "keySavedAt": InternetDate.json(apnsKey == nil ? nil : ids?.keySavedAt),
        ]
    }

    /// `PUT /admin/apns` `{key?, keyId, teamId, bundleId}` (Connect, Save changes): `key` is the `.p8` file's text,
    /// required when none is saved and optional after (Replace key). 400 `invalid_apns_key` when it is not a P-256
    /// private key in PKCS#8 PEM, 400 `apns_key_required` when there is no key at all, 400 `invalid_request` for
    /// an identifier out of shape. Nothing is sent to APNs.
    func saveAPNsConnection(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try request.jsonObject()
        let keyId = try Self.appleIdentifier(body, "keyId")
        let teamId = try Self.appleIdentifier(body, "teamId")
        let bundleId = try body.requiredString("bundleId").trimmingCharacters(in: .whitespaces)
        guard Self.isBundleId(bundleId) else {
            throw APIError.invalidRequest("bundleId is 1–155 letters, digits, dots and hyphens")
        }
        var key = apnsKey
        if let text = try body.optionalString("key") {
            do {
                key = try APNsSigningKey(pem: text)
            } catch {
                throw APIError(
                    400, "invalid_apns_key",
                    "The key is not a P-256 private key in a .p8 file (PEM \"PRIVATE KEY\", PKCS#8) from Apple Developer → Keys.")
            }
        }
        guard let key else {
            throw APIError(400, "apns_key_required", "Upload the .p8 key from Apple Developer → Keys to connect.")
        }
        let replaced = key !== apnsKey
        var ids = APNsIdentifiers(keyId: keyId, teamId: teamId, bundleId: bundleId, keySavedAt: settings.apns?.keySavedAt)
        if replaced || ids.keySavedAt == nil { ids.keySavedAt = now }
        try db.transaction {
            if replaced {
                try db.query(
                    "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", [.text(Self.apnsKeyRow), .text(key.pem)])
            }
            settings.apns = ids
            try saveSettings()
        }
        apnsKey = key
        return .json(200, apnsJSON)
    }

    /// `DELETE /admin/apns` (Disconnect, after the dashboard's confirmation): removes the key; the identifiers and
    /// the notification content settings stay (seed 002).
    func disconnectAPNs() throws -> HTTPResponse {
        try db.transaction {
            try db.query("DELETE FROM settings WHERE key = ?", [.text(Self.apnsKeyRow)])
            settings.apns?.keySavedAt = nil
            try saveSettings()
        }
        apnsKey = nil
        return .json(200, apnsJSON)
    }

    /// Whether imported identifiers have the shapes `PUT /admin/apns` enforces.
    static func isWellFormed(_ ids: APNsIdentifiers) -> Bool {
        [ids.keyId, ids.teamId].allSatisfy(isAppleIdentifier) && isBundleId(ids.bundleId)
    }

    private static func isAppleIdentifier(_ text: String) -> Bool {
        text.utf8.count == apnsIdentifierLength && text.utf8.allSatisfy { isBundleByte($0) && $0 != 0x2E && $0 != 0x2D }
    }

    private static func isBundleId(_ text: String) -> Bool {
        (1...bundleIdLimit).contains(text.utf8.count) && text.utf8.allSatisfy { isBundleByte($0) }
    }

    /// A Key ID or Team ID: exactly 10 ASCII letters or digits (surrounding spaces ignored).
    private static func appleIdentifier(_ body: [String: JSONValue], _ name: String) throws(APIError) -> String {
        let value = try body.requiredString(name).trimmingCharacters(in: .whitespaces)
        guard isAppleIdentifier(value) else { throw APIError.invalidRequest("\(name) is exactly 10 letters or digits") }
        return value
    }

    /// Letters, digits, `.` and `-`: the bytes of a bundle ID, as of a host name.
    private static func isBundleByte(_ byte: UInt8) -> Bool { APNsHosts.isNameByte(byte) }
}
