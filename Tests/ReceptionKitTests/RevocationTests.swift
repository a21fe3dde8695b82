import Foundation
import ReceptionCore
import ReceptionKit
import ReceptionTesting
import Testing

/// The logout revocation queue under load (spec 7.15, issue 15): logouts queue while drains send and remove, and
/// the service must see every revoked session exactly once.
@Suite("RevocationTests", .serialized)
@MainActor
struct RevocationTests {
    let appID = "app_RevocationQueueLoad000"
    let route = "POST /v1/devices/me/logout"

    /// A configured `Reception` over a scripted service whose logout route answers 200 after a few turns of the
    /// executor (so drains overlap with the logouts that follow), an in-memory secure store and a manual clock.
    func makeReception() async -> (Reception, ScriptedHTTPTransport, InMemorySecureStore, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kit-revocations-\(UUID().uuidString)")
        let transport = ScriptedHTTPTransport()
        transport.on(route) { _ in
            for _ in 0..<3 { await Task.yield() }
            return .json(200, "{}")
        }
        transport.on("GET /v1/appearance", .json(204, ""))
        let secureStore = InMemorySecureStore()
        var configuration = ReceptionConfiguration(
            serviceRoot: URL(string: "http://127.0.0.1:9")!, dataDirectory: directory)
        configuration.transport = transport
        configuration.secureStore = secureStore
        configuration.clock = ManualClock()
        let reception = Reception()
        reception.configure(appId: appID, configuration: configuration)
        await reception.waitUntilReady()
        return (reception, transport, secureStore, directory)
    }

    /// Stores a session secret for the current scope, as a registration would, so the next logout queues it.
    func plantSession(_ secret: String, store: InMemorySecureStore, directory: URL) throws {
        let data = try Data(contentsOf: directory.appendingPathComponent("preferences.json"))
        let values = try JSONDecoder().decode([String: String].self, from: data)
        let generation = try #require(values["\(appID).generation"])
        let credentials = SessionCredentials(sessionSecret: secret, verifiedUserId: nil)
        try store.write(try JSONEncoder().encode(credentials), for: .session(scope: appID + generation))
    }

    /// The secrets the service was asked to revoke, in order (with repeats).
    func revokedSecrets(_ transport: ScriptedHTTPTransport) -> [String] {
        transport.requests(to: route).compactMap { $0.json?["sessionSecret"] as? String }
    }

    @Test func manyLogoutsDuringDrainsRevokeEverySessionExactlyOnce() async throws {
        let (reception, transport, store, directory) = await makeReception()
        defer { try? FileManager.default.removeItem(at: directory) }
        var secrets: [String] = []
        // Phase 1: the first revocation is held on the wire while more logouts queue (and start drains).
        transport.hold(route)
        for index in 0..<10 {
            let secret = "ss_held_\(index)"
            try plantSession(secret, store: store, directory: directory)
            reception.logout()
            secrets.append(secret)
            await Task.yield()
        }
        try #require(await until { transport.heldCount(route) >= 1 }, "no revocation reached the service")
        transport.release(route)
        // Phase 2: logouts keep coming while the queue is being drained and shortened; the app goes to the
        // background and back (each return to the foreground resumes the drain).
        for index in 0..<30 {
            let secret = "ss_live_\(index)"
            try plantSession(secret, store: store, directory: directory)
            reception.logout()
            secrets.append(secret)
            if index % 4 == 0 {
                reception.appDidEnterBackground()
                reception.appDidBecomeActive()
            }
            for _ in 0..<(index % 3) { await Task.yield() }
        }
        // A last logout: once its secret was revoked and the queue is empty, everything before it was sent.
        try plantSession("ss_last", store: store, directory: directory)
        reception.logout()
        secrets.append("ss_last")
        let settled = await until {
            Set(revokedSecrets(transport)).isSuperset(of: secrets) && store.read(.pendingSessionRevocations) == .missing
        }
        let revoked = revokedSecrets(transport)
        let lost = secrets.filter { !revoked.contains($0) }
        let repeated = Dictionary(grouping: revoked, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(settled, "the queue did not drain")
        #expect(lost.isEmpty, "never revoked: \(lost)")
        #expect(repeated.isEmpty, "revoked more than once: \(repeated)")
        #expect(revoked.count == secrets.count)
        #expect(store.read(.pendingSessionRevocations) == .missing, "the queue still holds entries")
    }
}
