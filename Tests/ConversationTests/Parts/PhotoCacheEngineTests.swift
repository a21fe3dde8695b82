import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

/// The engine's use of the session's photo cache (issue 39) over the scripted service: each rule with the part of it
/// the emulator cannot stage at will (a download that ends after a chat reset, the matching of uploaded bytes by
/// attachment ID). The same rules over the real emulator are `ReceptionKitTests/PhotoCacheTests`.
@Suite("PhotoCacheEngineTests")
struct PhotoCacheEngineTests {
    static let link = URL(string: "https://files.test/att_1")!

    /// An engine whose transcript holds one agent photo, `att_1`, downloadable from `link`.
    static func harness(
        photos: InMemoryPhotoCache = InMemoryPhotoCache(), inFront held: HeldPhotoCache? = nil
    ) async throws -> EngineHarness {
        let store = InMemoryMessageStore(scope: StorageScope(appID: "app_test", generation: "g1"))
        try store.save([StoredMessage(
            id: "agent-1", seq: 1, sender: .agent, text: "", createdAt: Date(timeIntervalSince1970: 1_790_000_000),
            attachments: [Attachment(id: "att_1", url: link.absoluteString, contentType: "image/jpeg")])])
        var inFront: (@Sendable (InMemoryPhotoCache) -> any PhotoCaching)?
        if let held { inFront = { cache in held.inFront(of: cache) } }
        let harness = await EngineHarness(
            store: store, conversationExists: true, photos: photos, photoCacheInFront: inFront)
        await harness.service.setAttachmentPhoto(tinyJPEG(tag: 7), at: link)
        return harness
    }

    static func downloads(_ harness: EngineHarness) async -> [String] {
        await harness.service.calls.filter { $0.hasPrefix("attachmentPhoto") }
    }

    @Test("a downloaded photo is kept: the second load, and the first after a relaunch, download nothing")
    func downloadedOnce() async throws {
        let harness = try await Self.harness()
        #expect(try await harness.engine.photo("att_1") == tinyJPEG(tag: 7))
        #expect(try await harness.engine.photo("att_1") == tinyJPEG(tag: 7))
        #expect(await Self.downloads(harness).count == 1)
        #expect(harness.photos.storedIDs == ["att_1"])
        let relaunched = await harness.relaunched()
        #expect(try await relaunched.engine.photo("att_1") == tinyJPEG(tag: 7))
        #expect(await Self.downloads(relaunched).count == 1, "the relaunch downloaded the photo again")
    }

    @Test("issue 50: a photo loading in a tile and in the viewer at once is downloaded once")
    func concurrentLoadsShareOneDownload() async throws {
        let harness = try await Self.harness()
        await harness.service.hold("attachmentPhoto")
        let tile = Task { try await harness.engine.photo("att_1") }
        try #require(await eventually { await harness.service.waitingCount("attachmentPhoto") == 1 }, "never started")
        let viewer = Task { try await harness.engine.photo("att_1") }
        // The viewer's load joins the tile's download while it is held (without the sharing it would start a
        // second download, held too, and this never becomes true).
        let joined = await eventually { await harness.engine.sharedPhotoDownloads == 1 }
        await harness.service.release("attachmentPhoto")
        #expect(joined, "the viewer's load did not join the download in flight")
        #expect(try await tile.value == tinyJPEG(tag: 7))
        #expect(try await viewer.value == tinyJPEG(tag: 7))
        #expect(await Self.downloads(harness).count == 1, "the same photo was downloaded twice")
    }

    @Test("a slow cache read runs off the engine: the chat answers while the read is held")
    func cacheReadsDoNotHoldTheEngine() async throws {
        let held = HeldPhotoCache()
        let harness = try await Self.harness(photos: InMemoryPhotoCache(), inFront: held)
        let view = Task { try await harness.engine.photo("att_1") }
        try #require(await eventually { held.hasEntered }, "the cache was never read")
        // The engine is asked something while its cache read is held on the disk.
        await harness.engine.setDraft("typed while the photo loads")
        let answeredWhileHeld = held.isHolding
        held.release()
        #expect(answeredWhileHeld, "the engine waited for the photo cache's read")
        #expect(try await view.value == tinyJPEG(tag: 7))
        #expect(await harness.snapshot.composer.text == "typed while the photo loads")
    }

