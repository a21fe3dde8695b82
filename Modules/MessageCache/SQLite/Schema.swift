/// One step of the schema, identified by the `user_version` it leaves behind.
struct Migration: Sendable {
    /// The `user_version` after this step.
    let version: Int32
    /// What the step does, for logs.
    let name: String
    /// The statements, run in one transaction together with the version bump.
    let sql: String
}

/// The cache's schema as an ordered list of migrations. A file at version N runs every step after N, in order,
/// each step in its own transaction, so a crash between steps leaves a file at a version that the next launch
/// continues from. Steps are never edited once shipped; a change is a new step.
enum Schema {
    static let migrations: [Migration] = [
        Migration(version: 1, name: "scopes, messages and their photos", sql: """
            CREATE TABLE scopes(
                scope TEXT PRIMARY KEY,
                app_id TEXT NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE messages(
                row INTEGER PRIMARY KEY,
                scope TEXT NOT NULL,
                id TEXT NOT NULL,
                seq INTEGER,
                sender TEXT NOT NULL,
                text TEXT NOT NULL,
                kind TEXT NOT NULL,
                review_url TEXT,
                paywall_id TEXT,
                paywall_title TEXT,
                button_label TEXT,
                author_id TEXT,
                action_clicked_at REAL,
                created_at REAL NOT NULL,
                delivery INTEGER NOT NULL DEFAULT 0,
                attachments BLOB,
                attachment_ids BLOB,
                expected_image_count INTEGER NOT NULL DEFAULT 0,
                UNIQUE(scope, id)
            );
            CREATE INDEX messages_by_seq ON messages(scope, seq);
            CREATE TABLE images(
                message_row INTEGER NOT NULL REFERENCES messages(row) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                jpeg BLOB NOT NULL,
                PRIMARY KEY(message_row, position)
            );
            """),
        Migration(version: 2, name: "draft and session state", sql: """
            CREATE TABLE session_values(
                scope TEXT NOT NULL,
                key TEXT NOT NULL,
                value BLOB NOT NULL,
                PRIMARY KEY(scope, key)
            ) WITHOUT ROWID;
            """),
        Migration(version: 3, name: "team profiles", sql: """
            CREATE TABLE team_profiles(
                scope TEXT NOT NULL,
                position INTEGER NOT NULL,
                id TEXT NOT NULL,
                name TEXT NOT NULL,
                photo_key TEXT,
                photo BLOB,
                PRIMARY KEY(scope, id)
            ) WITHOUT ROWID;
            """),
    ]

    /// The version this build writes.
    @_optimize(size) static var latestVersion: Int32 { migrations.last?.version ?? 0 }

    /// Brings the file to `target` (the latest by default). A file from a newer build cannot be read safely and
    /// counts as unusable.
    @inline(never) @_optimize(size)
    static func migrate(_ connection: SQLiteConnection, to target: Int32 = latestVersion) throws(SQLiteFailure) {
        let current = Int32(truncatingIfNeeded: try connection.integer("PRAGMA user_version") ?? 0)
        if current > latestVersion {
            throw SQLiteFailure(
                code: .corrupt, message: "schema version \(current) is newer than \(latestVersion)",
                fileIsUnusable: true)
        }
        for migration in migrations where migration.version > current && migration.version <= target {
            try connection.transaction { () throws(SQLiteFailure) in
                try connection.execute(migration.sql)
                // user_version is part of the transaction: the step and its version commit together.
                try connection.execute("PRAGMA user_version = \(migration.version)")
            }
        }
    }
}
