import Foundation
import ReceptionCore
import ReceptionTesting
@testable import Conversation

/// A tiny valid JPEG header (SOI, SOF0 of `width`×`height`, EOI): enough for the engine, which reads only the size.
func tinyJPEG(width: Int = 4, height: Int = 3, tag: UInt8 = 0) -> Data {
    Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8),
          UInt8(width & 0xFF), 0x01, 0x01, 0x11, 0x00, 0xFF, 0xFE, 0x00, 0x03, tag, 0xFF, 0xD9])
}

/// An `ImagePreparing` fake: files starting with "bad" fail with `invalid_image`; anything else becomes a tiny JPEG.
struct FakeImagePreparer: ImagePreparing {
    func prepare(_ file: Data) throws(ReceptionError) -> PreparedPhoto {
        if file.starts(with: Data("bad".utf8)) { throw .invalidImage }
        let jpeg = tinyJPEG(tag: file.first ?? 0)
        return PreparedPhoto(jpeg: jpeg, width: 4, height: 3, checksum: "x")
    }
}

/// An engine over the fake service, an in-memory store and a manual clock.
struct EngineHarness {
    let clock: ManualClock
    let store: InMemoryMessageStore
    let cooldowns: CooldownBook
    let service: FakeConversationService
    /// The session's photo cache (issue 39).
    let photos: InMemoryPhotoCache
    let engine: ChatEngine

    init(
        store: InMemoryMessageStore? = nil, registered: Bool = true, conversationExists: Bool = false,
        startedChat: Bool = true, clock: ManualClock = ManualClock(), service: FakeConversationService? = nil,
        cooldowns: CooldownBook? = nil, photos: InMemoryPhotoCache = InMemoryPhotoCache(),
        photoCacheInFront: (@Sendable (InMemoryPhotoCache) -> any PhotoCaching)? = nil
    ) async {
        self.clock = clock
        self.photos = photos
        let store = store ?? InMemoryMessageStore(scope: StorageScope(appID: "app_test", generation: "g1"))
        self.store = store
        if startedChat { try? store.updateSessionState { $0.hasStartedChat = true } }
        let cooldowns = cooldowns ?? CooldownBook(now: clock.now)
        self.cooldowns = cooldowns
        let service = service ?? FakeConversationService(
            cooldowns: cooldowns, clock: clock, registered: registered, conversationExists: conversationExists)
        self.service = service
        engine = ChatEngine(ChatEngine.Dependencies(
            service: service, store: store, images: FakeImagePreparer(),
            photos: photoCacheInFront?(photos) ?? photos, cooldowns: cooldowns,
            clock: clock, ids: IncrementingIDGenerator(), random: FixedRandomSource(), logger: .silent))
        await engine.start()
    }

    /// The same store, cooldowns and service after a relaunch.
    func relaunched() async -> EngineHarness {
        await engine.photoWritesSettled()
        await engine.shutdown()
        return await EngineHarness(
            store: store.reopened(scope: store.scope), startedChat: false, clock: clock, service: service,
            cooldowns: cooldowns, photos: photos.reopened())
    }

    var snapshot: ChatSnapshot { get async { await engine.snapshot } }

    func message(_ id: String) async -> ChatMessage? { await engine.snapshot.messages.first { $0.id == id } }

    /// Types and sends.
    @discardableResult
    func send(_ text: String) async -> String? {
        await engine.setDraft(text)
        return await engine.send()
    }

    /// Moves time forward in half-second steps, letting woken work run between steps, so a timer armed by work
    /// that is still finishing is never skipped.
    func elapse(seconds: Double) async {
        var left = seconds
        await settle()
        while left > 0 {
            let step = min(0.5, left)
            await clock.advance(by: .milliseconds(Int64(step * 1000)))
            await settle()
            left -= step
        }
    }

    /// Opens the chat in an active app.
    func open() async { await engine.setVisible(true) }

    /// A model connected to this engine, whose chat is on screen.
    @MainActor
    func openModel() async -> ChatModel {
        let model = ChatModel(engine: engine)
        await model.connect()
        await model.setVisible(true)
        return model
    }
}

/// Lets other tasks run until `condition` holds (bounded; no real sleeping). Returns whether it held.
@discardableResult
func eventually(_ condition: () async -> Bool) async -> Bool {
    for _ in 0..<20_000 {
        if await condition() { return true }
        await Task.yield()
    }
    return await condition()
}

/// A scripted success in a failure list.
let pass = ReceptionError(code: "pass")

/// Lets running tasks settle.
func settle() async { for _ in 0..<500 { await Task.yield() } }

/// A store holding confirmed agent messages `seqs` (texts "cached <seq>") of a chat that has a conversation.
func cachedStore(seqs: ClosedRange<Int64>) throws -> InMemoryMessageStore {
    let store = InMemoryMessageStore(scope: StorageScope(appID: "app_test", generation: "g1"))
    try store.save(seqs.map { seq in
        StoredMessage(id: "agent-\(seq)", seq: seq, sender: .agent, text: "cached \(seq)",
                      createdAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(seq)))
    })
    try store.updateSessionState { $0.unread.hasConversation = true }
    return store
}
