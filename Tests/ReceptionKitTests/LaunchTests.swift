import Dispatch
import Foundation
@testable import ReceptionCore
@testable import ReceptionKit
import ReceptionTesting
import Testing

/// Issue 32, "A light launch": `configure(appId:)` records the configuration and returns; the data folder and the
/// SQLite store are read off the main actor, and the calls a host makes before that finishes run afterwards, in the
/// order it made them.
@Suite("LaunchTests", .serialized)
@MainActor
struct LaunchTests {
    let appID = "app_LightLaunch00000000000"
    let otherAppID = "app_LightLaunchOther000000"

    /// A configuration over a scripted service that answers the appearance fetch, a deletion and a sign-out, an
    /// in-memory secure store and a manual clock, in a fresh data folder (`transport` and `secureStore` are the
    /// configuration's).
    func makeConfiguration(
        transport: ScriptedHTTPTransport = ScriptedHTTPTransport(), secureStore: InMemorySecureStore = InMemorySecureStore()
    ) -> (ReceptionConfiguration, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kit-launch-\(UUID().uuidString)")
        transport.on("GET /v1/appearance", .json(204, ""))
        transport.on("DELETE /v1/devices/me", .json(200, "{}"))
        transport.on("POST /v1/devices/me/logout", .json(200, "{}"))
        var configuration = ReceptionConfiguration(
            serviceRoot: URL(string: "http://127.0.0.1:9")!, dataDirectory: directory)
        configuration.transport = transport
        configuration.secureStore = secureStore
        configuration.clock = ManualClock()
        configuration.lifecycle = nil
        configuration.network = nil
        return (configuration, directory)
    }

    /// A `Reception` configured over `makeConfiguration()` whose events are recorded, before its launch is ready.
    func configuredReception() -> (Reception, Events, URL) {
        let (configuration, directory) = makeConfiguration()
        let reception = Reception()
        let events = Events()
        reception.onEvent = { events.all.append($0) }
        reception.configure(appId: appID, configuration: configuration)
        return (reception, events, directory)
    }

    @Test("configure returns before the message store is opened; the session follows off the main actor")
    func configureDoesNotWaitForTheStore() async throws {
        let (configuration, directory) = makeConfiguration()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (held, opening) = holdingTheStore(configuration)
        let reception = Reception()
        reception.configure(appId: appID, configuration: held)
        // Had configure opened the store itself, it would have returned only when the hold timed out.
        #expect(reception.isConfigured)
        #expect(reception.chat == nil, "the session exists once its store is open")
        opening.release()
        await reception.waitUntilReady()
        #expect(!opening.timedOut, "the store was opened while configure had already returned")
        #expect(opening.count == 1, "the store opened for the restored-backup check serves the session")
        #expect(reception.chat != nil)
    }

    @Test("calls made before the launch is ready run once it is, in the order they were made")
    func callsBeforeReadinessRunInOrder() async throws {
        let (reception, events, directory) = configuredReception()
        defer { try? FileManager.default.removeItem(at: directory) }
        reception.identify(userId: "first-user", name: "First")
        reception.logout()
        reception.identify(userId: "second-user", name: "Second")
        reception.setMetadata(["plan": "pro"])
        reception.openChat()
        // Nothing has run yet: the parts do not exist before this test yields the main actor.
        #expect(reception.identityState == .anonymous)
        #expect(!reception.isChatOpen)
        await reception.waitUntilReady()
        #expect(reception.identityState == .labelled(userId: "second-user"),
                "the logout ran between the two identify calls, as they were made")
        #expect(reception.isChatOpen)
        #expect(events.all.filter { $0 == .chatOpened }.count == 1)
        reception.closeChat()
        #expect(!reception.isChatOpen, "after readiness a call runs at once")
    }

    @Test("a support push forwarded before the launch is ready is recognised at once and opens the chat after")
    func pushBeforeReadiness() async throws {
        let (reception, _, directory) = configuredReception()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(reception.handlePushNotification(userInfo: ["reception": ["conversationId": "conv_1"]]))
        #expect(!reception.handlePushNotification(userInfo: ["aps": ["alert": "Another SDK's"]]))
        #expect(!reception.isChatOpen)
        await reception.waitUntilReady()
        #expect(reception.isChatOpen)
    }

    @Test("a configure that replaces one still being prepared drops the calls made for it")
    func replacedLaunchDropsItsCalls() async throws {
        let (configuration, directory) = makeConfiguration()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reception = Reception()
        reception.configure(appId: appID, configuration: configuration)
        reception.identify(userId: "meant-for-the-first-app")
        reception.configure(appId: otherAppID, configuration: configuration)
        reception.identify(userId: "second-app-user")
        await reception.waitUntilReady()
        #expect(reception.identityState == .labelled(userId: "second-app-user"))
        let preferences = try String(contentsOf: directory.appendingPathComponent("preferences.json"), encoding: .utf8)
        #expect(!preferences.contains("meant-for-the-first-app"), "the first app's kept call never ran")
        #expect(preferences.contains(otherAppID))
    }

    @Test("deleteData before the launch is ready waits for it, then resets the chat")
    func deleteDataWaitsForReadiness() async throws {
        let (reception, events, directory) = configuredReception()
        defer { try? FileManager.default.removeItem(at: directory) }
        reception.identify(userId: "leaving-user")
        // No session secret is stored (the chat was never used), so nothing is sent: the local reset follows.
        try await reception.deleteData()
        #expect(events.all.contains(.dataDeleted))
        #expect(reception.identityState == .anonymous, "the identify made before it ran first, and was reset")
    }
}

