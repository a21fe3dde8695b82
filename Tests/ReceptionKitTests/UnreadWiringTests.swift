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
        await app.reception.waitUntilReady()
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
        await app.launch()
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
        await app.reception.waitUntilReady()
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
        await app.launch()
        try await app.send("hi")
        try await reply(service, "reply")
        app.reception.handlePushNotification(userInfo: ["reception": ["conversationId": "c"]], openChat: false)
        #expect(await until { app.reception.unreadCount == 1 })
        app.reception.logout()
        #expect(await until { app.reception.unreadCount == 0 })
    }
}

extension UnreadWiringTests {
    // Seed 004 "When the count refreshes": unread requests fetch the count without loading messages or advancing
    // delivered/read receipts, and do not touch "Last active in chat". Seed 001 check 4: reopening the chat clears the
    // count and the dashboard shows the reply as read; "In chat" follows the live connection.
    @Test func unreadChecksLeaveTheDashboardAloneAndReadingMarksTheReplyRead() async throws {
        // The dashboard's times have whole seconds: the emulator runs on a clock the test moves, so a chat request
        // after the move is seen at another time than the one before it.
        let clock = ManualClock(now: Date())
        let service = try Service(clock: clock)
        let app = App(service)
        await app.launch()
        try await app.send("hello")
        let id = try #require(try await service.devices().first?["id"] as? String)
        func device() async throws -> [String: Any] { try await service.admin("GET", "devices/\(id)") }
        func reply() async throws -> [String: Any]? {
            let messages = try await service.admin("GET", "devices/\(id)/messages")["messages"] as? [[String: Any]]
            return messages?.first { $0["text"] as? String == "the reply" }
        }
        let activeBefore = try await device()["lastActiveInChatAt"] as? String
        await clock.advance(by: .seconds(5))
        try await service.admin("POST", "devices/\(id)/messages", ["kind": "TEXT", "text": "the reply"])
        app.reception.handlePushNotification(userInfo: ["reception": ["conversationId": "c"]], openChat: false)
        #expect(await until { app.reception.unreadCount == 1 })
        #expect(try await device()["lastActiveInChatAt"] as? String == activeBefore, "an unread check is no chat activity")
        #expect(try await reply()?["deliveredAt"] is NSNull, "an unread check delivers nothing")
        #expect(try await reply()?["readAt"] is NSNull)
        #expect(try await device()["inChat"] as? Bool == false)

        app.reception.openChat()
        #expect(await until { app.reception.unreadCount == 0 })
        #expect(await until { (try? await reply()?["readAt"] as? String) != nil }, "the dashboard shows the reply as read")
        #expect(try await reply()?["deliveredAt"] as? String != nil)
        #expect(await until { (try? await device()["inChat"] as? Bool) == true }, "a visible chat is In chat")
        #expect(try await device()["lastActiveInChatAt"] as? String != activeBefore)
        app.reception.closeChat()
        #expect(await until { (try? await device()["inChat"] as? Bool) == false }, "closing the chat leaves In chat")
    }
}
