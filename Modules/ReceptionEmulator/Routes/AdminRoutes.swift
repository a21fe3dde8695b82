import Digest
import Foundation

/// The team/admin API under `/admin/`, authorised by the admin token (Docs/Emulator.md "Admin API"). A device's
/// access token is refused here, and the admin token is refused on `/v1/`.
extension EmulatorState {
    /// 401 `admin_unauthorized` unless the request carries the admin token (compared in constant time).
    func checkAdminToken(_ request: HTTPRequest) throws(APIError) {
        guard let header = request.header("authorization"),
            HMACSHA256.constantTimeEquals(Array(header.utf8), Array("Bearer \(settings.adminToken)".utf8))
        else { throw APIError(401, "admin_unauthorized", "The admin API needs the admin token.") }
    }

    func routeAdmin(_ request: HTTPRequest, _ path: [String], emulator: ReceptionEmulator) throws -> HTTPResponse {
        try checkAdminToken(request)
        return try adminEndpoint(request, path, emulator: emulator, caller: .operator_)
    }

    /// The admin endpoint at `path` (after `admin`), once the caller was authorised: by the admin token on
    /// `/admin/`, by a dashboard session and its CSRF token on `/dashboard/api/`. `caller` is who calls: an Agent
    /// gets 403 `owner_required` from an Owner's endpoint and the app without its identity secret.
    func adminEndpoint(
        _ request: HTTPRequest, _ path: [String], emulator: ReceptionEmulator, caller: TeamCaller
    ) throws -> HTTPResponse {
        try checkRole(caller, request.method, path)
        currentCaller = caller
        defer { currentCaller = .operator_ }
        switch (request.method, path) {
        case ("GET", ["me"]): return .json(200, caller.json)
        case ("GET", ["app"]): return .json(200, appJSON())
        case ("GET", ["identity-secret"]): return .json(200, ["identitySecret": .optional(settings.identitySecret)])
        case ("PATCH", ["app"]): return try updateApp(request)
        case ("PUT", ["rate-limits"]): return try setRateLimits(request)
        case ("POST", ["identity-secret"]): return try regenerateSecret(request)
        case ("DELETE", ["identity-secret"]):
            settings.identitySecret = nil
            try saveSettings()
            return .json(200, appJSON())
        case ("PUT", ["appearance"]): return try publishAppearance(request)
        case ("PUT", let p) where p.count == 3 && p[0] == "appearance" && p[1] == "images":
            return try putAppearanceImage(request, id: p[2])
        case ("PUT", ["team"]): return try setTeam(request)
        case (_, let p) where p.count >= 2 && p[0] == "team" && p[1] == "members":
            return try routeTeamMembers(request, Array(p.dropFirst(2)))
        case ("GET", ["push-outbox"]): return try pushOutbox()
        case ("DELETE", ["push-outbox"]):
            try db.query("DELETE FROM push_outbox")
            return .json(200, [:])
        case (_, let p) where ["faults", "requests", "snapshot", "reset"].contains(p.first):
            return try consoleEndpoint(request, p, emulator: emulator)
        case ("GET", ["devices"]): return try devicesSearch(request)
        case ("GET", ["conversations"]): return try conversationsList()
        case ("GET", ["inbox"]): return try inbox()
        case ("GET", ["test-push-devices"]): return try testPushDevices()
        case ("GET", ["team"]): return .json(200, ["members": .array(try teamMembersJSON())])
        case ("GET", ["appearance"]):
            return .json(
                200,
                [
                    "revision": .int(Int64(settings.appearanceRevision)),
                    "appearance": (try? JSONValue.parse(settings.appearance)) ?? .object([:]),
                    "images": .array(try db.query("SELECT id FROM appearance_images ORDER BY id").map { .optional($0.text("id")) }),
                ])
        case ("POST", ["push-preview"]): return try pushPreview(request)
        case ("PUT", ["apns"]): return try saveAPNsConnection(request)
        case ("DELETE", ["apns"]): return try disconnectAPNs()
        case ("GET", let p) where p.count == 2 && p[0] == "push-outbox": return try pushOutboxEntry(p[1])
        case (_, let p) where p.count >= 2 && p[0] == "devices": return try routeAdminDevice(request, p[1], Array(p.dropFirst(2)))
        default: throw APIError.notFound
        }
    }

