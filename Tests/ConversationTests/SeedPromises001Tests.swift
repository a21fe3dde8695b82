import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

/// A `FakeConversationService` whose answers call the conversation `RESOLVED` once `resolve()` was called (the team
/// marked it resolved in the inbox); everything else is the fake's.
final class ResolvingService: ConversationService {
    let inner: FakeConversationService
    private let resolved = Locked(false)

    init(_ inner: FakeConversationService) { self.inner = inner }

    func resolve() { resolved.withLock { $0 = true } }
    private var status: ConversationStatus { resolved.withLock { $0 } ? .resolved : .open }

    var halt: HaltReason? { get async { await inner.halt } }
    func isRegistered() async throws(ReceptionError) -> Bool { try await inner.isRegistered() }
    func updateDevice(probe: Bool, allowRegistration: Bool) async throws(ReceptionError) {
        try await inner.updateDevice(probe: probe, allowRegistration: allowRegistration)
    }
    func history(limits: Bool) async throws(ReceptionError) -> HistoryResponse {
        var answer = try await inner.history(limits: limits)
        answer.conversation?.status = status
        return answer
    }
    func messages(after cursor: Int64) async throws(ReceptionError) -> [MessagesPage] {
        let status = self.status
        return try await inner.messages(after: cursor).map { page in
            var page = page
            page.conversation?.status = status
            return page
        }
    }
    func send(
        clientId: String, text: String, attachmentIds: [String], probe: Bool, allowRegistration: Bool
    ) async throws(ReceptionError) -> SendMessageResponse {
        // Seed 001: the next customer message reopens the conversation.
        resolved.withLock { $0 = false }
        return try await inner.send(
            clientId: clientId, text: text, attachmentIds: attachmentIds, probe: probe, allowRegistration: allowRegistration)
    }
    func markRead(conversationId: String, throughSeq: Int64) async throws(ReceptionError) -> ReadResponse {
        try await inner.markRead(conversationId: conversationId, throughSeq: throughSeq)
    }
    func markReadLegacy() async throws(ReceptionError) { try await inner.markReadLegacy() }
    func unread(probe: Bool) async throws(ReceptionError) -> UnreadResponse { try await inner.unread(probe: probe) }
    func typing(_ isTyping: Bool) async throws(ReceptionError) { try await inner.typing(isTyping) }
    func actionClick(messageId: String) async throws(ReceptionError) { try await inner.actionClick(messageId: messageId) }
    func reserveUpload(
        jpeg: Data, width: Int, height: Int, clientId: String, index: Int, probe: Bool
    ) async throws(ReceptionError) -> UploadReservation {
        try await inner.reserveUpload(jpeg: jpeg, width: width, height: height, clientId: clientId, index: index, probe: probe)
    }
    func upload(jpeg: Data, to reservation: UploadReservation, progress: (@Sendable (Double) -> Void)?)
        async throws(ReceptionError)
    {
        try await inner.upload(jpeg: jpeg, to: reservation, progress: progress)
    }
    func attachment(id: String) async throws(ReceptionError) -> ReceptionCore.Attachment { try await inner.attachment(id: id) }
    func teamPhoto(url: URL) async throws(ReceptionError) -> Data { try await inner.teamPhoto(url: url) }
    func attachmentPhoto(url: URL) async throws(ReceptionError) -> Data { try await inner.attachmentPhoto(url: url) }
    func events() async throws(ReceptionError) -> AsyncThrowingStream<StreamSignal, any Error> {
        try await inner.events()
    }
}

/// Seed 001 ("Chat features & behavior") promises that had no test proving them.
@Suite("SeedPromises001Tests", .serialized)
struct SeedPromises001Tests {
    // MARK: Promise 1

