import Foundation

/// The whole emulator state as one JSON file (`GET`/`PUT /admin/snapshot`, `--import`, `--export-on-exit`), and
/// `POST /admin/reset`.
///
/// A snapshot is `{"format": "reception-emulator-snapshot", "version": 1, "tables": {name: {"columns": [...],
/// "rows": [[...]]}}}` with every table of the state: the settings document (credentials included), devices,
/// sessions, access tokens, conversations, messages, attachments (photo bytes), team, push outbox and appearance
/// images. A value is `null`, a number, a string, or `{"base64": "..."}` for bytes. The APNs key's settings row is
/// left out unless the export asks for it; importing a snapshot without it leaves the app without a key (the
/// identifiers stay, as after Disconnect).
extension EmulatorState {
    static let snapshotFormat = "reception-emulator-snapshot"

    /// The tables of a snapshot, parents before children (the order rows are inserted in).
    static let snapshotTables = [
        "settings", "devices", "sessions", "access_tokens", "conversations", "messages", "attachments", "team",
        "push_outbox", "appearance_images",
    ]

    /// The state as a snapshot document; the APNs key only when `includingAPNsKey`.
    func snapshot(includingAPNsKey: Bool = false) throws -> JSONValue {
        var tables: [String: JSONValue] = [:]
        for table in Self.snapshotTables {
            let columns = try columnNames(table)
            let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            let keyRow = table == "settings" && !includingAPNsKey ? " WHERE key <> '\(Self.apnsKeyRow)'" : ""
            let rows = try db.query("SELECT \(list) FROM \(table)\(keyRow) ORDER BY rowid")
            tables[table] = [
                "columns": .array(columns.map(JSONValue.string)),
                "rows": .array(rows.map { row in .array(columns.map { Self.json(row.columns[$0] ?? .null) }) }),
            ]
        }
        return [
            "format": .string(Self.snapshotFormat), "version": 1, "exportedAt": InternetDate.json(now),
            "tables": .object(tables),
        ]
    }

    /// Replaces the whole state with a snapshot's, credentials included. Anything wrong with it (not JSON, cut
    /// short, another format, an unknown table or column, a row of the wrong width, settings that do not decode, a
    /// row the schema refuses) is 400 `invalid_snapshot` and changes nothing.
    func importSnapshot(_ bytes: [UInt8]) throws {
        func refuse(_ why: String) -> APIError { APIError(400, "invalid_snapshot", "The snapshot is not valid: \(why).") }
        guard let document = try? JSONValue.parse(bytes), let object = document.objectValue else {
            throw refuse("it is not a complete JSON object")
        }
        guard object["format"]?.stringValue == Self.snapshotFormat, object["version"] == 1 else {
            throw refuse("format must be \(Self.snapshotFormat), version 1")
        }
        guard let tables = object["tables"]?.objectValue else { throw refuse("tables is missing") }
        if let unknown = tables.keys.first(where: { !Self.snapshotTables.contains($0) }) {
            throw refuse("unknown table \(unknown.prefix(64))")
        }
        var plan: [(table: String, columns: [String], rows: [[SQLValue]])] = []
        for table in Self.snapshotTables {
            guard let content = tables[table]?.objectValue,
                let columns = content["columns"]?.arrayValue?.compactMap(\.stringValue),
                let rows = content["rows"]?.arrayValue
            else { throw refuse("table \(table) needs columns and rows") }
            let known = Set(try columnNames(table))
            guard !columns.isEmpty, Set(columns).count == columns.count, columns.allSatisfy(known.contains) else {
                throw refuse("table \(table) has unknown or repeated columns")
            }
            var values: [[SQLValue]] = []
            values.reserveCapacity(rows.count)
            for row in rows {
                guard let cells = row.arrayValue, cells.count == columns.count else {
                    throw refuse("a row of \(table) does not have \(columns.count) values")
                }
                values.append(try cells.map { cell in
                    guard let value = Self.sqlValue(cell) else { throw refuse("a value of \(table) is not storable") }
                    return value
                })
            }
            plan.append((table, columns, values))
        }
        guard let settingsRows = plan.first?.rows, let keyIndex = plan.first?.columns.firstIndex(of: "key"),
            let valueIndex = plan.first?.columns.firstIndex(of: "value"),
            let stored = settingsRows.first(where: { $0[keyIndex] == .text("app") }),
            case .text(let text) = stored[valueIndex],
            let imported = try? JSONDecoder().decode(AppSettings.self, from: Data(text.utf8))
        else { throw refuse("the settings carry no app document") }
        guard Self.isUsable(imported) else { throw refuse("the settings hold a value outside its range") }
        do {
            try db.transaction {
                for table in Self.snapshotTables.reversed() { try db.query("DELETE FROM \(table)") }
                for (table, columns, rows) in plan {
                    let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
                    let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
                    let sql = "INSERT INTO \(table) (\(list)) VALUES (\(marks))"
                    for row in rows { try db.query(sql, row) }
                }
            }
        } catch let error as SQLiteError {
            throw refuse("the database refused it (\(error.message))")
        }
        settings = imported
        apnsKey = try loadAPNsKey()
        rateWindows.removeAll()
        hub.closeAll()
        // A snapshot from before team roles (or one without an Owner) still opens with an Owner; members it lacks
        // are signed out.
        try ensureOwner()
        try forgetRemovedMembers()
    }

