/// The emulator's database schema as named migrations, run in order once each (recorded in `migrations`).
package enum Schema {
    /// `(name, SQL)` in the order they apply; package-visible so a test can build a data folder of an earlier
    /// version.
    package static let migrations: [(String, String)] = [
        (
            "001_core",
            """
            CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE devices (
                id TEXT PRIMARY KEY, created_at REAL NOT NULL, info TEXT NOT NULL DEFAULT '{}',
                external_user_id TEXT, name TEXT, email TEXT, language TEXT,
                metadata TEXT NOT NULL DEFAULT '{}', paywalls TEXT NOT NULL DEFAULT '[]',
                push_token TEXT, push_environment TEXT, updates_app_badge INTEGER,
                verified_user_id TEXT, verified_name TEXT, verified_email TEXT, verified_at REAL,
                blocked INTEGER NOT NULL DEFAULT 0, reset_revision INTEGER NOT NULL DEFAULT 0,
                read_seq INTEGER NOT NULL DEFAULT 0, user_typing INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE sessions (
                secret TEXT PRIMARY KEY, device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
                revoked INTEGER NOT NULL DEFAULT 0, created_at REAL NOT NULL);
            CREATE TABLE access_tokens (
                token TEXT PRIMARY KEY, device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
                session_secret TEXT NOT NULL REFERENCES sessions(secret) ON DELETE CASCADE, expires_at REAL NOT NULL);
            CREATE TABLE conversations (
                id TEXT PRIMARY KEY, device_id TEXT NOT NULL UNIQUE REFERENCES devices(id) ON DELETE CASCADE,
                status TEXT NOT NULL, created_at REAL NOT NULL, last_message_at REAL, last_seq INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE messages (
                id TEXT PRIMARY KEY,
                conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                seq INTEGER NOT NULL, client_id TEXT, sender TEXT NOT NULL, text TEXT NOT NULL,
                kind TEXT NOT NULL DEFAULT 'TEXT', review_url TEXT, paywall_id TEXT, paywall_title TEXT,
                button_label TEXT, author_id TEXT, action_clicked_at REAL, created_at REAL NOT NULL,
                UNIQUE (conversation_id, seq), UNIQUE (conversation_id, client_id));
            CREATE TABLE attachments (
                id TEXT PRIMARY KEY, device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
                request_id TEXT, content_type TEXT NOT NULL, bytes INTEGER NOT NULL,
                width INTEGER, height INTEGER, checksum TEXT NOT NULL, data BLOB, uploaded INTEGER NOT NULL DEFAULT 0,
                message_id TEXT REFERENCES messages(id) ON DELETE CASCADE, position INTEGER NOT NULL DEFAULT 0,
                created_at REAL NOT NULL, UNIQUE (device_id, request_id));
            CREATE TABLE team (id TEXT PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE push_outbox (
                id INTEGER PRIMARY KEY AUTOINCREMENT, device_id TEXT NOT NULL, push_token TEXT NOT NULL,
                push_environment TEXT, payload TEXT NOT NULL, created_at REAL NOT NULL);
            CREATE TABLE appearance_images (id TEXT PRIMARY KEY, content_type TEXT NOT NULL, data BLOB NOT NULL);
            CREATE INDEX messages_by_conversation ON messages (conversation_id, seq);
            CREATE INDEX attachments_by_message ON attachments (message_id, position);
            """
        ),
        (
            // Unread counts (spec 8.2) filter by sender above a seq; without this they scan the conversation.
            "002_unread_index",
            "CREATE INDEX messages_by_sender ON messages (conversation_id, sender, seq);"
        ),
        (
            // Team photos (spec 4.5): the bytes, their type and the content identifier the signed URLs name. A
            // photo belongs to one member row; rows written before this migration read as members without a photo.
            "003_team_photos",
            """
            ALTER TABLE team ADD COLUMN photo_id TEXT;
            ALTER TABLE team ADD COLUMN photo_type TEXT;
            ALTER TABLE team ADD COLUMN photo BLOB;
            CREATE INDEX team_by_photo ON team (photo_id);
            """
        ),
        (
            // Dashboard signals (seed 001 "delivery and read status", "In chat", "Last active in chat"; seed 002
            // "Send test"): when each agent message was first delivered to and read by the device, when the device
            // was last active in chat, and which outbox entries are test pushes. Rows written before this migration
            // have no receipts or activity recorded (null) until a later fetch, read or chat request records them.
            "004_dashboard_signals",
            """
            ALTER TABLE messages ADD COLUMN delivered_at REAL;
            ALTER TABLE messages ADD COLUMN read_at REAL;
            ALTER TABLE devices ADD COLUMN last_active_in_chat_at REAL;
            ALTER TABLE push_outbox ADD COLUMN is_test INTEGER NOT NULL DEFAULT 0;
            """
        ),
        (
            // Expired access tokens are deleted whenever a token is issued; the index keeps that delete a range scan
            // of the expired rows instead of a pass over the whole table.
            "005_access_token_expiry",
            "CREATE INDEX access_tokens_by_expiry ON access_tokens (expires_at);"
        ),
        (
            // The dashboard (issue 18): a team-assigned display name kept apart from the SDK's `name` (seed 000),
            // when the device was last seen, and how far the team has read each conversation (unread for the
            // team). Older rows read as no display name, never seen since, nothing read by the team.
            "006_dashboard",
            """
            ALTER TABLE devices ADD COLUMN display_name TEXT;
            ALTER TABLE devices ADD COLUMN last_seen_at REAL;
            ALTER TABLE conversations ADD COLUMN team_read_seq INTEGER NOT NULL DEFAULT 0;
            """
        ),
        (
            // The APNs provider (issue 30): how each outbox entry fared (`outbox` when no key is saved and it was
            // only written here; `queued`, `delivered`, `token_dropped`, `rejected` once the provider had it), the
            // apns-id APNs gave it, every attempt as a JSON array, and the device's last rejection, shown until a
            // delivery succeeds (seed 002). Older rows read as outbox-only entries without attempts.
            "007_apns_delivery",
            """
            ALTER TABLE push_outbox ADD COLUMN delivery TEXT NOT NULL DEFAULT 'outbox';
            ALTER TABLE push_outbox ADD COLUMN apns_id TEXT;
            ALTER TABLE push_outbox ADD COLUMN attempts TEXT NOT NULL DEFAULT '[]';
            ALTER TABLE devices ADD COLUMN push_rejection TEXT;
            """
        ),
        (
            // Team roles (seed 000, issue 41): each member is an Owner or an Agent. Members written before this
            // migration are Agents; the emulator makes the member `owner` an Owner whenever the team has none.
            // Review-request state (seed 000 "Delete support data", "Reset support"): when an agent last sent the
            // device a review card, kept by Reset support and removed with the device.
            "008_team_roles",
            """
            ALTER TABLE team ADD COLUMN role TEXT NOT NULL DEFAULT 'agent' CHECK (role IN ('owner', 'agent'));
            ALTER TABLE devices ADD COLUMN review_requested_at REAL;
            """
        ),
    ]

    /// Applies every migration not yet recorded.
    static func migrate(_ db: SQLiteDatabase) throws {
        try db.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY)")
        let applied = Set(try db.query("SELECT name FROM migrations").compactMap { $0.text("name") })
        for (name, sql) in migrations where !applied.contains(name) {
            try db.transaction {
                try db.execute(sql)
                try db.query("INSERT INTO migrations (name) VALUES (?)", [.text(name)])
            }
        }
    }
}

