import Foundation
import ReceptionCore
import ReceptionKit
import ReceptionTesting
import Testing

/// Seed 000 ("Users & accounts") rows that were built but not proven (issue 52), through the public API against the
/// real emulator over loopback: labels and metadata changed offline, a verified chat relabelled by the app, what a
/// logout leaves behind (an unsent click receipt, the previous user's session and history), `deleteData()` right
/// after a logout, and `invalid_configuration`'s status.
@Suite("SeedPromisesTests+Accounts", .serialized)
@MainActor
struct SeedPromisesAccountsTests {
    static func record(_ service: Service, _ device: String) async throws -> [String: Any] {
        try await service.admin("GET", "devices/\(device)")
    }

    /// The device updates (`PATCH devices/me`) this install has had answered.
    static func deviceUpdates(_ app: App) -> Int {
        app.transport.log.filter { $0.request.method == "PATCH" && $0.path.hasSuffix("/devices/me") }.count
    }

    /// The app goes to the background and comes back: the foreground device update (spec 7.2).
    static func foreground(_ app: App) {
        app.reception.appDidEnterBackground()
        app.reception.appDidBecomeActive()
    }

    /// Seed 000 "Identity and metadata": labels and metadata set while offline are sent with the next device update
    /// once the network is back, and the dashboard (the admin API it reads) shows them.
    @Test func labelsAndMetadataChangedOfflineReachTheServiceAfterReconnecting() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        app.reception.identify(userId: "user-a", name: "Ada", email: "ada@example.com")
        app.reception.setMetadata(["plan": "free"])
        try await app.send("before going offline")
        let device = try #require(try await service.devices().first?["id"] as? String)
        app.transport.isOffline = true
        app.reception.identify(userId: "user-a", name: "Ada Lovelace", email: "ada@lovelace.example")
        app.reception.setMetadata(["plan": "pro", "seats": "3"])
        Self.foreground(app)
        let tried = await until {
            app.transport.refused.contains { $0.method == "PATCH" && $0.url.path.hasSuffix("/devices/me") }
        }
        #expect(tried, "the foreground device update was tried offline")
        var stored = try await Self.record(service, device)
        #expect(stored["name"] as? String == "Ada" && stored["metadata"] as? [String: String] == ["plan": "free"],
                "nothing reached the service while offline")
        app.transport.isOffline = false
        Self.foreground(app)
        let arrived = await until {
            let record = (try? await Self.record(service, device)) ?? [:]
            return record["metadata"] as? [String: String] == ["plan": "pro", "seats": "3"]
        }
        #expect(arrived, "the metadata changed offline reached the service")
        stored = try await Self.record(service, device)
        #expect(stored["name"] as? String == "Ada Lovelace" && stored["email"] as? String == "ada@lovelace.example")
        #expect(stored["label"] as? String == "Ada Lovelace" && stored["badge"] as? String == "unverified",
                "the dashboard's label follows: \(stored)")
        let inbox = try await service.admin("GET", "inbox")["conversations"] as? [[String: Any]] ?? []
        #expect(inbox.first { $0["deviceId"] as? String == device }?["label"] as? String == "Ada Lovelace")
    }

    /// Seed 000 "Verified users": once a token verified the chat, labels the app sets with
    /// `identify(userId:name:email:)` do not replace what the team sees: the token's identity.
    @Test func aVerifiedChatRelabelledByTheAppStillShowsTheTokensIdentity() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        let claims: [String: Any] = [
            "user_id": "alice", "name": "Alice Token", "email": "alice@token.example",
            "exp": Int(Date().timeIntervalSince1970) + 3600,
        ]
        app.reception.identify(token: try service.token(claims: claims))
        try await app.send("verified hello")
        #expect(await until { app.reception.identityState == .verified(userId: "alice") })
        let device = try #require(try await service.devices().first?["id"] as? String)
        let updates = Self.deviceUpdates(app)
        app.reception.identify(userId: "mallory", name: "Mallory Label", email: "mallory@label.example")
        Self.foreground(app)
        #expect(await until { Self.deviceUpdates(app) > updates }, "the relabelling went out in a device update")
        let record = try await Self.record(service, device)
        #expect(record["label"] as? String == "Alice Token" && record["badge"] as? String == "verified", "\(record)")
        #expect(record["verifiedUserId"] as? String == "alice" && record["verifiedEmail"] as? String == "alice@token.example")
        let inbox = try await service.admin("GET", "inbox")["conversations"] as? [[String: Any]] ?? []
        let row = try #require(inbox.first { $0["deviceId"] as? String == device })
        #expect(row["label"] as? String == "Alice Token" && row["badge"] as? String == "verified")
        let found = try await service.admin("GET", "devices?query=Mallory")["devices"] as? [[String: Any]] ?? []
        #expect(found.allSatisfy { $0["label"] as? String != "Mallory Label" }, "no row shows the app's label")
    }

    /// Seed 000 "Log out": logout clears pending work; a card's click receipt queued offline is not sent by the next
    /// session once the network is back.
    @Test func logoutClearsAClickReceiptNotSentYet() async throws {
        let service = try Service()
        let (app, device, card) = try await CardTests.reviewCardShown(service)
        app.transport.isOffline = true
        #expect(app.reception.tapCard(card))
        #expect(await until { app.transport.refused.contains { $0.url.path.hasSuffix("/conversation/action-click") } })
        app.reception.logout()
        app.transport.isOffline = false
        // The next session registers and updates its device: the moment a queued receipt would be flushed.
        try await app.send("a new session")
        let updates = Self.deviceUpdates(app)
        Self.foreground(app)
        #expect(await until { Self.deviceUpdates(app) > updates })
        #expect(!app.transport.log.contains { $0.path.hasSuffix("/conversation/action-click") }, "the receipt was sent")
        #expect(try await CardTests.reviewClickedAt(service, device) == nil)
    }

    /// Seed 000 "Log out": identifying the same user again after a logout starts a new session; the old session and
    /// its history do not come back (they stay on the service, under the old device).
    @Test func identifyingThePreviousUserAgainBringsNoOldSessionOrHistoryBack() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        app.reception.identify(userId: "user-a", name: "Ada")
        try await app.send("A's first chat 91c2")
        let old = try #require(try await service.devices().first?["id"] as? String)
        let oldSecret = try #require(app.sessionSecret())
        app.reception.logout()
        #expect(await until { (try? await service.refreshStatus(secret: oldSecret)) == 401 }, "the old session ended")
        app.reception.identify(userId: "user-a", name: "Ada")
        app.reception.openChat()
        let chat = try #require(app.reception.chat)
        await chat.refresh()
        #expect(chat.messages.isEmpty, "the old history is not shown")
        #expect(app.sessionSecret() == nil, "no session before the next send")
        try await app.send("A again")
        let devices = try await service.devices()
        let new = try #require(devices.first { $0["id"] as? String != old }?["id"] as? String)
        #expect(devices.count == 2 && app.sessionSecret() != oldSecret)
        let current = try #require(app.reception.chat)
        await current.refresh()
        #expect(current.messages.map(\.text) == ["A again"])
        #expect(try await service.messages(device: new) == ["A again"])
        #expect(try await service.messages(device: old) == ["A's first chat 91c2"], "the old history stays on the service")
    }

    /// Seed 000 "Delete data": `deleteData()` right after `logout()` has no session left to delete remotely; it
    /// completes locally (`.dataDeleted`), and the earlier conversation stays on the service.
    @Test func deleteDataRightAfterALogoutCompletesLocallyAndTheEarlierConversationStays() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("kept on the service 5d1e")
        let device = try #require(try await service.devices().first?["id"] as? String)
        app.reception.logout()
        try await app.reception.deleteData()
        #expect(app.events.filter { $0 == .dataDeleted }.count == 1)
        #expect(!app.transport.log.contains { $0.request.method == "DELETE" }, "no deletion request went out")
        #expect(!app.transport.refused.contains { $0.method == "DELETE" })
        #expect(try await service.messages(device: device) == ["kept on the service 5d1e"])
        #expect(try await service.devices().contains { $0["id"] as? String == device })
        #expect(!app.storeBytes().contains(Data("kept on the service 5d1e".utf8)))
    }

    /// Seed 000 "Handle ReceptionError": `invalid_configuration` has status 0 (no HTTP answer) — here where the
    /// facade refuses a service root that is not http or https, as its log line says.
    @Test(arguments: ["ftp://127.0.0.1/", "ws://127.0.0.1:8080", "file:///tmp/reception"])
    func invalidConfigurationCarriesStatusZero(root: String) async throws {
        let log = RecordingLogHandler()
        let previous = Reception.logHandler
        Reception.logHandler = { level, text in log.log(LogRecord(level: level, category: "Reception", message: text)) }
        defer { Reception.logHandler = previous }
        let reception = Reception()
        var configuration = ReceptionConfiguration(
            serviceRoot: try #require(URL(string: root)),
            dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("kit-invalid-\(UUID().uuidString)"))
        configuration.lifecycle = nil
        configuration.network = nil
        reception.configure(appId: "app_AbCdEfGhIjKlMnOpQrStUv", configuration: configuration)
        #expect(!reception.isConfigured)
        let lines = log.records.filter { $0.level == .error && $0.message.contains("invalid_configuration") }.map(\.message)
        // (Another suite may refuse a root at the same time: every such line says status 0.)
        #expect(!lines.isEmpty && lines.allSatisfy { $0.contains("status 0") }, "\(log.records.map(\.message))")
    }
}
