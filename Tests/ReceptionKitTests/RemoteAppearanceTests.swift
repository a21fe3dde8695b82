import Foundation
@testable import ReceptionCore
@testable import ReceptionKit
import ReceptionTesting
import Testing

/// Spec 7.20 end to end: the dashboard publishes through the emulator's admin API, the SDK fetches, caches per App
/// ID, shows the new look at the next chat opening, asks with its ETag, and keeps it across relaunch and logout.
@Suite("RemoteAppearanceTests", .serialized)
@MainActor
struct RemoteAppearanceTests {
    nonisolated func publish(_ service: Service, title: String, extra: [String: Any] = [:]) async throws {
        var appearance: [String: Any] = ["text": ["title": ["en": title]], "colors": ["accent": ["light": "#00AA00"]]]
        appearance.merge(extra) { _, new in new }
        try await service.admin("PUT", "appearance", ["appearance": appearance])
    }

    func configure(_ app: App, clock: ManualClock) async {
        var configuration = app.configuration
        configuration.clock = clock
        configuration.preferredLocalizations = ["en-GB"]
        app.reception = Reception()
        app.reception.configure(appId: app.service.appID, configuration: configuration)
        await app.reception.waitUntilReady()
    }

    func appearanceRequests(_ app: App) -> [SwitchableTransport.Exchange] {
        app.transport.log.filter { $0.path == "/v1/appearance" }
    }

    /// Whether an appearance request is on the wire now.
    func isFetching(_ app: App) -> Bool {
        app.transport.onTheWire.contains { $0.url.path == "/v1/appearance" }
    }

    @Test func publishedFetchedCachedAndShownAtTheNextOpening() async throws {
        let service = try Service()
        try await publish(service, title: "Support v1", extra: ["showsTeamNames": true])
        let clock = ManualClock()
        let app = App(service)
        await configure(app, clock: clock)
        let fetched = await until { app.reception.chatAppearance.texts.title == "Support v1" }
        #expect(fetched, "the published title was not fetched")
        #expect(app.reception.chatAppearance.colors.accent.light.hex == "#00AA00")
        #expect(app.reception.chatAppearance.colors.accent.dark == ChatAppearance().colors.accent.dark)
        #expect(app.reception.chatAppearance.showsTeamNames)
        #expect(app.reception.remoteAppearanceRevision == 1)
        let first = try #require(appearanceRequests(app).first)
        #expect(first.request.headers["If-None-Match"] == nil, "the first fetch after launch is unconditional")
        #expect(first.request.headers["Authorization"] == nil)
        #expect(try await service.devices().isEmpty, "fetching the appearance registers no device")

        // A new publication while the chat is open is cached but does not restyle the open chat.
        app.reception.openChat()
        try await publish(service, title: "Support v2")
        await clock.advance(by: .seconds(300))
        let refetched = await until { appearanceRequests(app).count == 2 && appearanceRequests(app)[1].status == 200 }
        #expect(refetched)
        #expect(appearanceRequests(app).last?.request.headers["If-None-Match"] == "\"appearance-1\"")
        let cached = await until {
            (try? String(contentsOf: app.directory.appendingPathComponent("appearance.json"), encoding: .utf8))?
                .contains("Support v2") == true
        }
        #expect(cached, "the new appearance is cached at once")
        #expect(app.reception.chatAppearance.texts.title == "Support v1", "the open chat is not restyled")
        app.reception.closeChat()
        app.reception.openChat()
        #expect(app.reception.chatAppearance.texts.title == "Support v2", "the next opening shows it")
        #expect(app.reception.remoteAppearanceRevision == 2)

        // Nothing new: the service answers 304 to the ETag.
        await clock.advance(by: .seconds(300))
        let unchanged = await until { appearanceRequests(app).count == 3 }
        #expect(unchanged)
        #expect(appearanceRequests(app).last?.status == 304)
        #expect(appearanceRequests(app).last?.request.headers["If-None-Match"] == "\"appearance-2\"")

        // A relaunch without network shows the cached look before any answer.
        let relaunched = App(service, directory: app.directory)
        relaunched.transport.isOffline = true
        await configure(relaunched, clock: ManualClock())
        #expect(relaunched.reception.chatAppearance.texts.title == "Support v2")
        #expect(relaunched.reception.chatAppearance.colors.accent.light.hex == "#00AA00")
        relaunched.reception.usesRemoteAppearance = false
        #expect(relaunched.reception.chatAppearance == relaunched.reception.appearance, "remote off: the host's look alone")
        relaunched.reception.usesRemoteAppearance = true
        #expect(relaunched.reception.chatAppearance.texts.title == "Support v2")
    }

