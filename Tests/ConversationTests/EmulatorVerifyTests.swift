import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

/// Seed 001 "Verify in your app", the checks that need no phone, against the in-process emulator.
@Suite("EmulatorVerifyTests", .serialized)
struct EmulatorVerifyTests {
    /// A chat whose first message, "before", is Sent (so its device exists), and that device's ID.
    static func startedChat(_ server: EmulatorServer) async throws -> (EmulatorChat, String) {
        let chat = try await EmulatorChat(server: server)
        await chat.engine.setVisible(true)
        await chat.engine.setDraft("before")
        let before = try #require(await chat.engine.send())
        #expect(await chat.until { await chat.message(before)?.status == .sent })
        return (chat, try #require(try await server.deviceIDs().first))
    }

    @Test("check 1: an unused chat with a draft and a photo creates no device")
    func noDeviceBeforeFirstSend() async throws {
        let server = try EmulatorServer(clock: ManualClock())
        let chat = try await EmulatorChat(server: server)
        await chat.engine.setVisible(true)
        await chat.engine.setDraft("just a draft")
        // Returns once the photo is prepared: the last thing that could start network work has run.
        await chat.engine.addPhoto(Data([1]))
        #expect(await chat.engine.snapshot.composer.canSend, "the draft and the prepared photo could be sent")
        #expect(try await chat.client.isRegistered() == false)
        #expect(chat.transport.requests.isEmpty, "an unused chat made requests: \(chat.transport.requests)")
        #expect(try await server.deviceIDs().isEmpty)
    }

    @Test("check 2: one send, exactly one server message, Sent; an agent reply appears while open")
    func oneMessageAndReply() async throws {
        let server = try EmulatorServer(clock: ManualClock())
        let chat = try await EmulatorChat(server: server)
        await chat.engine.setVisible(true)
        await chat.engine.setDraft("Hello from support verification.")
        let id = try #require(await chat.engine.send())
        #expect(await chat.until { await chat.message(id)?.status == .sent })
        let device = try #require(try await server.deviceIDs().first)
        let stored = try await server.serverMessages(device: device)
        #expect(stored.filter { $0.text == "Hello from support verification." }.count == 1)
        #expect(stored.first?.clientId == id)
        try await server.admin("POST", "devices/\(device)/messages", json: ["kind": "TEXT", "text": "Agent here"])
        #expect(await chat.until { await chat.engine.snapshot.messages.contains { $0.text == "Agent here" } })
        #expect(await chat.engine.snapshot.messages.last?.status == .received)
    }

    @Test("check 3: a photo-only message and text with five photos; an over-limit draft cannot be sent")
    func photos() async throws {
        let server = try EmulatorServer(clock: ManualClock())
        let chat = try await EmulatorChat(server: server)
        await chat.engine.setVisible(true)
        await chat.engine.addPhoto(Data([1]))
        let photoOnly = try #require(await chat.engine.send())
        #expect(await chat.until { await chat.message(photoOnly)?.status == .sent })
        for index in 0..<5 { await chat.engine.addPhoto(Data([UInt8(index)])) }
        await chat.engine.setDraft("five photos")
        let five = try #require(await chat.engine.send())
        #expect(await chat.until { await chat.message(five)?.status == .sent })
        let device = try #require(try await server.deviceIDs().first)
        let stored = try await server.serverMessages(device: device)
        #expect(stored.map(\.photos) == [1, 5])
        #expect(stored.map(\.text) == ["", "five photos"])
        await chat.engine.setDraft(String(repeating: "x", count: 4001))
        #expect(await chat.engine.snapshot.composer.canSend == false)
        #expect(await chat.engine.send() == nil)
    }

    @Test("check 5: offline send, then recovery with exactly one server copy")
    func offlineThenRecovery() async throws {
        let server = try EmulatorServer(clock: ManualClock())
        let chat = try await EmulatorChat(server: server)
        await chat.engine.setVisible(true)
        await chat.engine.setDraft("first")
        let first = try #require(await chat.engine.send())
        #expect(await chat.until { await chat.message(first)?.status == .sent })
        chat.transport.isOffline = true
        await chat.engine.setNetworkAvailable(false)
        #expect(await chat.until(advancing: false) { await chat.engine.snapshot.banner == .offline })
        await chat.engine.setDraft("sent while offline")
        let offline = try #require(await chat.engine.send())
        #expect(await chat.until(advancing: false) { await chat.message(offline)?.status == .notDelivered })
        chat.transport.isOffline = false
        await chat.engine.setNetworkAvailable(true)
        #expect(await chat.until { await chat.message(offline)?.status == .sent })
        let device = try #require(try await server.deviceIDs().first)
        #expect(try await server.serverMessages(device: device).filter { $0.clientId == offline }.count == 1)
    }

    @Test("check 6: relaunch offline with a failed message and a draft restores both (real SQLite file)")
    func relaunchRestores() async throws {
        let server = try EmulatorServer(clock: ManualClock())
        let chat = try await EmulatorChat(server: server)
        await chat.engine.setDraft("first")
        let first = try #require(await chat.engine.send())
        #expect(await chat.until { await chat.message(first)?.status == .sent })
        chat.transport.isOffline = true
        await chat.engine.setDraft("pending")
        let pending = try #require(await chat.engine.send())
        #expect(await chat.until(advancing: false) { await chat.message(pending)?.status == .notDelivered })
        await chat.engine.setDraft("unsent draft")
        try await chat.relaunch()
        let snapshot = await chat.engine.snapshot
        #expect(snapshot.composer.text == "unsent draft")
        #expect(snapshot.messages.map(\.id) == [first, pending])
        #expect(snapshot.messages.last?.status == .notDelivered)
        chat.transport.isOffline = false
        await chat.engine.setVisible(true)
        #expect(await chat.until { await chat.message(pending)?.status == .sent })
        let device = try #require(try await server.deviceIDs().first)
        #expect(try await server.serverMessages(device: device).map(\.text) == ["first", "pending"])
        #expect(await chat.engine.snapshot.composer.text == "unsent draft")
    }

    @Test("check 7: blocking keeps reading, replaces the composer and keeps the draft; unblock and Retry sends")
    func blockAndUnblock() async throws {
        let server = try EmulatorServer(clock: ManualClock())
        let (chat, device) = try await Self.startedChat(server)
        // Closed, so no stream-triggered poll can learn the block before the send does (that race made this flaky).
        await chat.engine.setVisible(false)
        try await server.admin("POST", "devices/\(device)/block")
        await chat.engine.setDraft("blocked send")
        let blocked = try #require(await chat.engine.send())
        #expect(await chat.until { await chat.message(blocked)?.status == .notDelivered })
        await chat.engine.setVisible(true)
        #expect(await chat.engine.snapshot.composer.availability == .sendingDisabled)
        await chat.engine.setDraft("kept draft")
        #expect(await chat.engine.snapshot.messages.count == 2, "reading stays available")
        try await server.admin("POST", "devices/\(device)/unblock")
        #expect(await chat.engine.retry(blocked))
        #expect(await chat.until { await chat.message(blocked)?.status == .sent })
        #expect(await chat.engine.snapshot.composer.availability == .open)
        #expect(await chat.engine.snapshot.composer.text == "kept draft")
        #expect(try await server.serverMessages(device: device).map(\.text) == ["before", "blocked send"])
    }

    @Test("seed 001: a send with photos rejected as blocked stays Not delivered with its text and photos; after unblocking Retry sends them")
    func blockedSendKeepsTextAndPhotos() async throws {
        let server = try EmulatorServer(clock: ManualClock())
        let (chat, device) = try await Self.startedChat(server)
        await chat.engine.setVisible(false)
        try await server.admin("POST", "devices/\(device)/block")
        for index in 0..<2 { await chat.engine.addPhoto(Data([UInt8(index)])) }
        await chat.engine.setDraft("two photos, blocked")
        let blocked = try #require(await chat.engine.send())
        #expect(await chat.until { await chat.message(blocked)?.status == .notDelivered })
        #expect(await chat.message(blocked)?.text == "two photos, blocked")
        #expect(await chat.message(blocked)?.localPhotos == [smallJPEG, smallJPEG], "the photos stay with the message")
        let composer = await chat.engine.snapshot.composer
        #expect(composer.text.isEmpty && composer.photos.isEmpty, "nothing moved back into the composer")
        // Nothing is lost: a relaunch shows the message with its photos.
        try await chat.relaunch()
        #expect(await chat.until { await chat.message(blocked)?.localPhotos.count == 2 })
        try await server.admin("POST", "devices/\(device)/unblock")
        await chat.engine.setVisible(true)
        #expect(await chat.engine.retry(blocked))
        #expect(await chat.until { await chat.message(blocked)?.status == .sent })
        let stored = try await server.serverMessages(device: device)
        #expect(stored.map(\.text) == ["before", "two photos, blocked"] && stored.map(\.photos) == [0, 2])
    }

    @Test("seed 001 over spec 7.7: a block learnt after the uploads and before the POST leaves the message Not delivered with its photos, not in the composer")
    func blockLearntBeforeThePostKeepsTheMessage() async throws {
        let server = try EmulatorServer(clock: ManualClock())
        let (chat, device) = try await Self.startedChat(server)
        await chat.engine.setVisible(false)
        // The photo's upload is held by the emulator while the block is learnt.
        try await server.admin("POST", "faults", json: ["path": "/storage/*", "method": "PUT", "kind": "delay", "delayMs": 4000])
        await chat.engine.addPhoto(Data([1]))
        await chat.engine.setDraft("photo, blocked meanwhile")
        let id = try #require(await chat.engine.send())
        #expect(await chat.until(advancing: false, rounds: 4000) { await server.faultsFired() }, "the upload never started")
        try await server.admin("POST", "devices/\(device)/block")
        // Opening the chat reads the conversation, whose device flags say blocked.
        await chat.engine.setVisible(true)
        #expect(await chat.until(advancing: false, rounds: 4000) {
            await chat.engine.snapshot.composer.availability == .sendingDisabled
        })
        #expect(await chat.until(advancing: false, rounds: 4000) { await chat.message(id)?.status == .notDelivered })
        #expect(await chat.message(id)?.text == "photo, blocked meanwhile")
        #expect(await chat.message(id)?.localPhotos == [smallJPEG])
        let composer = await chat.engine.snapshot.composer
        #expect(composer.text.isEmpty && composer.photos.isEmpty, "spec 7.7's take-back is not done: seed 001 wins")
        let log = try await server.admin("GET", "requests?device=\(device)")["requests"] as? [[String: Any]] ?? []
        let posts = log.filter { $0["method"] as? String == "POST" && $0["path"] as? String == "/v1/conversation/messages" }
        #expect(posts.count == 1, "the blocked message was never posted (the first message only): \(posts.count)")
    }

    @Test("the limit countdown: a short messages limit resends automatically once")
    func limitCountdown() async throws {
        let server = try EmulatorServer(clock: ManualClock())
        let chat = try await EmulatorChat(server: server)
        await chat.engine.setVisible(true)
        try await server.admin("PUT", "rate-limits", json: ["messages": ["limit": 1, "windowSeconds": 30]])
        await chat.engine.setDraft("one")
        let one = try #require(await chat.engine.send())
        #expect(await chat.until { await chat.message(one)?.status == .sent })
        await chat.engine.setDraft("two")
        let two = try #require(await chat.engine.send())
        #expect(await chat.until(advancing: false) {
            if case .automaticResend = await chat.message(two)?.retry { return true }
            return false
        })
        let notices = await chat.engine.snapshot.composer.notices
        #expect(notices.contains { if case .cooldown(let n) = $0 { n.scope == .messages } else { false } })
        #expect(await chat.until { await chat.message(two)?.status == .sent })
        let device = try #require(try await server.deviceIDs().first)
        #expect(try await server.serverMessages(device: device).map(\.text) == ["one", "two"])
    }
}