/// The columns each read names instead of `SELECT *`, per table: a reader states what it reads, a
/// migration that adds a column changes no query, and a photo's bytes are read only by the queries that use them.
/// `SchemaTests` checks every list against the migrated schema.
package enum Columns {
    /// `devices`, every column.
    package static let devices = """
        id, created_at, info, external_user_id, name, email, language, metadata, paywalls, push_token, \
        push_environment, updates_app_badge, verified_user_id, verified_name, verified_email, verified_at, blocked, \
        reset_revision, read_seq, user_typing, last_active_in_chat_at, display_name, last_seen_at, push_rejection, \
        review_requested_at
        """
    /// `conversations`, every column.
    package static let conversations = "id, device_id, status, created_at, last_message_at, last_seq, team_read_seq"
    /// `messages`, every column.
    package static let messages = """
        id, conversation_id, seq, client_id, sender, text, kind, review_url, paywall_id, paywall_title, \
        button_label, author_id, action_clicked_at, created_at, delivered_at, read_at
        """
    /// `attachments` without the photo's bytes (`data`).
    package static let attachments = """
        id, device_id, request_id, content_type, bytes, width, height, checksum, uploaded, message_id, position, \
        created_at
        """
    /// `attachments` with the photo's bytes.
    package static let attachmentsWithData = attachments + ", data"
    /// `push_outbox`, every column.
    package static let pushOutbox = """
        id, device_id, push_token, push_environment, payload, created_at, is_test, delivery, apns_id, attempts
        """
}
