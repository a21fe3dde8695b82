import Foundation
import ReceptionCore
@testable import ReceptionKit
import ReceptionTesting
import Testing
@testable import Unread

/// Seed 001 "Restrictions and reset behavior": "A server support reset, or a session that Reception no longer accepts
/// (for example because the device was deleted in the dashboard), also resets chat state; the next send starts
/// support again." Seed 004 "Account changes and resets": either clears the unread state, with badge
/// synchronisation and cleanup of delivered support notifications. Driven from the team's side through the
/// emulator's admin API (`POST /admin/devices/<id>/reset`, `DELETE /admin/devices/<id>`), the SDK through its public
/// API (issue 23: nothing called `DELETE /admin/devices/<id>` before, and the facade's path for a session the service
/// no longer accepts was unexercised).
@Suite("TeamResetTests", .serialized)
@MainActor
struct TeamResetTests {
    /// One install with a recorded badge and notification centre.
    struct Install {
        let app: App
        let badge = RecordingBadgeSink()
        let notifications = RecordingNotificationStore()
    }

    /// The team's action from the dashboard: `"reset"` (a support reset) or `"delete"` (the device deleted).
    func teamActs(_ action: String, on device: String, _ service: Service) async throws {
        if action == "reset" {
            try await service.admin("POST", "devices/\(device)/reset")
        } else {
            try await service.admin("DELETE", "devices/\(device)")
        }
    }

    /// A used chat that shows its sent message and holds a draft, with one agent reply (the chat is closed, so it is
    /// unread) that the count and a delivered support notification already show. Returns the device ID.
    ///
    /// The service sends no polling stages (an empty list disables the periodic check, spec 7.11) and the monitor is
    /// idle on return, so each test's next unread check is one it caused: a 15-second poll on a slow machine is not.
    func usedChatWithAnUnreadReply(_ service: Service) async throws -> (Install, String) {
        let settings = try await service.admin("PATCH", "app", ["unreadPolling": [] as [Any]])
        try #require((settings["unreadPolling"] as? [Any])?.isEmpty == true, "polling stages: \(settings)")
        let install = Install(app: App(service))
        let app = install.app
        var configuration = app.configuration
        configuration.badge = install.badge
        configuration.notifications = install.notifications
        app.reception.onEvent = { [weak app] event in app?.events.append(event) }
        app.reception.configure(appId: service.appID, configuration: configuration)
        await app.reception.waitUntilReady()
        try await app.send("before the team acts")
        let device = try #require(try await service.devices().first?["id"] as? String)
        try await service.admin("POST", "devices/\(device)/messages", ["kind": "TEXT", "text": "an unread reply"])
        install.notifications.deliver(identifier: "support-push", userInfo: ["reception": ["conversationId": "c"]])
        install.notifications.deliver(identifier: "other-feature", userInfo: ["aps": "x"])
        app.reception.handlePushNotification(userInfo: ["reception": ["conversationId": "c"]], openChat: false)
        try #require(await until { app.reception.unreadCount == 1 && install.badge.badge == 1 }, "the reply never raised the count")
        try #require(await shownTexts(app) == ["before the team acts"])
        let chat = try #require(app.reception.chat)
        chat.setDraft("an unsent draft")
        try #require(await until { await chat.engine.snapshot.composer.text == "an unsent draft" })
        await app.reception.unreadMonitor?.waitUntilIdle()
        return (install, device)
    }

    /// The next contact of a closed chat: the app returns to the foreground (device update, then the unread GET).
    func foreground(_ app: App) {
        app.reception.appDidEnterBackground()
        app.reception.appDidBecomeActive()
    }

    /// The transcript the chat shows now.
    func shownTexts(_ app: App) async -> [String] {
        await app.reception.chat?.refresh()
        return app.texts
    }