    @Test("an ID no message carries is refused before the cache is asked, even when the cache holds it")
    func strangerRefused() async throws {
        let photos = InMemoryPhotoCache()
        photos.store(tinyJPEG(tag: 1), for: "att_elsewhere")
        let harness = try await Self.harness(photos: photos)
        await #expect(throws: ReceptionError(code: ReceptionError.Code.invalidInput)) {
            try await harness.engine.photo("att_elsewhere")
        }
    }

    @Test("a sent photo is kept under its attachment ID from the uploaded bytes and is never downloaded")
    func sentPhotoKept() async throws {
        let harness = await EngineHarness(conversationExists: true)
        await harness.engine.addPhoto(Data([0x41]))
        await harness.engine.addPhoto(Data([0x42]))
        let id = try #require(await harness.send("two photos"))
        try #require(await eventually { await harness.message(id)?.status == .sent }, "the message was not confirmed")
        let message = try #require(await harness.message(id))
        let ids = message.attachments.map(\.id)
        try #require(ids.count == 2)
        #expect(try await harness.engine.photo(ids[0]) == tinyJPEG(tag: 0x41))
        #expect(try await harness.engine.photo(ids[1]) == tinyJPEG(tag: 0x42))
        #expect(harness.photos.storedIDs == ids, "the uploaded photos were not kept at the confirmation")
        #expect(await Self.downloads(harness).isEmpty, "a photo this device sent was downloaded")
    }

    @Test("uploaded bytes are matched by attachment ID, so an answer that reorders or drops one gets no wrong bytes")
    func matchedByID() {
        var local = StoredMessage(id: "c1", sender: .user, text: "", createdAt: Date(timeIntervalSince1970: 0))
        local.images = [tinyJPEG(tag: 1), tinyJPEG(tag: 2), tinyJPEG(tag: 3)]
        local.attachmentIds = ["att_a", "att_b", "att_c"]
        let confirmed = Message(
            id: "m1", clientId: "c1", seq: 1, sender: .user, text: "",
            attachments: ["att_c", "att_x", "att_a"].map { Attachment(id: $0, url: "https://x/\($0)", contentType: "image/jpeg") },
            createdAt: Date(timeIntervalSince1970: 0))
        let kept = Transcript.uploadedPhotos(of: local, confirmedAs: confirmed)
        #expect(kept == [
            Transcript.UploadedPhoto(attachmentID: "att_c", jpeg: tinyJPEG(tag: 3)),
            Transcript.UploadedPhoto(attachmentID: "att_a", jpeg: tinyJPEG(tag: 1)),
        ])
    }

    @Test("a chat reset empties the cache, and a download that ends after it keeps nothing")
    func chatReset() async throws {
        let harness = try await Self.harness()
        _ = try await harness.engine.photo("att_1")
        #expect(harness.photos.keptIDs == ["att_1"])
        await harness.engine.chatReset(revision: 1)
        #expect(harness.photos.keptIDs.isEmpty, "Reset support left the photos on the device")

        let again = try await Self.harness()
        await again.service.hold("attachmentPhoto")
        let load = Task { try await again.engine.photo("att_1") }
        try #require(await eventually { await again.service.waitingCount("attachmentPhoto") == 1 }, "never started")
        await again.engine.chatReset(revision: 1)
        await again.service.release("attachmentPhoto")
        _ = try? await load.value
        #expect(again.photos.storedIDs.isEmpty, "a download from before the reset was kept")
    }

    @Test("once the session's gate is closed, a download keeps nothing")
    func closedGate() async throws {
        let photos = InMemoryPhotoCache()
        let store = InMemoryMessageStore(scope: StorageScope(appID: "app_test", generation: "g1"))
        try store.save([StoredMessage(
            id: "agent-1", seq: 1, sender: .agent, text: "", createdAt: Date(timeIntervalSince1970: 1_790_000_000),
            attachments: [Attachment(id: "att_1", url: Self.link.absoluteString, contentType: "image/jpeg")])])
        let clock = ManualClock()
        let cooldowns = CooldownBook(now: clock.now)
        let service = FakeConversationService(cooldowns: cooldowns, clock: clock, conversationExists: true)
        await service.setAttachmentPhoto(tinyJPEG(tag: 7), at: Self.link)
        let gate = StoreGate<any PhotoCaching>(photos)
        let engine = ChatEngine(ChatEngine.Dependencies(
            service: service, storage: StoreGate(store), images: FakeImagePreparer(), photos: gate,
            cooldowns: cooldowns, clock: clock, ids: IncrementingIDGenerator(), random: FixedRandomSource(),
            logger: .silent))
        await engine.start()
        try gate.close { $0.removeAll() }
        #expect(try await engine.photo("att_1") == tinyJPEG(tag: 7))
        #expect(photos.storedIDs.isEmpty, "a closed session's cache was written")
    }
}

/// A photo cache whose reads are held until `release()`, as a slow disk holds them: the first read says that
/// it started. The hold is bounded (10 s) so a broken engine fails the test instead of hanging it.
final class HeldPhotoCache: Sendable {
    private let entered = Locked(false)
    private let gate = DispatchSemaphore(value: 0)
    private let released = Locked(false)
    private let inner = Locked<InMemoryPhotoCache?>(nil)

    private let holding = Locked(false)

    var isReleased: Bool { released.withLock { $0 } }
    /// A read is held now (released neither by `release()` nor by the bound).
    var isHolding: Bool { holding.withLock { $0 } }

    func inFront(of cache: InMemoryPhotoCache) -> any PhotoCaching {
        inner.withLock { $0 = cache }
        return Front(owner: self)
    }

    /// A read has started.
    var hasEntered: Bool { entered.withLock { $0 } }

    func release() {
        released.withLock { $0 = true }
        gate.signal()
    }

    private struct Front: PhotoCaching {
        let owner: HeldPhotoCache
        func photo(for attachmentID: String) -> Data? {
            owner.holding.withLock { $0 = !owner.isReleased }
            owner.entered.withLock { $0 = true }
            if !owner.isReleased { _ = owner.gate.wait(timeout: .now() + 10) }
            owner.holding.withLock { $0 = false }
            owner.gate.signal()
            return owner.inner.withLock { $0 }?.photo(for: attachmentID)
        }
        func store(_ data: Data, for attachmentID: String) { owner.inner.withLock { $0 }?.store(data, for: attachmentID) }
        func removeAll() { owner.inner.withLock { $0 }?.removeAll() }
    }
}
