import Foundation
import ReceptionEmulator
import Testing

/// The named column lists the emulator's reads use (`Columns`, instead of `SELECT *`) are exactly the migrated
/// schema's columns, each once, so no reader silently misses a column a migration added.
@Suite("SchemaColumnsTests")
struct SchemaColumnsTests {
    static func migratedColumns(_ table: String) throws -> [String] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try SQLiteDatabase(path: directory.path + "/emulator.sqlite")
        for (_, sql) in Schema.migrations { try db.execute(sql) }
        return try db.query("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)]).compactMap { $0.text("name") }
    }

    static func names(_ list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    @Test("every list names every column of its table once", arguments: [
        ("devices", Columns.devices), ("conversations", Columns.conversations), ("messages", Columns.messages),
        ("attachments", Columns.attachmentsWithData), ("push_outbox", Columns.pushOutbox),
    ])
    func listsMatchTheSchema(table: String, list: String) throws {
        let schema = try Self.migratedColumns(table)
        #expect(!schema.isEmpty)
        #expect(Set(Self.names(list)) == Set(schema), "\(table)")
        #expect(Self.names(list).count == schema.count, "\(table)")
    }

    @Test("the attachment list without the bytes is the full list minus data")
    func attachmentsWithoutData() throws {
        #expect(Self.names(Columns.attachments) == Self.names(Columns.attachmentsWithData).filter { $0 != "data" })
        #expect(!Self.names(Columns.attachments).contains("data"))
    }

    @Test("no read in the emulator's sources selects every column")
    func noSelectStar() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Modules/ReceptionEmulator")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        #expect(files.count > 20)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("SELECT *") && !line.contains("///") {
                Issue.record("\(file.lastPathComponent): \(line)")
            }
        }
    }
}