    /// What every team reset leaves: an empty chat and composer, the count 0 on the badge, support notifications
    /// removed and the host's own kept.
    func expectChatStateReset(_ install: Install) async {
        let app = install.app
        #expect(await until { await shownTexts(app).isEmpty }, "the chat still shows \(app.texts)")
        #expect(await until { app.reception.unreadCount == 0 }, "the count stayed \(app.reception.unreadCount)")
        #expect(await until { install.badge.badge == 0 }, "the badge stayed \(install.badge.writes)")
        #expect(await until { install.notifications.remainingIdentifiers == ["other-feature"] },
                "delivered: \(install.notifications.remainingIdentifiers)")
        #expect(app.reception.chat?.composer.text == "", "the draft survived the reset")
    }

    @Test func aSupportResetClearsTheChatAndTheNextSendRestartsSupportOnTheSameDevice() async throws {
        let service = try Service()
        let (install, device) = try await usedChatWithAnUnreadReply(service)
        let app = install.app
        let secret = try #require(app.sessionSecret())
        let reset = try await service.admin("POST", "devices/\(device)/reset")
        #expect(reset["resetRevision"] as? Int == 1)
        foreground(app)
        // Spec 7.12: the next bearer request gets 409 chat_reset; the chat clears and the count is 0.
        #expect(await until { app.transport.log.contains { $0.status == 409 } }, "the service never answered chat_reset")
        await expectChatStateReset(install)
        // The same namespace and session: credentials are kept, no event is emitted.
        #expect(app.sessionSecret() == secret, "a support reset must not replace the session")
        #expect(!app.events.contains(.dataDeleted))
        try await app.send("after the reset")
        let devices = try await service.devices()
        #expect(devices.map { $0["id"] as? String } == [device], "the next send restarts support on the same device")
        #expect(try await service.messages(device: device) == ["after the reset"], "a new conversation with this send only")
        #expect(await shownTexts(app) == ["after the reset"])
        let registrations = app.transport.log.filter { $0.request.method == "POST" && $0.path == "/v1/devices" }
        #expect(registrations.count == 1, "a support reset registers no new device")
    }

    @Test func aDeviceDeletedInTheDashboardResetsTheChatAndTheNextSendRegistersANewDevice() async throws {
        let service = try Service()
        let (install, device) = try await usedChatWithAnUnreadReply(service)
        let app = install.app
        let secret = try #require(app.sessionSecret())
        try await service.admin("DELETE", "devices/\(device)")
        #expect(try await service.devices().isEmpty)
        #expect(try await service.refreshStatus(secret: secret) == 401, "the service still accepts the session")
        foreground(app)
        // Spec 7.5: the access token is refused, the refresh answers 401 session_revoked, the session resets.
        #expect(await until { app.sessionSecret() == nil }, "the refused session was kept")
        await expectChatStateReset(install)
        try await app.send("after the deletion")
        let devices = try await service.devices()
        let newDevice = try #require(devices.first?["id"] as? String)
        #expect(devices.count == 1)
        #expect(newDevice != device, "the next send registers a new device")
        #expect(try await service.messages(device: newDevice) == ["after the deletion"])
        #expect(app.sessionSecret() != secret)
        #expect(await shownTexts(app) == ["after the deletion"])
    }
}

