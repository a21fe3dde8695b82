import Foundation
import ReceptionCore
import ReceptionKit
import ReceptionTesting
import Testing

@Suite("SessionStorageTests")
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

    @Test func revocationsSurviveAndAreSentInOrder() {
        let store = InMemorySecureStore()
        let queue = RevocationQueue(store: store, logger: .silent)
        queue.enqueue(PendingRevocation(appID: app, secret: "ss_1"))
        queue.enqueue(PendingRevocation(appID: app, secret: "ss_2"))
        queue.enqueue(PendingRevocation(appID: app, secret: "ss_1"))
        let reopened = RevocationQueue(store: store, logger: .silent)
        #expect(reopened.entries()?.map(\.sessionSecret) == ["ss_1", "ss_2"])
        reopened.remove(PendingRevocation(appID: app, secret: "ss_1"))
        #expect(RevocationQueue(store: store, logger: .silent).entries()?.map(\.sessionSecret) == ["ss_2"])
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
}
