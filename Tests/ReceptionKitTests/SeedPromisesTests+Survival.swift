import Foundation
import ReceptionCore
import ReceptionKit
import Testing

/// Seed 000 "Log out": project configuration, the global appearance, the language override, the badge preference
/// and the event callback remain after `logout()`, and (seed 000 "When deletion completes") after `deleteData()`;
/// an ordinary logout never emits `.dataDeleted`, which belongs to deletion alone.
@Suite("SeedPromisesTests+Survival", .serialized)
@MainActor
struct SeedPromisesSurvivalTests {
    /// The host's choices that must outlive the account.
    static func choose(_ reception: Reception) {
        var look = ChatAppearance()
        look.showsCloseButton = false
        reception.appearance = look
        reception.languageOverride = "de"
        reception.updatesAppBadge = false
        reception.textOverrides = [.retry: "Nochmal"]
    }

    static func expectChoicesKept(_ reception: Reception, after step: String) {
        #expect(reception.isConfigured, "\(step): configure is not needed again")
        #expect(reception.appearance.showsCloseButton == false, "\(step): the appearance was reset")
        #expect(reception.languageOverride == "de", "\(step): the language override was reset")
        #expect(reception.updatesAppBadge == false, "\(step): the badge preference was reset")
        #expect(reception.textOverrides[.retry] == "Nochmal", "\(step): the text overrides were reset")
    }

    static func count(_ event: ReceptionEvent, _ app: App) -> Int { app.events.filter { $0 == event }.count }

    /// The same callback still hears the new session, which sends `text` without another configure.
    static func expectOnEventHearsTheNextSend(_ app: App, _ text: String) async throws {
        let sent = count(.messageSent, app)
        try await app.send(text)
        #expect(await until { count(.messageSent, app) == sent + 1 }, "onEvent no longer hears the SDK")
    }

    @Test("logout keeps configuration, appearance, language, badge preference and onEvent, and emits no .dataDeleted")
    func logoutKeepsTheHostsChoices() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        Self.choose(app.reception)
        try await app.send("before logout")
        let engine = try #require(app.reception.chat?.engine)
        let secret = try #require(app.sessionSecret())
        app.reception.logout()
        // Explicit signals that logout's work is over: the old session ended with nothing on the wire, and the
        // queued remote sign-out reached the service (the old secret no longer refreshes).
        #expect(await app.untilEnded(engine))
        #expect(await until { (try? await service.refreshStatus(secret: secret)) == 401 }, "the remote sign-out never ran")
        #expect(Self.count(.dataDeleted, app) == 0, "an ordinary logout emitted .dataDeleted")
        Self.expectChoicesKept(app.reception, after: "logout")
        try await Self.expectOnEventHearsTheNextSend(app, "after logout")
        #expect(Self.count(.dataDeleted, app) == 0)
    }

    @Test("deleteData keeps configuration, appearance, language, badge preference and onEvent; .dataDeleted once")
    func deletionKeepsTheHostsChoices() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        Self.choose(app.reception)
        try await app.send("before deletion")
        try await app.reception.deleteData()
        #expect(Self.count(.dataDeleted, app) == 1)
        #expect(try await service.devices().isEmpty)
        Self.expectChoicesKept(app.reception, after: "deletion")
        try await Self.expectOnEventHearsTheNextSend(app, "after deletion")
        #expect(Self.count(.dataDeleted, app) == 1, "a send after deletion emitted .dataDeleted again")
    }
}
