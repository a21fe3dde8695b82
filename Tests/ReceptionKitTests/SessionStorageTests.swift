import Foundation
@testable import ReceptionCore
@testable import ReceptionKit
import ReceptionTesting
import Testing

@Suite("SessionStorageTests")
@MainActor
struct SessionStorageTests {
    let app = "app_AbCdEfGhIjKlMnOpQrStUv"

    @Test func aGenerationIsCreatedOncePersistedAndRotated() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("prefs-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let namespaces = StorageNamespaces(preferences: FilePreferences(url: url), idGenerator: IncrementingIDGenerator())
        let first = namespaces.current(appID: app)
        #expect(first.key == app + "00000000-0000-0000-0000-000000000001")
        #expect(namespaces.current(appID: app) == first)
        let relaunched = StorageNamespaces(preferences: FilePreferences(url: url), idGenerator: IncrementingIDGenerator(first: 50))
        #expect(relaunched.current(appID: app) == first, "the generation survives a relaunch")
        let rotated = relaunched.rotate(appID: app)
        #expect(rotated != first && relaunched.current(appID: app) == rotated)
        #expect(relaunched.current(appID: "app_ZZZZZZZZZZZZZZZZZZZZZZ") != rotated, "each App ID has its own")
    }

    @Test func aRotationRemovesThePreferencesOfEarlierScopesOnly() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("prefs-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let preferences = FilePreferences(url: url)
        let namespaces = StorageNamespaces(preferences: preferences, idGenerator: IncrementingIDGenerator())
        let other = "app_ZZZZZZZZZZZZZZZZZZZZZZ"
        let first = namespaces.current(appID: app)
        let otherScope = namespaces.current(appID: other)
        preferences["\(first.key).pending"] = #"{"externalUserId":"previous-user"}"#
        preferences["\(otherScope.key).pending"] = #"{"externalUserId":"other-app-user"}"#
        preferences["unrelated"] = "kept"
        let second = namespaces.rotate(appID: app)
        preferences["\(second.key).pending"] = #"{"externalUserId":"next-user"}"#
        let file = try String(contentsOf: url, encoding: .utf8)
        #expect(!file.contains("previous-user"), "the previous scope's identity is gone from the file")
        #expect(file.contains("other-app-user") && file.contains("next-user") && file.contains("kept"))
        #expect(FilePreferences(url: url)["\(app).generation"] == second.generation)
    }