    @Test func logoutAndDeletionKeepTheLookAndItsLanguageFollowsTheOverride() async throws {
        let service = try Service()
        try await service.admin("PUT", "appearance", ["appearance": [
            "text": ["welcomeTitle": ["en": "Hello", "de": "Hallo", "pt-BR": "Olá"]],
        ]])
        let clock = ManualClock()
        let app = App(service)
        await configure(app, clock: clock)
        var look = ChatAppearance()
        look.texts.title = "Our help desk"
        app.reception.appearance = look
        #expect(await until { app.reception.chatAppearance.texts.welcomeTitle == "Hello" })
        #expect(app.reception.chatAppearance.texts.title == "Our help desk", "absent remote keys keep the host's")
        app.reception.languageOverride = "de-CH"
        #expect(app.reception.chatAppearance.texts.welcomeTitle == "Hallo", "the UI language de matches")
        app.reception.languageOverride = "pt"
        #expect(app.reception.chatAppearance.texts.welcomeTitle == "Olá", "pt resolves to pt-BR")
        app.reception.logout()
        #expect(app.reception.chatAppearance.texts.welcomeTitle == "Olá")
        #expect(app.reception.appearance.texts.title == "Our help desk")
        try await app.reception.deleteData()
        #expect(app.reception.chatAppearance.texts.title == "Our help desk")
        #expect(app.reception.chatAppearance.texts.welcomeTitle == "Olá")
    }

    @Test func aFailedRefreshKeepsTheShownLookAndTheRetryBringsTheNewOne() async throws {
        let service = try Service()
        try await publish(service, title: "Good")
        let clock = ManualClock()
        let app = App(service)
        await configure(app, clock: clock)
        #expect(await until { app.reception.chatAppearance.texts.title == "Good" })
        try await service.admin("POST", "faults", ["path": "/v1/appearance", "kind": "status", "status": 500])
        try await publish(service, title: "Never seen")
        await clock.advance(by: .seconds(300))
        #expect(await until { appearanceRequests(app).count == 2 })
        #expect(appearanceRequests(app).last?.status == 500)
        #expect(app.reception.chatAppearance.texts.title == "Good", "a failed refresh keeps what was shown")
        // The retry after the backoff (2 s × jitter ≤ 2.5 s) gets the new publication.
        await clock.advance(by: .seconds(3))
        #expect(await until { app.reception.chatAppearance.texts.title == "Never seen" })
    }
}

extension RemoteAppearanceTests {
    @Test func aConfiguredLifecycleMonitorPausesAndResumesTheRefresh() async throws {
        let service = try Service()
        try await publish(service, title: "Before")
        let clock = ManualClock()
        let lifecycle = ManualLifecycle(.active)
        let app = App(service)
        var configuration = app.configuration
        configuration.clock = clock
        configuration.lifecycle = lifecycle
        configuration.preferredLocalizations = ["en"]
        app.reception.configure(appId: service.appID, configuration: configuration)
        await app.reception.waitUntilReady()
        #expect(await until { app.reception.chatAppearance.texts.title == "Before" })
        lifecycle.set(.background)
        try await publish(service, title: "After")
        #expect(await until { clock.sleeperCount == 0 }, "the background stops the refresh loop")
        // No loop, so nothing can fetch; the advance past the next due time wakes nobody.
        let refresher = try #require(app.reception.appearanceRefresher)
        #expect(await refresher.isRunning == false)
        await clock.advance(by: .seconds(600))
        #expect(clock.sleeperCount == 0 && !isFetching(app))
        #expect(appearanceRequests(app).count == 1, "nothing is fetched in the background")
        lifecycle.set(.active)
        #expect(await until { app.reception.chatAppearance.texts.title == "After" }, "active again: fetched at once")
        #expect(appearanceRequests(app).count == 2)
    }
}

