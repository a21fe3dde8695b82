import Foundation
import ReceptionCore
import ReceptionKit
import ReceptionTesting
import Testing

/// The seven checks of seed 000's "Test your integration" that need neither APNs nor a phone, against the real
/// emulator, real SQLite files, real secure-store files and URLSession over loopback.
@Suite("AccountLifecycleTests", .serialized)
@MainActor
struct AccountLifecycleTests {
    // Check 1: identity and metadata reach the service; replaced and cleared metadata disappears.
    @Test func identityAndMetadataReachTheService() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        app.reception.identify(userId: "user-a", name: "Ada", email: "ada@example.com")
        app.reception.setMetadata(["plan": "pro", "team": "blue"])
        #expect(app.reception.identityState == .labelled(userId: "user-a"))
        try await app.send("Hello from support verification.")
        var device = try #require(try await service.devices().first)
        #expect(device["externalUserId"] as? String == "user-a")
        #expect(device["name"] as? String == "Ada" && device["email"] as? String == "ada@example.com")
        #expect(device["metadata"] as? [String: String] == ["plan": "pro", "team": "blue"])
        app.reception.setMetadata([:])
        app.reception.openChat()
        let cleared = await until {
            (try? await service.devices().first?["metadata"] as? [String: String]) == [:]
        }
        #expect(cleared, "an opened, started chat sends the cleared metadata")
        device = try #require(try await service.devices().first)
        #expect(device["externalUserId"] as? String == "user-a", "omitted labels are kept")
    }

    // Check 2: relaunch without logout keeps the history; the same device record is used.
    @Test func aRelaunchKeepsHistoryAndTheDevice() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("before relaunch")
        await app.launch()
        let restored = await until { await app.reception.chat?.refresh(); return app.texts.contains("before relaunch") }
        #expect(restored, "the cached history is shown after relaunch")
        try await app.send("after relaunch")
        let devices = try await service.devices()
        #expect(devices.count == 1)
        let id = try #require(devices.first?["id"] as? String)
        #expect(try await service.messages(device: id) == ["before relaunch", "after relaunch"])
    }

    // Check 3: switching users: A's chat is gone locally, B gets a separate device, A's server history stays,
    // and nothing of A is left in the store files.
    @Test func switchingUsersSeparatesChatsAndLeavesNothingOfA() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        app.reception.identify(userId: "user-a")
        try await app.send("secret text of user A 7f3a")
        let secretOfA = try #require(app.sessionSecret())
        #expect(try await service.refreshStatus(secret: secretOfA) == 200)
        app.reception.logout()
        #expect(app.reception.unreadCount == 0)
        #expect(app.reception.identityState == .anonymous)
        app.reception.identify(userId: "user-b")
        try await app.send("hello from B")
        #expect(!app.texts.contains("secret text of user A 7f3a"))
        let devices = try await service.devices()
        #expect(devices.count == 2)
        #expect(devices.map { $0["externalUserId"] as? String } == ["user-a", "user-b"])
        let aID = try #require(devices.first?["id"] as? String)
        #expect(try await service.messages(device: aID) == ["secret text of user A 7f3a"])
        let bytes = app.storeBytes()
        #expect(!bytes.isEmpty)
        #expect(bytes.range(of: Data("secret text of user A 7f3a".utf8)) == nil, "A's text is still in the store files")
        // The remote sign-out of A was queued and delivered: A's secret no longer renews a token.
        let revoked = await until { (try? await service.refreshStatus(secret: secretOfA)) == 401 }
        #expect(revoked, "A's session was not revoked on the service")
        #expect(app.sessionSecret() != secretOfA)
    }

    // Check 5: a token from the server secret verifies; one signed with another secret is rejected with the
    // event; B's token replaces A's chat.
    @Test func verificationAndATokenForAnotherUser() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        app.reception.identify(token: try service.token(userId: "alice"))
        try await app.send("verified hello")
        let verified = await until { app.reception.identityState == .verified(userId: "alice") }
        #expect(verified)
        #expect(try await service.devices().first?["verifiedUserId"] as? String == "alice")

        app.reception.identify(token: try service.token(userId: "alice", secret: "ids_not_the_real_secret"))
        app.reception.openChat()
        let rejected = await until {
            app.events.contains(.identityRejected(ReceptionError(code: "identity_token_invalid", status: 401)))
        }
        #expect(rejected, "events: \(app.events)")
        app.reception.closeChat()

        app.reception.identify(token: try service.token(userId: "bob"))
        #expect(!app.texts.contains("verified hello"), "a token for another user replaces the chat")
        try await app.send("bob here")
        let devices = try await service.devices()
        #expect(devices.count == 2)
        #expect(devices.last?["verifiedUserId"] as? String == "bob")
    }

    // Check 6: deleting on one of two devices removes only that device.
    @Test func deletingOnOneOfTwoDevices() async throws {
        let service = try Service()
        let phone = App(service)
        let tablet = App(service)
        await phone.launch()
        await tablet.launch()
        phone.reception.identify(userId: "same-user")
        tablet.reception.identify(userId: "same-user")
        try await phone.send("from the phone")
        try await tablet.send("from the tablet")
        #expect(try await service.devices().count == 2)
        try await phone.reception.deleteData()
        #expect(phone.events.contains(.dataDeleted))
        let devices = try await service.devices()
        #expect(devices.count == 1)
        let remaining = try #require(devices.first?["id"] as? String)
        #expect(try await service.messages(device: remaining) == ["from the tablet"])
        #expect(!phone.texts.contains("from the phone"))
        #expect(phone.storeBytes().range(of: Data("from the phone".utf8)) == nil)
    }

    // Check 7: offline deletion fails and keeps the session; the retry works; an unused session completes
    // locally without a request.
    @Test func deletionOfflineThenRetried() async throws {
        let service = try Service()
        let unused = App(service)
        await unused.launch()
        try await unused.reception.deleteData()
        #expect(unused.events == [.dataDeleted])
        #expect(try await service.devices().isEmpty)

        let app = App(service)
        await app.launch()
        try await app.send("keep me until deleted")
        app.transport.isOffline = true
        await #expect(throws: ReceptionError(code: "connection_failed")) { try await app.reception.deleteData() }
        #expect(!app.events.contains(.dataDeleted))
        #expect(app.texts.contains("keep me until deleted"), "a failed deletion keeps the session")
        app.transport.isOffline = false
        try await app.reception.deleteData()
        #expect(app.events.contains(.dataDeleted))
        #expect(try await service.devices().isEmpty)
    }

    // Check 7: a delayed deletion answer after a switch does not reset the new session.
    @Test func aDelayedDeletionAfterASwitchKeepsTheNewSession() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("user A")
        try await service.admin("POST", "faults", ["path": "/v1/devices/me", "method": "DELETE", "kind": "delay", "delayMs": 800])
        let reception = app.reception
        let deletion = Task { try await reception.deleteData() }
        #expect(await until { await service.faultsFired() }, "the deletion never reached the service")
        app.reception.logout()
        app.reception.identify(userId: "user-b")
        try await deletion.value
        #expect(app.events.contains(.dataDeleted))
        #expect(app.reception.identityState == .labelled(userId: "user-b"), "the new session was reset by a late answer")
    }

    /// Every byte of every file the SDK keeps for this install: stores, preferences, secure items, caches.
    func allFileBytes(_ app: App) -> Data {
        var all = Data()
        let files = FileManager.default.enumerator(at: app.directory, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            all.append((try? Data(contentsOf: file)) ?? Data())
        }
        return all
    }

    /// The bytes of the message cache's damaged copies (`messages.sqlite.damaged`, `-wal`, `-shm`).
    func damagedCopyBytes(_ app: App) -> Data {
        var all = Data()
        let files = (try? FileManager.default.contentsOfDirectory(atPath: app.directory.path)) ?? []
        for file in files where file.hasPrefix("messages.sqlite.damaged") {
            all.append((try? Data(contentsOf: app.directory.appendingPathComponent(file))) ?? Data())
        }
        return all
    }

    /// Ends `app`'s process as far as its files go, damages the cache file's header, and launches the install
    /// again: the new store moves the unusable file aside, so the previous chat sits in `messages.sqlite.damaged*`.
    func relaunchWithADamagedCache(_ app: App) async throws -> App {
        // The old instance moves to a folder of its own (as if its process had ended); SQLite removes the WAL when
        // the last connection to the file closes, which is the signal that nothing holds the file any more.
        var elsewhere = app.configuration
        elsewhere.dataDirectory = app.directory.appendingPathComponent("ended-process", isDirectory: true)
        elsewhere.secureStore = InMemorySecureStore()
        app.reception.configure(appId: "app_EndedProcess0000000000", configuration: elsewhere)
        await app.reception.waitUntilReady()
        let wal = app.directory.appendingPathComponent("messages.sqlite-wal").path
        try #require(await until { !FileManager.default.fileExists(atPath: wal) }, "the old connection did not close")
        try FileManager.default.removeItem(at: elsewhere.dataDirectory)
        // The header goes; the pages holding the chat stay as they were.
        let handle = try FileHandle(forWritingTo: app.directory.appendingPathComponent("messages.sqlite"))
        try handle.write(contentsOf: Data(repeating: 0xEE, count: 100))
        try handle.close()
        let relaunched = App(app.service, directory: app.directory)
        await relaunched.launch()
        try #require(await until { relaunched.reception.chat != nil })
        return relaunched
    }

    // Seed 000 ("Log out", "When deletion completes"): after either, nothing of the previous user is in any file —
    // message text and ID, draft, device ID, user ID, name, email, metadata, push token or session secret, or a
    // photo the chat showed (issue 39: the photo cache) — also when the cache file was damaged at a relaunch and
    // its copy moved aside (issue 15).
    @Test(arguments: [false, true], [false, true])
    func nothingOfThePreviousUserIsLeftInAnyFile(deleting: Bool, damagedCache: Bool) async throws {
        let service = try Service()
        let first = App(service)
        var app = first
        await app.launch()
        app.reception.identify(userId: "uid-a-51d2", name: "Name A 51d2", email: "a51d2@example.com")
        app.reception.setMetadata(["plan": "meta-a-51d2"])
        app.reception.setPushToken(Data([0xA5, 0x1D, 0x2A, 0x51, 0xD2]), environment: .sandbox)
        try await app.send("message of A 51d2")
        let messageID = try #require(app.reception.chat?.messages.first { $0.text == "message of A 51d2" }?.id)
        let deviceID = try #require(try await service.devices().first?["id"] as? String)
        // A photo from the team, viewed: its bytes now live only in the photo cache.
        let teamPhoto = try PhotoCacheTests.jpeg(width: 72, height: 40)
        let attachment = try #require(try await PhotoCacheTests.receive([teamPhoto], in: app, text: "photo for A").first)
        #expect(try await PhotoCacheTests.view(attachment, in: app) == teamPhoto)
        // Entropy-coded bytes from the middle of the JPEG: no other file can hold them by chance.
        let photoTrace = teamPhoto.subdata(in: teamPhoto.count / 2..<teamPhoto.count / 2 + 48)
        try #require(allFileBytes(app).range(of: photoTrace) != nil, "the viewed photo is not in the app's files")
        await app.reception.chat?.engine.setDraft("draft of A 51d2")
        #expect(await until { allFileBytes(app).range(of: Data("draft of A 51d2".utf8)) != nil }, "the draft was kept")
        let secret = try #require(app.sessionSecret())
        if damagedCache {
            app = try await relaunchWithADamagedCache(app)
            let damaged = damagedCopyBytes(app)
            try #require(damaged.range(of: Data("message of A 51d2".utf8)) != nil, "A's chat is not in the damaged copy")
            #expect(damaged.range(of: Data("draft of A 51d2".utf8)) != nil)
        }
        if deleting {
            try await app.reception.deleteData()
        } else {
            app.reception.logout()
            // The queued remote sign-out holds the secret until the service took it.
            #expect(await until { (try? await service.refreshStatus(secret: secret)) == 401 })
            #expect(await until { allFileBytes(app).range(of: Data(secret.utf8)) == nil }, "the revocation was not dequeued")
        }
        let bytes = allFileBytes(app)
        #expect(!bytes.isEmpty)
        for trace in ["message of A 51d2", messageID, "draft of A 51d2", deviceID, "uid-a-51d2", "Name A 51d2",
                      "a51d2@example.com", "meta-a-51d2", "a51d2a51d2", secret, attachment.id] {
            #expect(bytes.range(of: Data(trace.utf8)) == nil, "\(trace) is still in the app's files")
        }
        #expect(bytes.range(of: photoTrace) == nil, "the photo A viewed is still in the app's files")
        #expect(app.reception.identityState == .anonymous)
        #expect(app.texts.isEmpty)
        withExtendedLifetime(first) {}
    }

    // Seed 000, "When deletion completes": an unavailable App ID completes locally and emits .dataDeleted.
    @Test func deletionWithADisabledAppCompletesLocally() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("before the app was disabled")
        try await service.admin("PATCH", "app", ["disabled": true])
        try await app.reception.deleteData()
        #expect(app.events.contains(.dataDeleted))
        await app.reception.chat?.refresh()
        #expect(app.texts.isEmpty)
        #expect(app.storeBytes().range(of: Data("before the app was disabled".utf8)) == nil)
    }

    // Seed 000, "Test your integration" step 4: a logout while offline is signed out remotely after a relaunch.
    @Test func anOfflineLogoutIsSignedOutAfterARelaunch() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("then offline")
        let secret = try #require(app.sessionSecret())
        app.transport.isOffline = true
        app.reception.logout()
        // The sign-out was tried and met the offline device; only then does "still lives" say something.
        let tried = await until {
            app.transport.refused.contains { $0.url.path == "/v1/devices/me/logout" && $0.body?.range(of: Data(secret.utf8)) != nil }
        }
        #expect(tried, "the remote sign-out was never attempted")
        #expect(try await service.refreshStatus(secret: secret) == 200, "offline: the old session still lives")
        // The process ends; the next launch is online and drains the queue from the secure store.
        let relaunched = App(service, directory: app.directory)
        await relaunched.launch()
        #expect(await until { (try? await service.refreshStatus(secret: secret)) == 401 }, "not revoked after relaunch")
    }

    // Seed 000 "Only verified users" and seed 001: an unverified session learns the rule from its first send, shows
    // "Sign in to send messages.", keeps the failed message with Retry; a token clears the notice locally, and the
    // retry sends the same message as the verified user.
    @Test func anOnlyVerifiedAppAsksForSignInThenTheRetrySends() async throws {
        let service = try Service()
        try await service.admin("PATCH", "app", ["onlyVerifiedUsers": true])
        let app = App(service)
        await app.launch()
        let chat = try #require(app.reception.chat)
        var id: String?
        let accepted = await until {
            await chat.engine.setDraft("let me in")
            id = await chat.engine.send()
            return id != nil
        }
        try #require(accepted)
        let messageID = try #require(id)
        let refused = await until {
            await chat.refresh()
            return chat.messages.first { $0.id == messageID }?.status == .notDelivered
                && chat.composer.availability == .signInRequired
        }
        #expect(refused, "the first send did not learn that sign-in is required")
        #expect(chat.composer.availability.replacementText == "Sign in to send messages.")
        app.reception.identify(token: try service.token(userId: "verified-7"))
        #expect(await until { await chat.refresh(); return chat.composer.availability == .open },
                "staging a token clears the notice locally")
        #expect(await chat.engine.retry(messageID))
        #expect(await until { await chat.refresh(); return chat.messages.first { $0.id == messageID }?.status == .sent })
        let device = try #require(try await service.devices().first)
        #expect(device["verifiedUserId"] as? String == "verified-7")
        #expect(try await service.messages(device: try #require(device["id"] as? String)) == ["let me in"])
        #expect(await until { app.reception.identityState == .verified(userId: "verified-7") })
    }

    // Seed 000: deletion "also works for a blocked device and after a support reset", and the deleted device's
    // cached chat and unread state clear.
    @Test(arguments: ["block", "reset"])
    func deletionWorksForABlockedDeviceAndAfterASupportReset(action: String) async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("before \(action)")
        let device = try #require(try await service.devices().first?["id"] as? String)
        try await service.admin("POST", "devices/\(device)/messages", ["kind": "TEXT", "text": "unread reply"])
        app.reception.handlePushNotification(userInfo: ["reception": ["conversationId": "c"]], openChat: false)
        #expect(await until { app.reception.unreadCount == 1 })
        try await service.admin("POST", "devices/\(device)/\(action)")
        try await app.reception.deleteData()
        #expect(app.events.contains(.dataDeleted))
        #expect(try await service.devices().isEmpty, "the device is deleted on the service")
        // The count reaches 0 through the unread monitor's end of session, which runs after deleteData returns
        // (as SeedSampleTests waits for it); read at once, it was 1 in about one full run in six, here and on main.
        #expect(await until { app.reception.unreadCount == 0 })
        await app.reception.chat?.refresh()
        #expect(app.texts.isEmpty)
    }

    @Test func callsBeforeConfigureDoNothing() async throws {
        let reception = Reception()
        var events: [ReceptionEvent] = []
        reception.onEvent = { events.append($0) }
        reception.identify(userId: "x")
        reception.setMetadata(["a": "b"])
        reception.logout()
        reception.openChat()
        try await reception.deleteData()
        #expect(!reception.isConfigured && !reception.isChatOpen && events.isEmpty)
        #expect(reception.identityState == .anonymous && reception.chat == nil)
    }

    @Test(arguments: ["", "ids_AbCdEfGhIjKlMnOpQrStUv", "app_short", " app_AbCdEfGhIjKlMnOpQrStUv", "app_AbCdEfGhIjKlMnOpQrStU😀"])
    func aMalformedAppIDIsRefused(appID: String) {
        let reception = Reception()
        reception.configure(appId: appID)
        #expect(!reception.isConfigured)
    }
}
