import Foundation
@testable import ReceptionCore
@testable import ReceptionKit
import ReceptionTesting
import Testing

/// Spec 7.1 step 5, the restored-backup rule: the app's files come back from a backup but the secure store's items
/// are device-bound and do not, so a namespace that says a conversation exists has no session secret. The chat is
/// cleared and its namespace is not reused; the next send registers a new device. A keychain that is only locked
/// (unavailable, not missing) keeps the chat.
@Suite("SeedPromisesTests+Backup", .serialized)
@MainActor
struct SeedPromisesBackupTests {
    /// The preferences as they are on disk.
    static func preferences(_ app: App) throws -> [String: String] {
        let data = try Data(contentsOf: app.directory.appendingPathComponent("preferences.json"))
        return try JSONDecoder().decode([String: String].self, from: data)
    }

    /// Ends the install's process as far as its files go: the chat's connection closes (SQLite removes its WAL
    /// then), so the files are what a backup would hold.
    static func endProcess(_ app: App) async throws {
        var elsewhere = app.configuration
        elsewhere.dataDirectory = app.directory.appendingPathComponent("ended-process", isDirectory: true)
        elsewhere.secureStore = InMemorySecureStore()
        app.reception.configure(appId: "app_EndedProcess0000000000", configuration: elsewhere)
        await app.reception.waitUntilReady()
        let wal = app.directory.appendingPathComponent("messages.sqlite-wal").path
        try #require(await until { !FileManager.default.fileExists(atPath: wal) }, "the old connection did not close")
        try FileManager.default.removeItem(at: elsewhere.dataDirectory)
        FilePreferences.dropShared(url: app.directory.appendingPathComponent("preferences.json"))
    }

    @Test func aRestoredChatWithoutItsSessionSecretIsClearedAndNotReused() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("from before the restore 9c1e")
        let before = try #require(try await service.devices().first?["id"] as? String)
        let generation = try #require(try Self.preferences(app)["\(service.appID).generation"])
        try await Self.endProcess(app)
        // The restore: every file but the secure store's device-bound items.
        try FileManager.default.removeItem(at: app.directory.appendingPathComponent("secure"))
        await app.launch()
        let chat = try #require(app.reception.chat)
        // The engine loads the cache when it starts (idempotent): after this the model shows what the cache held.
        await chat.engine.start()
        await chat.refresh()
        #expect(app.texts.isEmpty, "the restored chat is shown: \(app.texts)")
        #expect(app.storeBytes().range(of: Data("from before the restore 9c1e".utf8)) == nil, "its text is still stored")
        #expect(try Self.preferences(app)["\(service.appID).generation"] != generation, "the namespace was reused")

        try await app.send("after the restore")
        let devices = try await service.devices()
        #expect(devices.count == 2, "the send did not register a new device")
        let after = try #require(devices.first { $0["id"] as? String != before }?["id"] as? String)
        #expect(try await service.messages(device: after) == ["after the restore"])
        #expect(try await service.messages(device: before) == ["from before the restore 9c1e"], "the server keeps it")
        #expect(app.texts == ["after the restore"])
    }

    @Test func aLockedKeychainAtLaunchKeepsTheChat() async throws {
        let service = try Service()
        let lock = LockableSecureStore.Lock()
        let app = App(service)
        app.wrapSecureStore = { LockableSecureStore($0, lock: lock) }
        await app.launch()
        try await app.send("kept while locked")
        let generation = try #require(try Self.preferences(app)["\(service.appID).generation"])
        try await Self.endProcess(app)
        // Before the first unlock after a restart the item is unavailable, not missing.
        lock.isLocked = true
        await app.launch()
        let chat = try #require(app.reception.chat)
        #expect(await until { await chat.refresh(); return app.texts == ["kept while locked"] }, "texts: \(app.texts)")
        #expect(try Self.preferences(app)["\(service.appID).generation"] == generation)
        lock.isLocked = false
        try await app.send("after the unlock")
        #expect(try await service.devices().count == 1, "the same session goes on")
    }
}
