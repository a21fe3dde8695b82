import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

/// `AttachmentLinks` and the engine's photo loads over the scripted service (spec 3.15, 3.18): the parts of the
/// rule the emulator cannot stage at will — a resolution that fails, a chat reset while one runs.
@Suite("AttachmentLinksTests")
struct AttachmentLinksTests {
    static let expired = "https://files.test/old/att_1?sig=old"
    /// What the scripted service's `attachment(id:)` answers for `att_1`.
    static let fresh = URL(string: "https://files.test/att_1")!

    /// An engine whose cache holds one agent photo under the expired link.
    static func harness() async throws -> EngineHarness {
        let store = InMemoryMessageStore(scope: StorageScope(appID: "app_test", generation: "g1"))
        try store.save([StoredMessage(
            id: "agent-1", seq: 1, sender: .agent, text: "", createdAt: Date(timeIntervalSince1970: 1_790_000_000),
            attachments: [Attachment(id: "att_1", url: expired, contentType: "image/jpeg", width: 4, height: 3)])])
        let harness = await EngineHarness(store: store, conversationExists: true)
        await harness.service.setAttachmentPhoto(tinyJPEG(tag: 9), at: fresh)
        return harness
    }

    @Test("the part: an expiry is remembered per link, a resolution is shared, a reset forgets both")
    func part() {
        let links = AttachmentLinks()
        links.expire("att_1", link: "a")
        #expect(links.hasExpired("att_1", link: "a") && !links.hasExpired("att_1", link: "b"))
        let task = Task<AttachmentLinks.Answer, Never> { .failure(.cancelled) }
        links.resolutionStarted("att_1", replacing: "a", task)
        #expect(links.resolution(of: "att_1", replacing: "a") != nil)
        #expect(links.resolution(of: "att_1", replacing: "b") == nil, "another expiry is another resolution")
        let counted = links.resolutionEnded("att_1", epoch: links.epoch, resolved: true)
        #expect(counted)
        #expect(!links.hasExpired("att_1", link: "a"))
        links.expire("att_1", link: "b")
        let epoch = links.epoch
        links.clear()
        #expect(!links.hasExpired("att_1", link: "b"))
        let late = links.resolutionEnded("att_1", epoch: epoch, resolved: true)
        #expect(!late, "a resolution from before a reset")
    }

    @Test("a failed resolution keeps the expiry: Retry resolves first and never downloads the dead link again")
    func failedResolution() async throws {
        let harness = try await Self.harness()
        await harness.service.fail("attachment", with: .connectionFailed())
        await #expect(throws: ReceptionError.connectionFailed()) { try await harness.engine.photo("att_1") }
        #expect(await harness.service.calls.filter { $0.hasPrefix("attachment") } == ["attachmentPhoto:\(Self.expired)", "attachment"])

        let photo = try await harness.engine.photo("att_1")
        #expect(photo == tinyJPEG(tag: 9))
        #expect(await harness.service.calls.filter { $0.hasPrefix("attachment") } == [
            "attachmentPhoto:\(Self.expired)", "attachment", "attachment", "attachmentPhoto:\(Self.fresh.absoluteString)",
        ])
        // The fresh link is what the chat shows and what the cache keeps.
        #expect(await harness.message("agent-1")?.attachments.first?.url == Self.fresh.absoluteString)
        #expect(try harness.store.loadWindow().first?.attachments.first?.url == Self.fresh.absoluteString)
        #expect(try harness.store.loadWindow().first?.attachments.first?.width == 4, "the dimensions stay")
    }

    @Test("a chat reset while the resolution runs: the load is cancelled and nothing is written")
    func resetDuringResolution() async throws {
        let harness = try await Self.harness()
        await harness.service.hold("attachment")
        let load = Task { try await harness.engine.photo("att_1") }
        var waiting = false
        for _ in 0..<200 where !waiting {
            await settle()
            waiting = await harness.service.waitingCount("attachment") == 1
        }
        try #require(waiting, "the resolution never started")
        await harness.engine.chatReset(revision: 1)
        await harness.service.release("attachment")
        await #expect(throws: ReceptionError.cancelled) { try await load.value }
        await settle()
        #expect(try harness.store.loadWindow().isEmpty)
        #expect(await harness.engine.snapshot.messages.isEmpty)
    }

    @Test("a link that still answers 403 after its resolution fails the photo after one more download")
    func onceMore() async throws {
        let harness = try await Self.harness()
        await harness.service.setAttachmentPhoto(nil, at: Self.fresh)
        await #expect(throws: ReceptionError(code: ReceptionError.Code.httpError, status: 403)) {
            try await harness.engine.photo("att_1")
        }
        #expect(await harness.service.calls.filter { $0.hasPrefix("attachment") } == [
            "attachmentPhoto:\(Self.expired)", "attachment", "attachmentPhoto:\(Self.fresh.absoluteString)",
        ])
    }
}
