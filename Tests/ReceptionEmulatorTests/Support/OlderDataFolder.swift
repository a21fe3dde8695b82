import Foundation
import ReceptionEmulator

/// Data folders as an older emulator left them, for tests that a new migration still opens them.
enum OlderDataFolder {
    /// A fresh folder whose database has every migration before `migration` applied and recorded, and the rows
    /// `fill` writes; the database is closed again before the folder's path is returned.
    static func make(before migration: String, fill: (SQLiteDatabase) throws -> Void) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let db = try SQLiteDatabase(path: directory + "/emulator.sqlite")
        try db.execute("CREATE TABLE migrations (name TEXT PRIMARY KEY)")
        for (name, sql) in Schema.migrations.prefix(while: { $0.0 != migration }) {
            try db.execute(sql)
            try db.query("INSERT INTO migrations (name) VALUES (?)", [.text(name)])
        }
        try fill(db)
        return directory
    }
}