    @Test func theAppearanceCacheIsPerAppIDAndBounded() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("appearance-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let cache = AppearanceCache(preferences: FilePreferences(url: url))
        let other = "app_ZZZZZZZZZZZZZZZZZZZZZZ"
        let appearance = try #require(RemoteAppearance(revision: 4, data: Data(#"{"colorScheme":"dark"}"#.utf8)))
        cache.save(appearance, appID: app)
        let reopened = AppearanceCache(preferences: FilePreferences(url: url))
        #expect(reopened.load(appID: app) == appearance)
        #expect(reopened.load(appID: other) == nil, "each App ID has its own")
        let file = try String(contentsOf: url, encoding: .utf8)
        #expect(file.contains(AppearanceCache.key(app)) && !file.contains(app), "keyed by sha256hex(appId)")
        #expect(AppearanceCache.key(app).count == 64)
        // Over 65,536 bytes is not kept (the earlier one stays), and a damaged entry reads as none.
        let huge = try #require(RemoteAppearance(
            revision: 5, data: Data("{\"x\":\"\(String(repeating: "a", count: 70_000))\"}".utf8)))
        cache.save(huge, appID: app)
        #expect(AppearanceCache(preferences: FilePreferences(url: url)).load(appID: app)?.revision == 4)
        let preferences = FilePreferences(url: url)
        preferences[AppearanceCache.key(other)] = #"{"revision":-1,"appearance":{}}"#
        #expect(AppearanceCache(preferences: preferences).load(appID: other) == nil)
    }

    @Test func revocationsSurviveAndAreSentInOrder() async {
        let store = InMemorySecureStore()
        let queue = RevocationQueue(store: store, logger: .silent)
        queue.enqueue(PendingRevocation(appID: app, secret: "ss_1"))
        queue.enqueue(PendingRevocation(appID: app, secret: "ss_2"))
        queue.enqueue(PendingRevocation(appID: app, secret: "ss_1"))
        let reopened = RevocationQueue(store: store, logger: .silent)
        #expect(reopened.entries()?.map(\.sessionSecret) == ["ss_1", "ss_2"])
        let sent = Sent()
        reopened.startDrain(sent.sender())
        await reopened.settled()
        #expect(sent.secrets == ["ss_1", "ss_2"], "one after the other, in order")
        #expect(store.read(.pendingSessionRevocations) == .missing)
    }

    // Spec 7.15: an unreadable stored queue is never replaced; new entries join it once it can be read.
    @Test func anUnreadableQueueIsCombinedLaterNotOverwritten() {
        let store = InMemorySecureStore()
        let queue = RevocationQueue(store: store, logger: .silent)
        queue.enqueue(PendingRevocation(appID: app, secret: "ss_old"))
        store.readsUnavailable = true
        queue.enqueue(PendingRevocation(appID: app, secret: "ss_new"))
        #expect(queue.entries() == nil)
        store.readsUnavailable = false
        #expect(queue.entries()?.map(\.sessionSecret) == ["ss_old", "ss_new"])
        #expect(RevocationQueue(store: store, logger: .silent).entries()?.map(\.sessionSecret) == ["ss_old", "ss_new"])
    }

    /// The secrets a drain sent, in order; `gate` (when set) holds each send until the test opens it.
    final class Sent: Sendable {
        private let state = Locked<(secrets: [String], waiting: [CheckedContinuation<Void, Never>], held: Bool)>(
            ([], [], false))

        var secrets: [String] { state.withLock { $0.secrets } }
        var waiting: Int { state.withLock { $0.waiting.count } }

        func hold() { state.withLock { $0.held = true } }

        func open() {
            let waiting = state.withLock { state in
                state.held = false
                defer { state.waiting.removeAll() }
                return state.waiting
            }
            for continuation in waiting { continuation.resume() }
        }

        func sender() -> RevocationQueue.Sender {
            RevocationQueue.Sender(
                revoke: { [self] entry throws(ReceptionError) in
                    state.withLock { $0.secrets.append(entry.sessionSecret) }
                    await withCheckedContinuation { continuation in
                        let now = state.withLock { state in
                            if state.held { state.waiting.append(continuation) }
                            return !state.held
                        }
                        if now { continuation.resume() }
                    }
                },
                clock: ManualClock(), random: FixedRandomSource())
        }
    }

    // Issue 15: the drain reads the queue and sends; a logout queues meanwhile; the drain's removal must not
    // write back a list without the new entry, and the new entry is sent by the same drain, once.
    @Test func anEntryQueuedWhileTheDrainSendsIsNotErased() async throws {
        let store = InMemorySecureStore()
        let queue = RevocationQueue(store: store, logger: .silent)
        let sent = Sent()
        queue.enqueue(PendingRevocation(appID: app, secret: "ss_draining"))
        sent.hold()
        queue.startDrain(sent.sender())
        try #require(await untilSignalled { sent.waiting == 1 }, "the drain did not send")
        queue.enqueue(PendingRevocation(appID: app, secret: "ss_queued_meanwhile"))
        queue.startDrain(sent.sender())
        sent.open()
        await queue.settled()
        #expect(sent.secrets == ["ss_draining", "ss_queued_meanwhile"])
        #expect(store.read(.pendingSessionRevocations) == .missing, "an entry stayed behind")
    }

    // The background pauses the drain after the request in flight; the entries wait for the next active drain.
    @Test func theBackgroundPausesTheDrain() async throws {
        let store = InMemorySecureStore()
        let queue = RevocationQueue(store: store, logger: .silent)
        let sent = Sent()
        for index in 0..<3 { queue.enqueue(PendingRevocation(appID: app, secret: "ss_\(index)")) }
        sent.hold()
        queue.startDrain(sent.sender())
        try #require(await untilSignalled { sent.waiting == 1 })
        queue.setActive(false)
        sent.open()
        await queue.settled()
        #expect(sent.secrets == ["ss_0"])
        #expect(queue.entries()?.map(\.sessionSecret) == ["ss_1", "ss_2"])
        queue.setActive(true)
        queue.startDrain(sent.sender())
        await queue.settled()
        #expect(sent.secrets == ["ss_0", "ss_1", "ss_2"])
    }

    // Issue 15: a rotation whose write of preferences.json failed is recorded in the secure store; the next
    // process completes it before it reads a scope, and the retired scope's pending identity is gone.
    @Test func aRotationTheFileMissedIsCompletedByTheNextProcess() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("prefs-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let secure = InMemorySecureStore()
        let full = Locked(false)
        let preferences = FilePreferences(url: url, write: { data, url throws(ReceptionError) in
            if full.withLock({ $0 }) { throw ReceptionError.storageFull }
            try FilePreferences.writeAtomically(data, url)
        })
        let namespaces = StorageNamespaces(
            preferences: preferences, idGenerator: IncrementingIDGenerator(),
            journal: RotationJournal(store: secure, logger: .silent))
        let first = namespaces.current(appID: app)
        preferences["\(first.key).pending"] = #"{"externalUserId":"retired-user"}"#
        // A secret a registration stored under the old scope after the logout looked (or a process that ended
        // before the logout removed it).
        try secure.write(Data(#"{"sessionSecret":"ss_orphan"}"#.utf8), for: .session(scope: first.key))
        full.withLock { $0 = true }
        let second = namespaces.rotate(appID: app)
        #expect(!preferences.isWritten)
        #expect(try String(contentsOf: url, encoding: .utf8).contains("retired-user"), "the write did not fail")
        #expect(secure.read(.pendingScopeRotations) != .missing, "the rotation was not recorded")

        var swept: [StorageScope] = []
        let next = StorageNamespaces(
            preferences: FilePreferences(url: url), idGenerator: IncrementingIDGenerator(first: 50),
            journal: RotationJournal(store: secure, logger: .silent))
        #expect(next.current(appID: app) { swept.append($0) } == second, "the recorded successor is current")
        #expect(swept == [first])
        let file = try String(contentsOf: url, encoding: .utf8)
        #expect(!file.contains("retired-user") && file.contains(second.generation))
        #expect(secure.read(.pendingScopeRotations) == .missing, "the record outlived the write")
    }

    // A failed write is retried: at the next change, or when asked; the record goes once the file holds it.
    @Test func aFailedWriteIsRetriedAndThenForgotten() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("prefs-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let secure = InMemorySecureStore()
        let full = Locked(true)
        let preferences = FilePreferences(url: url, write: { data, url throws(ReceptionError) in
            if full.withLock({ $0 }) { throw ReceptionError.storageFull }
            try FilePreferences.writeAtomically(data, url)
        })
        let namespaces = StorageNamespaces(
            preferences: preferences, idGenerator: IncrementingIDGenerator(),
            journal: RotationJournal(store: secure, logger: .silent))
        full.withLock { $0 = false }
        let first = namespaces.current(appID: app)
        preferences["\(first.key).pending"] = #"{"externalUserId":"retired-user"}"#
        full.withLock { $0 = true }
        let second = namespaces.rotate(appID: app)
        namespaces.retryUnwrittenRotation(appID: app)
        #expect(!preferences.isWritten && secure.read(.pendingScopeRotations) != .missing)
        full.withLock { $0 = false }
        namespaces.retryUnwrittenRotation(appID: app)
        #expect(preferences.isWritten)
        #expect(secure.read(.pendingScopeRotations) == .missing)
        #expect(FilePreferences(url: url)["\(app).generation"] == second.generation)
        #expect(!(try String(contentsOf: url, encoding: .utf8)).contains("retired-user"))
    }
}

/// Polls `condition` on the main actor for up to ~5 s (no wall-clock assertion: it waits for a signal).
@MainActor
private func untilSignalled(_ condition: @MainActor () -> Bool) async -> Bool {
    for _ in 0..<5000 {
        if condition() { return true }
        await Task.yield()
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}
