import Foundation

/// Admin endpoints the dashboard's pages need beyond the team actions (Docs/Emulator.md "Dashboard data"): the
/// inbox, user search, the team-assigned display name, what the team has read, the team with photo links, and
/// the notification preview.
extension EmulatorState {
    /// Longest accepted search text and display name, in UTF-16 units.
    static let searchLimit = 255
    static let displayNameLimit = 200

    /// `GET /admin/devices[?query=]`: every device, or those whose user ID, name, email (SDK labels or verified
    /// claims) or display name contains `query` (case-insensitive for ASCII letters).
    func devicesSearch(_ request: HTTPRequest) throws -> HTTPResponse {
        let query = request.query["query"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard query.utf16.count <= Self.searchLimit, !query.containsNUL else {
            throw APIError.invalidRequest("query has at most 255 characters and no U+0000")
        }
        return .json(200, ["devices": .array(try devicesJSON(nil, matching: query.isEmpty ? nil : query))])
    }

    /// The SQL condition of a search: `instr` on lower-cased columns, so `%` and `_` in the text are plain
    /// characters.
    static let searchCondition = """
        (instr(lower(COALESCE(external_user_id, '')), lower(?1)) > 0 OR instr(lower(COALESCE(name, '')), lower(?1)) > 0
        OR instr(lower(COALESCE(email, '')), lower(?1)) > 0 OR instr(lower(COALESCE(verified_user_id, '')), lower(?1)) > 0
        OR instr(lower(COALESCE(verified_name, '')), lower(?1)) > 0
        OR instr(lower(COALESCE(verified_email, '')), lower(?1)) > 0
        OR instr(lower(COALESCE(display_name, '')), lower(?1)) > 0)
        """

    /// seed 000 "Verified users": the customer's label (display name, else name, else email, else user ID, else
    /// "User #…") and badge (`verified`, `unverified` for app-supplied labels, `null` for guests). A verified chat
    /// shows exactly the claims of its latest token.
    static func identityJSON(_ row: SQLRow) -> [String: JSONValue] {
        let verified = row.text("verified_user_id")
        let userId = verified ?? row.text("external_user_id")
        let name = verified != nil ? row.text("verified_name") : row.text("name")
        let email = verified != nil ? row.text("verified_email") : row.text("email")
        let deviceId = row.text("id") ?? ""
        let fallback = "User #" + String(deviceId.dropFirst(4).prefix(6))
        let label = [row.text("display_name"), name, email, userId].compactMap { $0 }.first { !$0.isEmpty } ?? fallback
        let badge: JSONValue =
            verified != nil ? "verified" : ([row.text("name"), row.text("email"), row.text("external_user_id")]
                .contains { $0 != nil } ? "unverified" : .null)
        return ["label": .string(label), "badge": badge]
    }

    /// `GET /admin/inbox`: conversations newest first, each with the customer's label and badge, the last message,
    /// what the team has not read, open or resolved, blocked, typing and in chat.
    func inbox() throws -> HTTPResponse {
        let rows = try db.query(
            """
            SELECT c.id AS conversation_id, c.status AS conversation_status, c.last_seq, c.last_message_at,
            c.team_read_seq, d.* FROM conversations c JOIN devices d ON d.id = c.device_id
            ORDER BY c.last_message_at DESC, c.rowid DESC
            """)
        return .json(
            200,
            [
                "conversations": .array(
                    try rows.map { row in
                        let conversationId = row.text("conversation_id") ?? ""
                        let deviceId = row.text("id") ?? ""
                        var entry = Self.identityJSON(row)
                        let last = try db.row(
                            """
                            SELECT m.sender, m.text, m.kind, m.created_at,
                            (SELECT COUNT(*) FROM attachments a WHERE a.message_id = m.id) AS photos
                            FROM messages m WHERE m.conversation_id = ? ORDER BY m.seq DESC LIMIT 1
                            """, [.text(conversationId)])
                        let unreadForTeam = try teamUnreadCount(
                            conversationId: conversationId, teamReadSeq: row.int("team_read_seq") ?? 0)
                        entry.merge([
                            "deviceId": .string(deviceId), "conversationId": .string(conversationId),
                            "status": .optional(row.text("conversation_status")),
                            "blocked": .bool(row.bool("blocked") ?? false),
                            "typing": .bool(row.bool("user_typing") ?? false),
                            "inChat": .bool(hub.count(deviceId: deviceId) > 0),
                            "unreadForTeam": .int(unreadForTeam),
                            "unreadForUser": .int(
                                try unreadCount(conversationId: conversationId, readSeq: row.int("read_seq") ?? 0)),
                            "lastMessageAt": InternetDate.json(row.double("last_message_at")),
                            "lastMessage": last.map { message in
                                [
                                    "sender": .optional(message.text("sender")), "text": .optional(message.text("text")),
                                    "kind": .optional(message.text("kind")), "photoCount": .int(message.int("photos") ?? 0),
                                    "createdAt": InternetDate.json(message.double("created_at")),
                                ]
                            } ?? .null,
                        ]) { _, new in new }
                        return JSONValue.object(entry)
                    })
            ])
    }

    /// `PATCH /admin/devices/<id>` `{displayName: string | null}`: the team's name for the customer, stored apart
    /// from the SDK's `name` (seed 000), trimmed, at most 200 characters; empty or `null` removes it.
    func setDisplayName(_ request: HTTPRequest, deviceId: String) throws -> HTTPResponse {
        let body = try request.jsonObject()
        guard body["displayName"] != nil else { throw APIError.invalidRequest("displayName must be a string or null") }
        let name = try body.optionalString("displayName")?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (name?.utf16.count ?? 0) <= Self.displayNameLimit else {
            throw APIError.invalidRequest("displayName has at most 200 characters")
        }
        try db.query(
            "UPDATE devices SET display_name = ? WHERE id = ?",
            [name?.isEmpty == false ? .optional(name) : .null, .text(deviceId)])
        return .json(200, try devicesJSON(deviceId).first ?? .null)
    }

    /// `POST /admin/devices/<id>/seen`: the team has read the conversation up to its last message (the inbox's
    /// unread-for-the-team count).
    func markSeenByTeam(deviceId: String) throws -> HTTPResponse {
        try db.query("UPDATE conversations SET team_read_seq = last_seq WHERE device_id = ?", [.text(deviceId)])
        return .json(200, [:])
    }

    /// `GET /admin/test-push-devices`: seed 002's Send test picker — at most ten eligible devices (a push token and an
    /// existing conversation), most recent chat activity first (devices never active in chat last, newest first).
    func testPushDevices() throws -> HTTPResponse {
        let rows = try db.query(
            """
            SELECT d.id FROM devices d JOIN conversations c ON c.device_id = d.id WHERE d.push_token IS NOT NULL
            ORDER BY d.last_active_in_chat_at IS NULL, d.last_active_in_chat_at DESC, d.rowid DESC LIMIT 10
            """)
        return .json(200, ["devices": .array(try rows.compactMap { try devicesJSON($0.text("id")).first })])
    }

    /// `GET /admin/team`: `[{id, name, role, photoId, photoUrl}]`, the photo as a signed link (whatever the appearance
    /// shows to customers).
    func teamMembersJSON() throws -> [JSONValue] {
        try db.query("SELECT id, name, role, photo_id FROM team ORDER BY rowid").map { row in
            let photoId = row.text("photo_id")
            return [
                "id": .optional(row.text("id")), "name": .optional(row.text("name")), "role": .optional(row.text("role")),
                "photoId": .optional(photoId),
                "photoUrl": photoId.map {
                    .string(
                        signedLink(
                            route: "team-photos", purpose: "team-photo", id: $0,
                            lifetime: configuration.teamPhotoURLLifetime))
                } ?? .null,
            ]
        }
    }

    /// `POST /admin/push-preview` `{push: {…unsaved notification settings}, language?}` → `{title, body, language}`
    /// of a reply with two photos and the text "Your order has shipped." in the preview language (default `en`;
    /// seed 002: the preview uses a two-photo example and sends nothing). The settings are checked as
    /// `PATCH /admin/app` checks them, and not saved.
    func pushPreview(_ request: HTTPRequest) throws -> HTTPResponse {
        let json = try request.jsonObject()
        let draft = json["push"]?.objectValue ?? [:]
        let push = try Self.pushSettings(draft, current: settings.push)
        let language = try json.optionalString("language").map { PushLanguage.match($0) ?? "en" } ?? "en"
        let texts = PushTexts.texts(for: language)
        let preview = PushPayload.preview(
            text: "Your order has shipped.", photoCount: 2, kind: "TEXT", buttonLabel: nil,
            showMessage: push.showMessage, texts: texts)
        let (title, body) = PushPayload.render(push, preview: preview, texts: texts)
        return .json(200, ["title": .string(title), "body": .string(body), "language": .string(language)])
    }
}
