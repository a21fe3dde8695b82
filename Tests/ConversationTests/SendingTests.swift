import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

@Suite("SendingTests")
struct SendingTests {
    @Test("spec 7.8.1: whitespace alone is not a message; text is trimmed")
    func whitespaceAndTrim() async throws {
        let h = await EngineHarness()
        #expect(await h.send("  \n\t ") == nil)
        let id = try #require(await h.send("  Hello from support verification. \n"))
        #expect(await eventually { await h.message(id)?.status == .sent })
        let server = await h.service.server
        #expect(server.map(\.text) == ["Hello from support verification."])
        #expect(server.first?.clientId == id)
    }

    @Test("seed 001: over 4,000 UTF-16 units is explained, not sendable and never shortened", arguments: [
        (String(repeating: "a", count: 4000), true),
        (String(repeating: "a", count: 4001), false),
        (String(repeating: "😀", count: 2000), true),
        (String(repeating: "😀", count: 2000) + "a", false),
    ])
    func textLimit(text: String, sendable: Bool) async {
        let h = await EngineHarness()
        await h.engine.setDraft(text)
        let composer = await h.snapshot.composer
        #expect(composer.canSend == sendable)
        #expect(composer.text == text)
        #expect(composer.notices.contains { if case .textTooLong = $0 { true } else { false } } == !sendable)
        let id = await h.engine.send()
        #expect((id != nil) == sendable)
        if !sendable { #expect(await h.snapshot.composer.text == text) }
    }

    @Test("seed 001 check 1: a draft and a picked photo create nothing on the server")
    func noNetworkBeforeFirstSend() async {
        let h = await EngineHarness(registered: false, startedChat: false)
        await h.open()
        await h.engine.setDraft("draft")
        await h.engine.addPhoto(Data("photo".utf8))
        await settle()
        #expect(await h.service.calls.isEmpty)
        #expect(await h.service.registered == false)
        #expect(await h.snapshot.banner == .hidden)
    }

    @Test("the first valid send registers the device, then posts once with the client ID")
    func firstSendRegisters() async throws {
        let h = await EngineHarness(registered: false, startedChat: false)
        let id = try #require(await h.send("first"))
        #expect(await eventually { await h.message(id)?.status == .sent })
        let calls = await h.service.calls
        #expect(calls == ["updateDevice:register", "send:\(id)"])
        #expect(try h.store.sessionState().hasStartedChat)
    }

    @Test("spec 7.8.1: the outbox row exists and the echo shows before the network answers")
    func outboxBeforeNetwork() async throws {
        let h = await EngineHarness()
        await h.service.hold("send")
        let id = try #require(await h.send("hi"))
        #expect(await h.message(id)?.status == .sending)
        #expect(try h.store.unsentMessages().map(\.id) == [id])
        #expect(await eventually { await h.service.waitingCount("send") == 1 })
        await h.service.release("send")
        #expect(await eventually { await h.message(id)?.status == .sent })
        #expect(try h.store.unsentMessages().isEmpty)
        #expect(try h.store.loadWindow().first?.id == id, "merged copy keeps the local ID")
        #expect(await h.snapshot.composer.text.isEmpty)
        #expect(try h.store.draft().isEmpty)
    }

    @Test("spec 7.8.3: the pending indicator appears 400 ms into an attempt and clears with it")
    func pendingIndicator() async throws {
        let h = await EngineHarness()
        await h.service.hold("send")
        let id = try #require(await h.send("hi"))
        #expect(await eventually { await h.service.waitingCount("send") == 1 })
        await h.clock.advance(by: .milliseconds(399))
        #expect(await h.message(id)?.showsPendingIndicator == false)
        await h.clock.advance(by: .milliseconds(1))
        #expect(await eventually { await h.message(id)?.showsPendingIndicator == true })
        await h.service.release("send")
        #expect(await eventually { await h.message(id)?.status == .sent })
        #expect(await h.message(id)?.showsPendingIndicator == false)
    }

    @Test("photos: up to five, with and without text; IDs persisted as they arrive; progress reported")
    func photos() async throws {
        let h = await EngineHarness()
        for index in 0..<6 { await h.engine.addPhoto(Data([UInt8(index)])) }
        var composer = await h.snapshot.composer
        #expect(composer.photos.count == 5)
        #expect(composer.canAddPhotos == false)
        await h.service.hold("send")
        await h.engine.setDraft("five photos")
        let id = try #require(await h.engine.send())
        #expect(await eventually { await h.service.waitingCount("send") == 1 })
        #expect(try h.store.unsentMessages().first?.attachmentIds.count == 5)
        #expect(await h.message(id)?.uploadProgress == 1)
        await h.service.release("send")
        #expect(await eventually { await h.message(id)?.status == .sent })
        #expect(await h.service.server.first?.attachments.count == 5)
        // Photo-only.
        await h.engine.addPhoto(Data([9]))
        composer = await h.snapshot.composer
        #expect(composer.canSend)
        let photoOnly = try #require(await h.engine.send())
        #expect(await eventually { await h.message(photoOnly)?.status == .sent })
        #expect(await h.service.server.last?.text == "")
    }

    @Test("bad input: a photo that fails to prepare shows a notice and is skipped")
    func badPhoto() async throws {
        let h = await EngineHarness()
        await h.engine.addPhoto(Data("bad".utf8))
        let composer = await h.snapshot.composer
        #expect(composer.photos.isEmpty)
        #expect(composer.notices.contains(.photoCouldNotLoad))
        #expect(ComposerNotice.photoCouldNotLoad.text == "Could not load this photo.")
        let id = try #require(await h.send("still works"))
        #expect(await eventually { await h.message(id)?.status == .sent })
    }

    @Test("a partially uploaded message uploads only the remaining photo and posts all IDs in order")
    func resumeUploads() async throws {
        let h = await EngineHarness()
        await h.service.fail("upload", with: .connectionFailed())
        await h.engine.addPhoto(Data([1]))
        await h.engine.addPhoto(Data([2]))
        let id = try #require(await h.engine.send())
        #expect(await eventually { await h.message(id)?.status == .notDelivered })
        // First upload failed: nothing saved.
        #expect(try h.store.unsentMessages().first?.attachmentIds == [])
        await h.service.fail("upload", with: pass, ReceptionError(code: "upload_failed", status: 500))
        #expect(await h.engine.retry(id))
        #expect(await eventually { await h.message(id)?.status == .notDelivered })
        // Second attempt: the first photo uploaded and its ID persisted, the second failed.
        #expect(try h.store.unsentMessages().first?.attachmentIds.count == 1)
        await h.engine.shutdown()
        let relaunched = await h.relaunched()
        #expect(await relaunched.engine.retry(id))
        #expect(await eventually { await relaunched.message(id)?.status == .sent })
        let reserves = await h.service.calls.filter { $0.hasPrefix("reserve") }
        #expect(reserves.last == "reserve:\(id)#1")
        #expect(await h.service.server.first?.attachments.map(\.id) == ["att-\(id.prefix(8))-0", "att-\(id.prefix(8))-1"])
    }

    @Test("spec 3.8: invalid_attachment forgets the saved IDs, so the next attempt uploads again")
    func invalidAttachment() async throws {
        let h = await EngineHarness()
        await h.service.fail("send", with: ReceptionError(code: "invalid_attachment", status: 400))
        await h.engine.addPhoto(Data([1]))
        let id = try #require(await h.engine.send())
        #expect(await eventually { await h.message(id)?.status == .notDelivered })
        #expect(try h.store.unsentMessages().first?.attachmentIds == [])
        #expect(await h.message(id)?.retry == .available)
        #expect(await h.engine.retry(id))
        #expect(await eventually { await h.message(id)?.status == .sent })
        #expect(await h.service.count("reserve") == 2)
    }

    @Test("bad input: a full disk never blocks sending and shows a status")
    func fullDisk() async throws {
        let h = await EngineHarness()
        h.store.writeFailure = .storageFull
        let id = try #require(await h.send("on a full disk"))
        #expect(await eventually { await h.message(id)?.status == .sent })
        #expect(await h.snapshot.composer.notices.contains(.storageProblem))
        #expect(await h.service.serverCount(clientId: id) == 1)
    }
}