    /// The settings the team sees, with the identity secret ("Reveal") only for an Owner.
    func appJSON() -> JSONValue {
        let push = settings.push
        var app: [String: JSONValue] = [
            "appId": .string(settings.appId), "identitySecret": .optional(settings.identitySecret),
            "disabled": .bool(settings.disabled), "onlyVerifiedUsers": .bool(settings.onlyVerifiedUsers),
            "rateLimits": .object(
                settings.rateLimits.mapValues {
                    ["limit": .int(Int64($0.limit)), "windowSeconds": .int(Int64($0.windowSeconds))]
                }),
            "unreadPolling": settings.unreadPolling.map { stages in
                .array(stages.map { ["forMinutes": .int(Int64($0.forMinutes)), "everySeconds": .int(Int64($0.everySeconds))] })
            } ?? .null,
            "push": [
                "configured": .bool(push.configured), "appName": .string(push.appName),
                "titleTemplate": .optional(push.titleTemplate), "bodyTemplate": .optional(push.bodyTemplate),
                "templates": push.templatesJSON,
                "senderName": .optional(push.senderName), "showMessage": .bool(push.showMessage),
                "sound": .bool(push.sound), "offerPushes": .bool(push.offerPushes),
            ],
            "apns": apnsJSON,
            "appearanceRevision": .int(Int64(settings.appearanceRevision)),
            "appStoreId": .optional(settings.appStoreId),
            // seed 000: the identity section shows when the last user was verified.
            "lastVerifiedAt": InternetDate.json(
                (try? db.row("SELECT MAX(verified_at) AS at FROM devices"))?.double("at")),
        ]
        if currentCaller.role != .owner { app["identitySecret"] = nil }
        return .object(app)
    }

    /// `PATCH /admin/app`: `disabled`, `onlyVerifiedUsers`, `unreadPolling` (array or null), `push` settings.
    private func updateApp(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try request.jsonObject()
        var updated = settings
        if let value = try body.optionalBool("disabled") { updated.disabled = value }
        if let value = try body.optionalBool("onlyVerifiedUsers") { updated.onlyVerifiedUsers = value }
        if let value = body["unreadPolling"] {
            if value.isNull {
                updated.unreadPolling = nil
            } else {
                guard let list = value.arrayValue else { throw APIError.invalidRequest("unreadPolling must be an array") }
                updated.unreadPolling = try list.map { stage throws(APIError) in
                    // spec 4.7: everySeconds ≤ 0 disables polling, so negatives are valid; ranges, not `abs` (which
                    // traps on -2^63).
                    guard let minutes = stage["forMinutes"]?.integer(in: Self.pollingMinutes),
                        let seconds = stage["everySeconds"]?.integer(in: Self.pollingSeconds)
                    else {
                        throw APIError.invalidRequest(
                            "a stage is {forMinutes: 0…2147483647, everySeconds: -2147483648…2147483647}")
                    }
                    return PollingStage(forMinutes: Int(minutes), everySeconds: Int(seconds))
                }
            }
        }
        if body["appStoreId"] != nil {
            let id = try body.optionalString("appStoreId")?.trimmingCharacters(in: .whitespaces)
            guard id.map({ (1...20).contains($0.utf8.count) && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }) ?? true
            else { throw APIError.invalidRequest("appStoreId is 1–20 decimal digits, or null") }
            updated.appStoreId = id
        }
        if let push = body["push"] {
            guard let fields = push.objectValue else { throw APIError.invalidRequest("push must be an object") }
            updated.push = try Self.pushSettings(fields, current: updated.push)
        }
        settings = updated
        try saveSettings()
        return .json(200, appJSON())
    }

    /// Accepted `forMinutes` and `everySeconds` of an unread polling stage: what a 32-bit client stores.
    static let pollingMinutes: ClosedRange<Int64> = 0...Int64(Int32.max)
    static let pollingSeconds: ClosedRange<Int64> = Int64(Int32.min)...Int64(Int32.max)

