import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

/// Lets main-actor and engine work run until `condition` holds (bounded; no real sleeping).
@MainActor
@discardableResult
func untilOnMain(_ condition: @MainActor () async -> Bool) async -> Bool {
    for _ in 0..<20_000 {
        if await condition() { return true }
        await Task.yield()
    }
    return await condition()
}

@Suite("ChatModelTests")
@MainActor
struct ChatModelTests {

    @Test("snapshots apply in version order: a stale snapshot never overwrites a newer one")
    func staleSnapshotIgnored() async {
        let h = await EngineHarness()
        let model = ChatModel(engine: h.engine)
        var newer = await h.engine.snapshot
        newer.version = 10
        newer.banner = .offline
        newer.agentTyping = true
        newer.composer.text = "newer"
        var older = newer
        older.version = 9
        older.banner = .connecting
        older.agentTyping = false
        older.composer.text = "older"
        model.apply(newer)
        model.apply(older)
        #expect(model.version == 10)
        #expect(model.banner == .offline)
        #expect(model.agentTyping)
        #expect(model.composer.text == "newer")
        var same = older
        same.version = 10
        model.apply(same)
        #expect(model.banner == .offline, "an equal version is not newer")
        var next = older
        next.version = 11
        model.apply(next)
        #expect(model.banner == .connecting)
    }