extension RemoteAppearanceTests {
    // Spec 6.4 and 7.20: an appearance answer can halt the session (403 app_disabled); a halted session fetches
    // nothing, also after a logout; a new configuration starts unhalted and fetches at once.
    @Test func aHaltFromTheAppearanceAnswerStopsTheRefreshUntilTheNextConfiguration() async throws {
        let service = try Service()
        try await publish(service, title: "Before the halt")
        let clock = ManualClock()
        let app = App(service)
        await configure(app, clock: clock)
        #expect(await until { app.reception.chatAppearance.texts.title == "Before the halt" })
        try await service.admin("PATCH", "app", ["disabled": true])
        await clock.advance(by: .seconds(300))
        #expect(await until { appearanceRequests(app).count == 2 })
        #expect(appearanceRequests(app).last?.status == 403)
        #expect(await until { clock.sleeperCount == 0 }, "no refresh is scheduled while halted")
        // The loop has taken in the 403 and ended: nothing can fetch until the halt ends.
        let refresher = try #require(app.reception.appearanceRefresher)
        #expect(await until { await refresher.isRunning == false }, "the halted loop did not end")
        await clock.advance(by: .seconds(900))
        #expect(clock.sleeperCount == 0 && !isFetching(app))
        #expect(appearanceRequests(app).count == 2, "a halted session fetches nothing")

        try await service.admin("PATCH", "app", ["disabled": false])
        try await publish(service, title: "After the halt")
        // An app-unavailable halt sends nothing on its own and survives logout, but not a new configuration.
        let sessions = await refresher.sessionChanges
        app.reception.logout()
        // Once the refresher has taken in the new session, a loop it started would exist (and fetch at once).
        #expect(await until { await refresher.sessionChanges > sessions }, "the refresher never heard of the logout")
        #expect(await refresher.isRunning == false)
        await clock.advance(by: .seconds(900))
        #expect(clock.sleeperCount == 0 && !isFetching(app))
        #expect(appearanceRequests(app).count == 2, "the halt survives logout")
        let relaunched = App(service, directory: app.directory)
        await configure(relaunched, clock: ManualClock())
        #expect(relaunched.reception.chatAppearance.texts.title == "Before the halt", "the cached look first")
        #expect(await until { relaunched.reception.chatAppearance.texts.title == "After the halt" })
        #expect(appearanceRequests(relaunched).first?.request.headers["If-None-Match"] == nil,
                "the ETag is not persisted: the first fetch of a process is unconditional, even with a cached look")
    }
}

extension RemoteAppearanceTests {
    // Seed 001 "Team photos and names": off by default; once the dashboard enables them, agent replies carry the
    // teammate's first name (the first word of the name the dashboard has, issue 52) and photo, kept for the next
    // launch (names and photos before any answer).
    @Test func teamNamesAndPhotosFollowTheDashboardAndSurviveARelaunch() async throws {
        let service = try Service()
        let photo = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x42, count: 300) + [0xFF, 0xD9])
        try await service.admin("PUT", "team", ["members": [["id": "tm_mia", "name": "Mia Wong", "photo": photo.base64EncodedString()]]])
        let app = App(service)
        await app.launch()
        try await app.send("who answers?")
        let device = try #require(try await service.devices().first?["id"] as? String)
        try await service.admin("POST", "devices/\(device)/messages", ["kind": "TEXT", "text": "Mia here", "authorId": "tm_mia"])
        app.reception.openChat()
        let chat = try #require(app.reception.chat)
        #expect(await until { await chat.refresh(); return chat.messages.contains { $0.text == "Mia here" } })
        #expect(chat.team.isEmpty, "team names and photos are off until the dashboard enables them")
        #expect(!app.reception.chatAppearance.showsTeamNames)

        try await service.admin("PUT", "appearance", ["appearance": ["showsTeamNames": true, "showsTeamPhotos": true]])
        app.reception.closeChat()
        // The next launch fetches the appearance and the history with the team.
        let relaunched = App(service, directory: app.directory)
        await relaunched.launch()
        #expect(await until { relaunched.reception.chatAppearance.showsTeamPhotos })
        relaunched.reception.closeChat()
        relaunched.reception.openChat()
        let second = try #require(relaunched.reception.chat)
        #expect(await until { await second.refresh(); return second.team.first?.photo == photo })
        let reply = try #require(second.messages.first { $0.text == "Mia here" })
        #expect(second.author(of: reply)?.name == "Mia", "the first name, not the whole name")
        let row = try #require(second.presentation(appearance: relaunched.reception.chatAppearance).transcript.rows.first {
            $0.text == "Mia here"
        })
        #expect(row.author?.name == "Mia" && row.accessibilityLabel.hasPrefix("Mia: "))
        #expect(second.author(of: reply)?.initial == "M")

        // Offline, a third launch shows the name and the photo from the cache at once.
        let offline = App(service, directory: app.directory)
        offline.transport.isOffline = true
        await offline.launch()
        let third = try #require(offline.reception.chat)
        #expect(await until { await third.refresh(); return third.team.first?.photo == photo })
        #expect(third.team.map(\.name) == ["Mia"])
        // Logout leaves nothing of the team behind.
        offline.reception.logout()
        #expect(await until { await offline.reception.chat?.refresh(); return offline.reception.chat?.team.isEmpty == true })
    }
}