extension LaunchTests {
    /// Launches `appID` once, then stores a session secret for its current scope, as a registration would.
    func plantSession(
        _ secret: String, appID: String, configuration: ReceptionConfiguration, store: InMemorySecureStore,
        directory: URL
    ) async throws -> String {
        let first = Reception()
        first.configure(appId: appID, configuration: configuration)
        await first.waitUntilReady()
        let generation = try currentGeneration(appID, directory: directory)
        let credentials = SessionCredentials(sessionSecret: secret, verifiedUserId: nil)
        try store.write(try JSONEncoder().encode(credentials), for: .session(scope: appID + generation))
        return generation
    }

    /// `configuration` whose message store opens only once the returned hold is released.
    func holdingTheStore(_ configuration: ReceptionConfiguration) -> (ReceptionConfiguration, HeldOpening) {
        var held = configuration
        let opening = HeldOpening()
        let standard = configuration.messageStore
        held.messageStore = { directory, scope, logger throws(ReceptionError) in
            opening.waitForRelease()
            return try standard(directory, scope, logger)
        }
        return (held, opening)
    }

    /// Yields until the deletion task has made its call (it runs on the main actor once this test yields).
    func waitUntilKept(_ reception: Reception) async throws {
        var turns = 0
        while reception.keptCallCount == 0 && turns < 10_000 {
            await Task.yield()
            turns += 1
        }
        try #require(reception.keptCallCount == 1, "the deletion was kept for the launch")
    }

    func currentGeneration(_ appID: String, directory: URL) throws -> String {
        let data = try Data(contentsOf: directory.appendingPathComponent("preferences.json"))
        let values = try JSONDecoder().decode([String: String].self, from: data)
        return try #require(values["\(appID).generation"])
    }

    @Test("a deleteData made before the launch is ready deletes the stored session, even with a logout after it")
    func deletionTakesItsTurnBeforeALaterLogout() async throws {
        let transport = ScriptedHTTPTransport(), store = InMemorySecureStore()
        let (configuration, directory) = makeConfiguration(transport: transport, secureStore: store)
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await plantSession("ss_to_delete", appID: appID, configuration: configuration, store: store,
                                   directory: directory)
        // The relaunch's store opening is held, so both calls below are made before it is ready.
        let (held, opening) = holdingTheStore(configuration)
        let reception = Reception()
        var events: [ReceptionEvent] = []
        reception.onEvent = { events.append($0) }
        reception.configure(appId: appID, configuration: held)
        let deletion = Task { try await reception.deleteData() }
        try await waitUntilKept(reception)
        reception.logout()
        opening.release()
        try await deletion.value
        let deleted = transport.requests(to: "DELETE /v1/devices/me").compactMap { $0.json?["sessionSecret"] as? String }
        #expect(deleted == ["ss_to_delete"], "the deletion read the session before the later logout emptied it")
        #expect(events.contains(.dataDeleted))
    }

    @Test("a deleteData waiting for a launch that another configure replaces throws cancelled")
    func deletionOfAReplacedLaunchIsCancelled() async throws {
        let (configuration, directory) = makeConfiguration()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (held, opening) = holdingTheStore(configuration)
        let reception = Reception()
        reception.configure(appId: appID, configuration: held)
        let deletion = Task { try await reception.deleteData() }
        try await waitUntilKept(reception)
        reception.configure(appId: otherAppID, configuration: configuration)
        opening.release()
        await #expect(throws: ReceptionError(code: ReceptionError.Code.cancelled)) { try await deletion.value }
        await reception.waitUntilReady()
    }

    @Test("a logout made for a configuration replaced before it was ready still signs that App ID's storage out")
    func logoutOfAReplacedLaunchSignsOut() async throws {
        let store = InMemorySecureStore()
        let (configuration, directory) = makeConfiguration(secureStore: store)
        defer { try? FileManager.default.removeItem(at: directory) }
        let generation = try await plantSession("ss_signed_out", appID: appID, configuration: configuration,
                                                store: store, directory: directory)
        let reception = Reception()
        reception.configure(appId: appID, configuration: configuration)
        reception.logout()
        reception.configure(appId: otherAppID, configuration: configuration)
        await reception.waitUntilReady()
        #expect(try currentGeneration(appID, directory: directory) != generation, "the old scope was retired")
        #expect(store.read(.session(scope: appID + generation)) == .missing, "its secret was removed")
    }
}

/// The events a `Reception` emitted, in order.
@MainActor
final class Events {
    var all: [ReceptionEvent] = []
}

/// Holds the message store's opening until the test releases it; records whether the hold ran out instead.
final class HeldOpening: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let state = Locked((timedOut: false, count: 0))

    var timedOut: Bool { state.withLock { $0.timedOut } }
    var count: Int { state.withLock { $0.count } }

    func waitForRelease() {
        let released = semaphore.wait(timeout: .now() + 30) == .success
        state.withLock {
            $0.count += 1
            if !released { $0.timedOut = true }
        }
        // Later openings (none expected) pass.
        semaphore.signal()
    }

    func release() { semaphore.signal() }
}