    @Test("a connected model mirrors the engine's latest snapshot")
    func mirrorsEngine() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.agentReply("welcome")
        let model = await h.openModel()
        #expect(await untilOnMain { model.messages.map(\.text) == ["welcome"] })
        #expect(model.messages.first?.status == .received)
        await h.elapse(seconds: 0.5)
        let engineSnapshot = await h.engine.snapshot
        #expect(await untilOnMain { model.version == engineSnapshot.version })
        #expect(model.messages == engineSnapshot.messages)
        #expect(model.composer == engineSnapshot.composer)
    }

    @Test("Send right after typing sends exactly what was typed")
    func sendRightAfterTyping() async throws {
        let h = await EngineHarness(conversationExists: true)
        let model = ChatModel(engine: h.engine)
        await model.connect()
        for prefix in ["H", "He", "Hel", "Hello", "Hello there"] { model.setDraft(prefix) }
        await model.send()
        #expect(await untilOnMain { await h.service.server.count == 1 })
        #expect(await h.service.server.map(\.text) == ["Hello there"])
        #expect(await untilOnMain { model.messages.first?.status == .sent })
        #expect(model.messages.map(\.text) == ["Hello there"])
        #expect(await untilOnMain { model.composer.text.isEmpty })
    }

    @Test("while edits are on their way, an older engine draft does not replace the typed text")
    func typedTextKeptWhileEditsPending() async {
        let h = await EngineHarness()
        let model = ChatModel(engine: h.engine)
        var stale = await h.engine.snapshot
        model.setDraft("a")
        model.setDraft("ab")
        stale.version = 1_000
        stale.composer.text = "a"
        model.apply(stale)
        #expect(model.composer.text == "ab")
        #expect(await untilOnMain { await h.engine.snapshot.composer.text == "ab" })
        var later = stale
        later.version = 1_001
        later.composer.text = "from the engine"
        #expect(await untilOnMain {
            model.apply(later)
            return model.composer.text == "from the engine"
        }, "once the edits arrived, the engine's text applies again")
    }

    @Test("Retry passes through: a not-delivered message is sent again and shows Sent")
    func retryPassthrough() async throws {
        let h = await EngineHarness(conversationExists: true)
        let model = await h.openModel()
        let message = try await failedSend("retry me", h, model) { await model.send() }
        #expect(message.retry == .available)
        await model.retry(message.id)
        #expect(await untilOnMain { model.messages.first?.status == .sent })
        #expect(model.messages.first?.retry == RetryOption.none)
        #expect(await h.service.count("send") == 2)
        #expect(await h.service.serverCount(clientId: message.id) == 1)
    }

    /// Types `text` and sends it through `send` while the service refuses the send once; the message not delivered.
    func failedSend(
        _ text: String, _ h: EngineHarness, _ model: ChatModel, send: () async -> Void
    ) async throws -> ChatMessage {
        await h.service.fail("send", with: ReceptionError(code: "bad_request", status: 400))
        model.setDraft(text)
        await send()
        #expect(await untilOnMain { model.messages.last?.status == .notDelivered })
        return try #require(model.messages.last)
    }

    @Test("a tap the views start runs: Send, the bubble's and the status line's Retry, a photo loaded and removed")
    func startedTaps() async throws {
        let h = await EngineHarness(conversationExists: true)
        let model = await h.openModel()
        let first = try await failedSend("tapped", h, model) { model.start(.send) }.id
        model.start(.retry(first))
        #expect(await untilOnMain { model.messages.first?.status == .sent })
        #expect(await h.service.serverCount(clientId: first) == 1)
        let second = try await failedSend("tapped again", h, model) { model.start(.send) }.id
        model.start(.status(.retry, rowID: second))
        #expect(await untilOnMain { model.messages.last?.status == .sent })
        #expect(await h.service.serverCount(clientId: second) == 1)
        model.start(.addPhoto(loading: { Data([7]) }))
        #expect(await untilOnMain { model.composer.pickedPhotos.count == 1 })
        let photo = try #require(model.composer.pickedPhotos.first)
        model.start(.removePhoto(id: photo.id))
        #expect(await untilOnMain { model.composer.pickedPhotos.isEmpty })
    }

    @Test("the status line's Cancel started from a view: the countdown becomes a disabled Retry, nothing is resent")
    func startedCancel() async throws {
        let h = await EngineHarness(conversationExists: true)
        let model = await h.openModel()
        await h.service.fail("send", with: rateLimited(20))
        model.setDraft("held")
        model.start(.send)
        #expect(await untilOnMain { model.messages.first?.retry == .automaticResend(secondsLeft: 20) })
        let id = try #require(model.messages.first?.id)
        model.start(.status(.cancelAutomaticResend, rowID: id))
        #expect(await untilOnMain { model.messages.first?.retry == .disabledFor(secondsLeft: 20) })
        await h.elapse(seconds: 21)
        #expect(await untilOnMain { model.messages.first?.retry == .available })
        #expect(await h.service.count("send") == 1)
    }

    @Test("Cancel passes through: a countdown becomes a disabled Retry and nothing is resent")
    func cancelPassthrough() async throws {
        let h = await EngineHarness(conversationExists: true)
        let model = await h.openModel()
        await h.service.fail("send", with: rateLimited(20))
        model.setDraft("held")
        await model.send()
        #expect(await untilOnMain { model.messages.first?.retry == .automaticResend(secondsLeft: 20) })
        let id = try #require(model.messages.first?.id)
        await model.cancelAutomaticResend(id)
        #expect(await untilOnMain { model.messages.first?.retry == .disabledFor(secondsLeft: 20) })
        await h.elapse(seconds: 21)
        #expect(await untilOnMain { model.messages.first?.retry == .available })
        #expect(await h.service.count("send") == 1)
    }

    @Test("composer notices reach the screen: too long, a messages wait with its countdown, a storage problem")
    func composerNotices() async throws {
        let h = await EngineHarness(conversationExists: true)
        let model = await h.openModel()
        model.setDraft(String(repeating: "x", count: 4_001))
        #expect(await untilOnMain { model.composer.notices.contains(.textTooLong(length: 4_001, limit: 4_000)) })
        #expect(model.composer.canSend == false)
        #expect(model.composer.text.count == 4_001, "never shortened")
        _ = h.cooldowns.record(scope: .messages, seconds: 90, now: h.clock.now)
        model.setDraft("short")
        #expect(await untilOnMain {
            model.composer.notices.contains(.cooldown(CooldownNotice(scope: .messages, secondsLeft: 90)))
        })
        #expect(model.composer.canSend == false)
        let notice = try #require(model.composer.notices.first)
        #expect(notice.text.hasPrefix("Message limit reached"))
        h.store.writeFailure = .storageFull
        model.setDraft("short!")
        #expect(await untilOnMain { model.composer.notices.contains(.storageProblem) })
    }

    @Test("messages as a screen sees them: sending with the pending indicator and upload progress, then Sent")
    func statusAndProgress() async throws {
        let h = await EngineHarness(conversationExists: true)
        let model = await h.openModel()
        await model.addPhoto(Data([1]))
        await model.addPhoto(Data([2]))
        await h.service.hold("upload")
        model.setDraft("two photos")
        await model.send()
        #expect(await untilOnMain { await h.service.waitingCount("upload") == 1 })
        #expect(await untilOnMain { model.messages.first?.uploadProgress == 0 })
        #expect(model.messages.first?.status == .sending)
        #expect(model.messages.first?.localPhotos.count == 2)
        #expect(model.messages.first?.showsPendingIndicator == false)
        await h.clock.advance(by: .milliseconds(400))
        #expect(await untilOnMain { model.messages.first?.showsPendingIndicator == true })
        await h.service.hold("send")
        await h.service.release("upload")
        #expect(await untilOnMain { await h.service.waitingCount("send") == 1 })
        #expect(await untilOnMain { model.messages.first?.uploadProgress == 1 })
        await h.service.release("send")
        #expect(await untilOnMain { model.messages.first?.status == .sent })
        let sent = try #require(model.messages.first)
        #expect(sent.uploadProgress == nil)
        #expect(sent.showsPendingIndicator == false)
        #expect(sent.attachments.count == 2)
        #expect(sent.localPhotos.isEmpty)
    }
}