    // Seed 001 "Conversation scope": "Marking a conversation resolved in the inbox leaves the iOS chat, composer, and draft in place."
    @Test("a resolved conversation keeps the transcript, the draft text and picked photos, and sending stays possible")
    func resolvedKeepsChatComposerAndDraft() async throws {
        let clock = ManualClock()
        let store = InMemoryMessageStore(scope: StorageScope(appID: "app_test", generation: "g1"))
        try store.updateSessionState { $0.hasStartedChat = true }
        let cooldowns = CooldownBook(now: clock.now)
        let fake = FakeConversationService(cooldowns: cooldowns, clock: clock, conversationExists: true)
        let service = ResolvingService(fake)
        let engine = ChatEngine(ChatEngine.Dependencies(
            service: service, store: store, images: FakeImagePreparer(), cooldowns: cooldowns, clock: clock,
            ids: IncrementingIDGenerator(), random: FixedRandomSource(), logger: .silent))
        await engine.start()
        await fake.agentReply("How can we help?")
        await engine.setVisible(true)
        #expect(await eventually { await engine.snapshot.messages.count == 1 })
        await engine.setDraft("first")
        let first = try #require(await engine.send())
        #expect(await eventually { await engine.snapshot.messages.first { $0.id == first }?.status == .sent })
        #expect(await eventually { await fake.openStreams == 1 })
        let transcript = await engine.snapshot.messages.map(\.text)
        #expect(transcript == ["How can we help?", "first"])
        await engine.setDraft("a draft")
        await engine.addPhoto(Data([5]))
        #expect(await engine.snapshot.composer.photos.count == 1)

        // The team resolves the conversation: a poll and then a fresh opening load both report RESOLVED.
        service.resolve()
        let pollsBefore = await fake.count("messages")
        await fake.signal(.changed)
        #expect(await eventually { await fake.count("messages") == pollsBefore + 1 })
        await settle()
        let afterPoll = await engine.snapshot
        #expect(afterPoll.messages.map(\.text) == transcript, "the poll that saw RESOLVED kept the transcript")
        #expect(afterPoll.composer.text == "a draft" && afterPoll.composer.photos.count == 1)
        await engine.setVisible(false)
        await engine.setVisible(true)
        #expect(await eventually { await fake.count("history") == 2 })
        await settle()

        let snapshot = await engine.snapshot
        #expect(snapshot.messages.map(\.text) == transcript, "the transcript stays")
        #expect(snapshot.messages.map(\.status) == [.received, .sent])
        #expect(snapshot.hasConversation)
        #expect(snapshot.composer.availability == .open, "the composer stays")
        #expect(snapshot.composer.text == "a draft", "the draft text stays")
        #expect(snapshot.composer.photos.map(\.jpeg) == [tinyJPEG(tag: 5)], "the picked photo stays")
        #expect(snapshot.composer.canSend)
        #expect(try store.draft() == "a draft", "the stored draft stays")
        #expect(try store.loadWindow().map(\.text) == transcript, "the cached transcript stays")

        // The next customer message is sent (and reopens the conversation).
        let next = try #require(await engine.send())
        #expect(await eventually { await engine.snapshot.messages.first { $0.id == next }?.status == .sent })
        #expect(await fake.server.last?.text == "a draft")
        #expect(await fake.server.last?.attachments.count == 1)
        await engine.shutdown()
    }

    // MARK: Promise 2

    /// How a test puts the session into a state that does not allow sending.
    enum Blocker: String, CaseIterable, Sendable {
        case blockedFlag, verificationFlag, blockedSend, verificationSend, haltBlocked, haltAppUnavailable
    }

    // Seed 001 "While chat is open": "It reports customer typing to the dashboard while an open conversation allows sending."
    @Test("customer typing is not reported while sending is not allowed, and is once it is allowed again",
          arguments: Blocker.allCases)
    func typingOnlyWhileSendingAllowed(blocker: Blocker) async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.hold("events")
        switch blocker {
        case .blockedFlag: await h.service.setDevice(DeviceFlags(blocked: true))
        case .verificationFlag: await h.service.setDevice(DeviceFlags(verificationRequired: true))
        default: break
        }
        await h.open()
        #expect(await eventually { await h.service.count("history") == 1 })
        switch blocker {
        case .blockedFlag, .verificationFlag: break
        case .blockedSend, .verificationSend:
            let code = blocker == .blockedSend ? ReceptionError.Code.blocked : ReceptionError.Code.verificationRequired
            await h.service.fail("send", with: ReceptionError(code: code, status: 403))
            let id = try #require(await h.send("refused"))
            #expect(await eventually { await h.message(id)?.status == .notDelivered })
        case .haltBlocked, .haltAppUnavailable:
            // The transport's halt (the fake's, so a later read of it agrees) and its hook to the engine.
            let reason: HaltReason = blocker == .haltBlocked ? .blocked : .appUnavailable
            await h.service.setHalt(reason)
            await h.engine.haltChanged(reason)
        }
        await settle()
        #expect(await h.snapshot.composer.availability != .open, "the state does not allow sending")
        #expect(await h.snapshot.hasConversation)
        // Reports made before the state held (the draft of a refused send, and its `false` after Send).
        let reportsBefore = await h.service.count("typing")
        let truesBefore = await h.service.count("typing:true")