    static func pushSettings(_ body: [String: JSONValue], current: PushSettings) throws(APIError) -> PushSettings {
        var push = current
        if let value = try body.optionalBool("configured") { push.configured = value }
        if let value = try body.optionalBool("showMessage") { push.showMessage = value }
        if let value = try body.optionalBool("sound") { push.sound = value }
        if let value = try body.optionalBool("offerPushes") { push.offerPushes = value }
        if let value = try body.optionalString("appName") { push.appName = value }
        for key in ["titleTemplate", "bodyTemplate"] where body[key] != nil {
            let template = try body.optionalString(key)
            guard (template?.count ?? 0) <= PushPayload.templateLimit else {
                throw APIError.invalidRequest("\(key) has more than 120 characters")
            }
            if key == "titleTemplate" { push.titleTemplate = template } else { push.bodyTemplate = template }
        }
        // Seed 002: `templates: {tag: {title?, body?} | null}` overrides one language only; null is "Reset text to
        // default" (both of that language's overrides go); an omitted field keeps its value, a null one clears it.
        if let templates = body["templates"], !templates.isNull {
            guard let entries = templates.objectValue else {
                throw APIError.invalidRequest("templates must be an object of language tags")
            }
            for (tag, value) in entries {
                guard let language = PushLanguage.supported.first(where: { $0.caseInsensitiveCompare(tag) == .orderedSame })
                else { throw APIError.invalidRequest("templates: \(tag) is not a supported language") }
                if value.isNull {
                    push.setTemplate(PushTemplate(), for: language)
                    continue
                }
                guard let fields = value.objectValue else {
                    throw APIError.invalidRequest("templates.\(tag) must be {title, body} or null")
                }
                var template = push.template(for: language)
                for field in ["title", "body"] where fields[field] != nil {
                    let text = try fields.optionalString(field)
                    guard (text?.count ?? 0) <= PushPayload.templateLimit else {
                        throw APIError.invalidRequest("templates.\(tag).\(field) has more than 120 characters")
                    }
                    let kept = text.flatMap { $0.isBlank ? nil : $0 }
                    if field == "title" { template.title = kept } else { template.body = kept }
                }
                push.setTemplate(template, for: language)
            }
        }
        if body["senderName"] != nil {
            let name = try body.optionalString("senderName")?.trimmingCharacters(in: .whitespacesAndNewlines)
            guard (name?.count ?? 0) <= PushPayload.senderNameLimit else {
                throw APIError.invalidRequest("senderName has more than 60 characters")
            }
            push.senderName = name?.isEmpty == true ? nil : name
        }
        return push
    }

    /// `PUT /admin/rate-limits`: `{scope: {limit, windowSeconds} | null}`; a new limit starts fresh windows.
    private func setRateLimits(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try request.jsonObject()
        var limits = settings.rateLimits
        for (scope, value) in body {
            guard Self.scopes.contains(scope) else { throw APIError.invalidRequest("unknown scope \(scope)") }
            if value.isNull { limits[scope] = nil; continue }
            guard let limit = value["limit"]?.integer(in: 0...Int64(Int32.max)),
                let window = value["windowSeconds"]?.integer(in: 1...86_400)
            else { throw APIError.invalidRequest("a limit is {limit: 0…2147483647, windowSeconds: 1…86400}") }
            limits[scope] = RateLimit(limit: Int(limit), windowSeconds: Int(window))
        }
        settings.rateLimits = limits
        rateWindows.removeAll()
        try saveSettings()
        return .json(200, appJSON())
    }

    /// `POST /admin/identity-secret` `{markUnverified?: bool}`: a new secret; old tokens stop working at once.
    /// Verified chats stay verified unless `markUnverified` (seed 000 "Regenerate the secret").
    private func regenerateSecret(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = request.body.isEmpty ? [:] : try request.jsonObject()
        // Read before anything changes: a refused body leaves the old secret in place.
        let markAll = try body.optionalBool("markUnverified") == true
        settings.identitySecret = "ids_" + configuration.randomText(40)
        try saveSettings()
        if markAll { try markUnverified(deviceId: nil) }
        return .json(200, appJSON())
    }

