import Foundation
import ReceptionCore
import ReceptionKit
import Testing

/// Issue 15: what the SDK writes into its data folder is private to the app's user — files 0600 in folders 0700,
/// as the secure store already keeps its items — checked with `stat` on the real files (root ignores the bits when
/// it reads, but they are still what the file system stores).
@Suite("FileModeTests", .serialized)
@MainActor
struct FileModeTests {
    /// `path relative to the data folder → permission bits` for the folder itself and everything in it.
    func modes(under directory: URL) throws -> [String: Int] {
        var modes: [String: Int] = [".": try mode(directory.path)]
        let manager = FileManager.default
        for relative in try manager.subpathsOfDirectory(atPath: directory.path) {
            modes[relative] = try mode(directory.appendingPathComponent(relative).path)
        }
        return modes
    }

    func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }

    func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }

    @Test func everyFileTheSDKWritesIsPrivateToTheUser() async throws {
        let service = try Service()
        try await service.admin("PUT", "appearance", ["appearance": ["text": ["title": ["en": "Modes"]]]])
        let app = App(service)
        await app.launch()
        app.reception.identify(userId: "mode-user", name: "Mode", email: "mode@example.com")
        try await app.send("a message on disk")
        await app.reception.chat?.engine.setDraft("a draft on disk")
        let appearance = app.directory.appendingPathComponent("appearance.json").path
        try #require(await until { FileManager.default.fileExists(atPath: appearance) }, "the appearance was not cached")
        let modes = try modes(under: app.directory)
        for name in ["messages.sqlite", "messages.sqlite-wal", "messages.sqlite-shm", "preferences.json",
                     "appearance.json", "secure"] {
            #expect(modes[name] != nil, "\(name) was not written")
        }
        for (name, bits) in modes.sorted(by: { $0.key < $1.key }) {
            let expected = isFolder(app.directory.appendingPathComponent(name).path) ? 0o700 : 0o600
            #expect(bits == expected, "\(name) is \(String(bits, radix: 8)), not \(String(expected, radix: 8))")
        }
    }

    // An earlier version left its files readable by others (0644 under the default umask): the next launch
    // tightens each one it opens or rewrites.
    @Test func filesAnEarlierVersionLeftOpenAreTightened() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("written before the upgrade")
        for name in ["messages.sqlite", "messages.sqlite-wal", "messages.sqlite-shm", "preferences.json"] {
            let path = app.directory.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: path) {
                try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
            }
        }
        let relaunched = App(service, directory: app.directory)
        await relaunched.launch()
        relaunched.reception.identify(userId: "after-upgrade")
        try await relaunched.send("written after the upgrade")
        for name in ["messages.sqlite", "messages.sqlite-wal", "messages.sqlite-shm", "preferences.json"] {
            let path = app.directory.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let bits = try mode(path)
            #expect(bits == 0o600, "\(name) is still \(String(bits, radix: 8))")
        }
        withExtendedLifetime(app) {}
    }
}