        await h.engine.setDraft("h")
        await h.engine.setDraft("he")
        await h.elapse(seconds: 4)
        await h.engine.setDraft("hel")
        await h.elapse(seconds: 2)
        #expect(await h.service.count("typing") == reportsBefore, "typing was reported while sending was not allowed")

        // Control: once sending is allowed again, the same typing is reported, so the harness would have seen it.
        switch blocker {
        case .blockedFlag, .verificationFlag, .blockedSend, .verificationSend:
            // A 403 `blocked` also halts the session (as the transport does); the probe that ends it is not the
            // subject here.
            await h.service.setHalt(nil)
            await h.engine.haltChanged(nil)
            await h.service.setDevice(DeviceFlags(blocked: false, verificationRequired: false))
            await h.engine.setVisible(false)
            await h.open()
            #expect(await eventually { await h.snapshot.composer.availability == .open })
        case .haltBlocked, .haltAppUnavailable:
            await h.service.setHalt(nil)
            await h.engine.haltChanged(nil)
        }
        #expect(await h.snapshot.composer.availability == .open)
        await h.engine.setDraft("hell")
        #expect(await eventually { await h.service.count("typing:true") == truesBefore + 1 })
    }

    // MARK: Promise 3

    // Seed 001 "While chat is open": "Leaving the chat or backgrounding pauses live updates and automatic retries. An already-running send can still finish."
    @Test("a send in flight when the chat closes ends Sent and is stored once")
    func sendInFlightFinishesAfterLeaving() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.open()
        #expect(await eventually { await h.service.count("history") == 1 })
        await h.service.hold("send")
        let id = try #require(await h.send("leaving now"))
        #expect(await eventually { await h.service.waitingCount("send") == 1 })
        await h.engine.setVisible(false)
        await settle()
        #expect(await h.message(id)?.status == .sending, "closing the chat does not fail the send")
        await h.service.release("send")
        #expect(await eventually { await h.message(id)?.status == .sent })
        await h.elapse(seconds: 2)
        #expect(await h.message(id)?.status == .sent)
        #expect(await h.message(id)?.retry == RetryOption.none)
        #expect(await h.snapshot.messages.filter { $0.text == "leaving now" }.count == 1)
        #expect(await h.service.count("send") == 1)
        #expect(await h.service.serverCount(clientId: id) == 1)
        #expect(try h.store.unsentMessages().isEmpty, "no unsent copy stays behind")
        #expect(try h.store.loadWindow().filter { $0.id == id || $0.text == "leaving now" }.count == 1)
    }

    // MARK: Promise 4

    // Seed 001 "First valid send attempt": "The first valid send attempt starts device registration. Registration can succeed even if the message later fails."
    @Test("a registration made by a first send whose POST fails is kept; the retry registers nothing and posts once")
    func registrationSurvivesFailedFirstMessage() async throws {
        let server = try EmulatorServer(clock: ManualClock())
        let chat = try await EmulatorChat(server: server)
        // The chat stays closed, so no automatic resend races the manual Retry below.
        try await server.admin("POST", "faults", json: [
            "path": "/v1/conversation/messages", "method": "POST", "kind": "status", "status": 503,
            "code": "unavailable", "count": 1,
        ])
        await chat.engine.setDraft("first message")
        let id = try #require(await chat.engine.send())
        #expect(await chat.until(advancing: false) { await chat.message(id)?.status == .notDelivered })
        let registrations = { chat.transport.requests.filter { $0 == "POST /v1/devices" }.count }
        let posts = { chat.transport.requests.filter { $0 == "POST /v1/conversation/messages" }.count }
        #expect(registrations() == 1, "the first send registered: \(chat.transport.requests)")
        #expect(posts() == 1)
        #expect(try await chat.client.isRegistered(), "the device stays registered after the POST failed")
        let devices = try await server.deviceIDs()
        #expect(devices.count == 1)
        let device = try #require(devices.first)
        #expect(try await server.serverMessages(device: device).isEmpty)

        #expect(await chat.engine.retry(id))
        #expect(await chat.until { await chat.message(id)?.status == .sent })
        #expect(registrations() == 1, "the retry registered again: \(chat.transport.requests)")
        #expect(posts() == 2)
        #expect(try await server.deviceIDs() == [device])
        let stored = try await server.serverMessages(device: device)
        #expect(stored.filter { $0.clientId == id }.count == 1)
        #expect(stored.map(\.text) == ["first message"])
    }
}
