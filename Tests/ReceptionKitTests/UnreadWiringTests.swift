import Foundation
import ReceptionCore
import ReceptionKit
import ReceptionTesting
import Testing

/// The facade's unread count, badge and push routing over the real emulator (seed 004, seed 002).
@Suite("UnreadWiringTests", .serialized)
@MainActor
struct UnreadWiringTests {
    func reply(_ service: Service, _ text: String) async throws {
        let device = try #require(try await service.devices().first?["id"] as? String)
        try await service.admin("POST", "devices/\(device)/messages", ["text": text])
    }

    @Test func aForwardedPushRaisesTheCountAndReadingClearsItAndTheBadge() async throws {
        let service = try Service()
        let app = App(service)
        let badge = RecordingBadgeSink()
        var configuration = app.configuration
        configuration.badge = badge
        app.reception.configure(appId: service.appID, configuration: configuration)
        try await app.send("hi")
        try await reply(service, "an agent reply")
        let handled = app.reception.handlePushNotification(userInfo: ["aps": ["alert": "New message"], "reception": ["conversationId": "c"]], openChat: false)
        #expect(handled)
        let raised = await until { app.reception.unreadCount == 1 }
        #expect(raised, "a forwarded support push refreshes the count")
        #expect(await until { badge.writes.last == 1 })
        app.reception.openChat()
        let cleared = await until { app.reception.unreadCount == 0 }
        #expect(cleared, "reading the open chat brings the count to zero")
        #expect(await until { badge.writes.last == 0 })
        #expect(!app.reception.handlePushNotification(userInfo: ["aps": ["alert": "x"]], openChat: false))
    }

    /// Found by `make demo`: the first open's read answered 0; after a close the count rose to 2; the read of the
    /// second open answered 0 again, and the facade dropped it as "unchanged", leaving 2 on an open, read chat.
    @Test func reopeningTheChatClearsACountThatRoseWhileItWasClosed() async throws {
        let service = try Service()
        let app = App(service)
        app.launch()
        try await app.send("hi")
        try await reply(service, "first reply")
        app.reception.openChat()
        #expect(await until { (try? await service.devices().first?["readSeq"] as? Int) == 2 }, "the open chat read")
        #expect(await until { app.reception.unreadCount == 0 })
        app.reception.closeChat()
        try await reply(service, "second reply")
        app.reception.handlePushNotification(userInfo: ["reception": ["conversationId": "c"]], openChat: false)
        #expect(await until { app.reception.unreadCount == 1 }, "the count rose while the chat was closed")
        app.reception.openChat()
        #expect(await until { app.reception.unreadCount == 0 }, "reading the reopened chat clears it")
    }

    @Test func withTheBadgeOffTheSinkIsNeverWritten() async throws {
        let service = try Service()
        let app = App(service)
        let badge = RecordingBadgeSink()
        var configuration = app.configuration
        configuration.badge = badge
        app.reception.updatesAppBadge = false
        app.reception.configure(appId: service.appID, configuration: configuration)
        try await app.send("hi")
        try await reply(service, "reply")
        app.reception.handlePushNotification(userInfo: ["reception": ["conversationId": "c"]], openChat: false)
        #expect(await until { app.reception.unreadCount == 1 })
        #expect(badge.writes.isEmpty)
        let device = try #require(try await service.devices().first)
        #expect(device["updatesAppBadge"] as? Bool == false, "the preference reached the service")
    }

    @Test func logoutResetsTheCountToZero() async throws {
        let service = try Service()
        let app = App(service)
        app.launch()
        try await app.send("hi")
        try await reply(service, "reply")
        app.reception.handlePushNotification(userInfo: ["reception": ["conversationId": "c"]], openChat: false)
        #expect(await until { app.reception.unreadCount == 1 })
        app.reception.logout()
        #expect(await until { app.reception.unreadCount == 0 })
    }
}