extension TeamResetTests {
    /// The team acts while the person has the chat open: the service ends the live stream, its reconnection is the
    /// contact that learns it, and the chat stays on screen (spec 7.5: the chat UI is not dismissed). After the next
    /// send the open chat is live again.
    @Test(arguments: ["reset", "delete"])
    func withTheChatOpenTheChatClearsStaysOpenAndTheNextSendIsLiveAgain(action: String) async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("before the team acts")
        let device = try #require(try await service.devices().first?["id"] as? String)
        app.reception.openChat()
        #expect(await until { (try? await service.devices().first?["inChat"] as? Bool) == true }, "the chat is not live")
        try await teamActs(action, on: device, service)
        #expect(await until { await shownTexts(app).isEmpty }, "the open chat still shows \(app.texts)")
        #expect(app.reception.isChatOpen, "the chat UI stays on screen")
        try await app.send("after the team acted")
        let current = try #require(try await service.devices().first?["id"] as? String)
        #expect((current == device) == (action == "reset"), "reset keeps the device, deletion registers a new one")
        #expect(await until { (try? await service.devices().first?["inChat"] as? Bool) == true }, "no live stream after the send")
        try await service.admin("POST", "devices/\(current)/messages", ["kind": "TEXT", "text": "welcome back"])
        #expect(await until { await shownTexts(app).contains("welcome back") }, "the reply never reached the open chat")
        #expect(await until { app.reception.unreadCount == 0 })
    }

    /// The person sends before anything else told the SDK that the device is gone: that send is the contact that
    /// learns it. Spec 7.5 resets the session exactly like logout (its pending work goes with the chat, nothing of
    /// it reaches the new device); the next send registers a new device.
    @Test func theSendThatLearnsOfTheDeletionResetsAndTheNextSendRegistersANewDevice() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("before the deletion")
        let device = try #require(try await service.devices().first?["id"] as? String)
        try await service.admin("DELETE", "devices/\(device)")
        let chat = try #require(app.reception.chat)
        await chat.engine.setDraft("the send that learns it")
        #expect(await chat.engine.send() != nil)
        #expect(await until { app.sessionSecret() == nil }, "the refused session was kept")
        #expect(await until { await shownTexts(app).isEmpty }, "the chat still shows \(app.texts)")
        try await app.send("the next send")
        let devices = try await service.devices()
        let newDevice = try #require(devices.first?["id"] as? String)
        #expect(devices.count == 1 && newDevice != device)
        #expect(try await service.messages(device: newDevice) == ["the next send"])
    }
}

extension TeamResetTests {
    /// The team acts while the app is not running: the relaunch is the next contact (spec 7.1: a configured, used
    /// session refreshes the count), and a further relaunch still shows nothing of the old chat.
    @Test(arguments: ["reset", "delete"])
    func aRelaunchAfterTheTeamActedLearnsItAndKeepsNothingOfTheOldChat(action: String) async throws {
        let service = try Service()
        let first = App(service)
        await first.launch()
        try await first.send("before the app quit")
        let device = try #require(try await service.devices().first?["id"] as? String)
        // The first process goes quiet (no checks, no stream) before the team acts: only the relaunch can learn it.
        first.reception.appDidEnterBackground()
        try await teamActs(action, on: device, service)
        let second = App(service, directory: first.directory)
        await second.launch()
        #expect(await until { second.transport.log.contains { $0.status == 409 || $0.status == 401 } },
                "the relaunch never contacted the service")
        #expect(await until { await shownTexts(second).isEmpty }, "the relaunched chat shows \(second.texts)")
        let third = App(service, directory: first.directory)
        await third.launch()
        await third.reception.chat?.connect()
        #expect(await shownTexts(third).isEmpty, "a later launch shows \(third.texts)")
        try await third.send("after the relaunch")
        let current = try #require(try await service.devices().first?["id"] as? String)
        #expect((current == device) == (action == "reset"))
        #expect(try await service.messages(device: current) == ["after the relaunch"])
    }
}

extension TeamResetTests {
    /// The person sends with the chat closed before anything else told the SDK of the reset: the send is the contact
    /// that learns it (409 `chat_reset`), no unread GET follows, and the count still goes to 0 (spec 7.12: "set the
    /// unread count to 0"). Its pending work goes with the chat; the next send restarts support on the same device.
    @Test func theSendThatLearnsOfTheResetClearsTheCountAndTheNextSendUsesTheSameDevice() async throws {
        let service = try Service()
        let (install, device) = try await usedChatWithAnUnreadReply(service)
        let app = install.app
        try await service.admin("POST", "devices/\(device)/reset")
        let checks = app.transport.log.filter { $0.path == "/v1/conversation/unread" }.count
        let chat = try #require(app.reception.chat)
        chat.setDraft("the send that learns it")
        await chat.send()
        #expect(await until { app.transport.log.contains { $0.status == 409 } }, "the service never answered chat_reset")
        await expectChatStateReset(install)
        #expect(app.transport.log.filter { $0.path == "/v1/conversation/unread" }.count == checks,
                "an unread check set the count, not the reset")
        try await app.send("the next send")
        #expect(try await service.devices().map { $0["id"] as? String } == [device])
        #expect(try await service.messages(device: device) == ["the next send"])
    }
}