    /// `POST /admin/reset`: no devices (with their sessions, tokens, conversations, messages and photos) and an
    /// empty push outbox; the App ID, admin token, identity secret, settings, team and appearance stay.
    func reset() throws {
        try db.transaction {
            for table in ["attachments", "messages", "conversations", "access_tokens", "sessions", "devices", "push_outbox"] {
                try db.query("DELETE FROM \(table)")
            }
        }
        rateWindows.removeAll()
        hub.closeAll()
    }

    /// The ranges the admin API enforces on the settings it writes, checked again for imported ones.
    private static func isUsable(_ settings: AppSettings) -> Bool {
        let credentials = [settings.appId, settings.adminToken, settings.signingKey]
        guard credentials.allSatisfy({ (1...256).contains($0.utf8.count) && !$0.containsNUL }) else { return false }
        guard settings.rateLimits.keys.allSatisfy(scopes.contains),
            settings.rateLimits.values.allSatisfy({ (0...Int(Int32.max)).contains($0.limit) && (1...86_400).contains($0.windowSeconds) })
        else { return false }
        let stagesInRange = (settings.unreadPolling ?? []).allSatisfy {
            pollingMinutes.contains(Int64($0.forMinutes)) && pollingSeconds.contains(Int64($0.everySeconds))
        }
        let push = settings.push
        let apnsUsable = settings.apns.map(EmulatorState.isWellFormed) ?? true
        return stagesInRange && apnsUsable && (push.titleTemplate?.count ?? 0) <= PushPayload.templateLimit
            && (push.bodyTemplate?.count ?? 0) <= PushPayload.templateLimit
            && (push.senderName?.count ?? 0) <= PushPayload.senderNameLimit && (0...JSONValue.safeIntegers.upperBound).contains(Int64(settings.appearanceRevision))
            && settings.appearance.utf8.count <= 60_000
    }

    private func columnNames(_ table: String) throws -> [String] {
        try db.query("PRAGMA table_info(\(table))").compactMap { $0.text("name") }
    }

    private static func json(_ value: SQLValue) -> JSONValue {
        switch value {
        case .null: return .null
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        case .text(let text): return .string(text)
        case .blob(let bytes): return ["base64": .string(Data(bytes).base64EncodedString())]
        }
    }

    private static func sqlValue(_ value: JSONValue) -> SQLValue? {
        switch value {
        case .null: return .null
        // Whole numbers within ±(2^53 − 1): a counter such as `last_seq` is incremented later, which must not trap.
        case .int(let number): return JSONValue.safeIntegers.contains(number) ? .int(number) : nil
        case .double(let number): return number.isFinite ? .double(number) : nil
        case .string(let text): return .text(text)
        case .object(let members):
            guard members.count == 1, let text = members["base64"]?.stringValue,
                let data = Data(base64Encoded: text)
            else { return nil }
            return .blob(Array(data))
        case .bool, .array, .outOfRangeNumber: return nil
        }
    }
}