    /// Clears the verified identity of one device, or of every device when `deviceId` is nil (seed 000: verified
    /// identity stays until the owner marks it unverified; a new valid token verifies the chat again).
    func markUnverified(deviceId: String?) throws {
        let clear = "UPDATE devices SET verified_user_id = NULL, verified_name = NULL, verified_email = NULL, verified_at = NULL"
        if let deviceId {
            try db.query(clear + " WHERE id = ?", [.text(deviceId)])
        } else {
            try db.query(clear)
        }
    }

    /// `PUT /admin/appearance` `{appearance: {...}}`: publishes a new revision (≤ 65,536 bytes, spec 3.16).
    private func publishAppearance(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let appearance = try request.jsonObject()["appearance"], appearance.objectValue != nil else {
            throw APIError.invalidRequest("appearance must be an object")
        }
        // A client decodes the appearance as a whole (spec 3.16): a number no Double holds would make all of it
        // undecodable.
        guard !appearance.containsOutOfRangeNumber else {
            throw APIError.invalidRequest("the appearance holds a number beyond Double's range")
        }
        let text = appearance.serialized()
        guard text.utf8.count <= 60_000 else { throw APIError.invalidRequest("the appearance is too large") }
        settings.appearance = text
        settings.appearanceRevision += 1
        try saveSettings()
        return .json(200, appJSON())
    }

    /// `PUT /admin/appearance/images/<uuid>`: stores raw image bytes with their `Content-Type`.
    private func putAppearanceImage(_ request: HTTPRequest, id: String) throws -> HTTPResponse {
        guard UUIDText.isValid(id), !request.body.isEmpty else {
            throw APIError.invalidRequest("the ID must be a UUID and the body the image")
        }
        try db.query(
            "INSERT OR REPLACE INTO appearance_images (id, content_type, data) VALUES (?, ?, ?)",
            [.text(id.lowercased()), .text(request.header("content-type") ?? "image/png"), .blob(request.body)])
        return .json(200, ["id": .string(id.lowercased())])
    }

    /// `GET /admin/push-outbox/<id>`: one entry, with its delivery state and attempts (the dashboard follows a
    /// "Send test" this way).
    private func pushOutboxEntry(_ text: String) throws -> HTTPResponse {
        guard let id = Int64(text), id > 0,
            let row = try db.row("SELECT \(Columns.pushOutbox) FROM push_outbox WHERE id = ?", [.int(id)])
        else { throw APIError(404, "not_found", "No such push.") }
        return .json(200, Self.pushJSON(row))
    }

    private func pushOutbox() throws -> HTTPResponse {
        .json(200, ["pushes": .array(try db.query("SELECT \(Columns.pushOutbox) FROM push_outbox ORDER BY id").map(Self.pushJSON))])
    }

    private func conversationsList() throws -> HTTPResponse {
        let rows = try db.query(
            """
            SELECT c.id, c.device_id, c.status, c.last_seq, c.last_message_at, c.team_read_seq, d.read_seq
            FROM conversations c JOIN devices d ON d.id = c.device_id ORDER BY c.last_message_at DESC
            """)
        return .json(
            200,
            [
                "conversations": .array(
                    try rows.map { row in
                        let id = row.text("id") ?? ""
                        return [
                            "id": .string(id), "deviceId": .optional(row.text("device_id")),
                            "status": .optional(row.text("status")), "lastSeq": .int(row.int("last_seq") ?? 0),
                            "unreadForUser": .int(try unreadCount(conversationId: id, readSeq: row.int("read_seq") ?? 0)),
                            "unreadForTeam": .int(
                                try teamUnreadCount(conversationId: id, teamReadSeq: row.int("team_read_seq") ?? 0)),
                            "lastMessageAt": InternetDate.json(row.double("last_message_at")),
                        ]
                    })
            ])
    }
}

/// Lower-case canonical UUID text check (appearance image IDs, spec 3.17).
enum UUIDText {
    static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.lowercased().utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                else { return false }
            }
        }
        return true
    }
}
