import Foundation
import PushRouting
@testable import ReceptionCore
import ReceptionTesting
import Testing
import Transport
@testable import Unread

/// End to end against the in-process emulator over loopback.
@Suite("UnreadEmulatorTests", .serialized)
@MainActor
struct UnreadEmulatorTests {
    @Test("an agent reply raises the count with the chat closed, through polling")
    func replyThroughPolling() async throws {
        let rig = try EmulatorRig()
        try await rig.sendFirstMessage()
        await rig.monitor.startSession(rig.session)
        await rig.monitor.appBecameActive()
        await rig.settle()
        #expect(rig.count.value == 0)
        try await rig.agentReply("We are looking into it.")
        await rig.advance(seconds: 15)
        #expect(rig.count.value == 1)
        #expect(rig.badge.badge == 1)
    }

    @Test("an agent reply raises the count through a forwarded push from the outbox; reading brings it to zero")
    func replyThroughPushThenRead() async throws {
        let rig = try EmulatorRig()
        rig.permission.current = .authorized
        try await rig.sendFirstMessage()
        await rig.monitor.startSession(rig.session)
        let router = try #require(rig.router)
        router.setPushToken(Data([0xA1, 0xB2, 0xC3]))
        await rig.settle()
        try await rig.agentReply("Your reply is ready.")
        let payload = try #require(try await rig.pushes().last)
        #expect((payload["aps"] as? [String: Any])?["badge"] as? Int == 1)

        rig.notifications.deliver(identifier: "support-1", hasReceptionKey: payload["reception"] != nil)
        rig.notifications.deliver(identifier: "orders-1", userInfo: ["order": "42"])
        var userInfo: [AnyHashable: Any] = [:]
        for (key, value) in payload { userInfo[AnyHashable(key)] = value }
        #expect(router.handlePushNotification(userInfo: userInfo, openChat: false))
        await rig.settle()
        #expect(rig.count.value == 1)
        #expect(rig.badge.badge == 1)
        // The service reports push for this device and permission is granted: no periodic checks.
        #expect(await rig.monitor.lastDecision == .pushActive)

        // The chat opens and the visible chat reads what it loaded.
        await rig.monitor.chatVisibilityChanged(visible: true)
        let history = try await rig.client.history(limits: false)
        let conversation = try #require(history.conversation)
        let last = try #require(history.messages.last)
        let ticket = await rig.monitor.readStarted()
        let read = try await rig.client.markRead(conversationId: conversation.id, throughSeq: last.seq)
        await rig.monitor.readFinished(ticket, unreadCount: read.unreadCount)
        await rig.settle()
        #expect(rig.count.value == 0)
        #expect(rig.badge.badge == 0)
        #expect(rig.notifications.remainingIdentifiers == ["orders-1"])
    }

    @Test("with updatesAppBadge = false the next push has no aps.badge and the badge is never written")
    func badgeManagementOff() async throws {
        // Seed 004: the host sets the preference during app initialisation, before anything else.
        let rig = try EmulatorRig(updatesAppBadge: false)
        rig.stage.stage(StagedPushToken(token: "a1b2", environment: .sandbox))
        try await rig.sendFirstMessage()
        await rig.monitor.startSession(rig.session)
        await rig.monitor.appBecameActive()
        await rig.settle()
        #expect(rig.synchronisedBadge.value == false)
        rig.notifications.deliver(identifier: "support-1", hasReceptionKey: true)

        try await rig.agentReply("Hi")
        let payload = try #require(try await rig.pushes().last)
        let aps = try #require(payload["aps"] as? [String: Any])
        #expect(aps["badge"] == nil)
        #expect(aps["alert"] != nil)
        await rig.monitor.refresh(.pushForwarded)
        await rig.settle()
        #expect(rig.count.value == 1)

        try await Self.readEverything(rig)
        #expect(rig.count.value == 0)
        #expect(rig.badge.writes.isEmpty)
        #expect(rig.notifications.remainingIdentifiers == ["support-1"])
    }

    @Test("turning updatesAppBadge off later reaches the service; the next push omits aps.badge")
    func badgeManagementTurnedOff() async throws {
        let rig = try EmulatorRig()
        // No periodic checks (the service's empty stage list), so the only sleeper is the preference retry.
        try await rig.adminRequest("PATCH", "app", json: ["unreadPolling": [Any]()])
        rig.stage.stage(StagedPushToken(token: "a1b2", environment: .sandbox))
        try await rig.sendFirstMessage()
        await rig.monitor.startSession(rig.session)
        await rig.monitor.appBecameActive()
        await rig.settle()
        #expect(await rig.monitor.lastDecision == .stagesExhausted)
        try await rig.agentReply("First")
        #expect((try await rig.pushes().last?["aps"] as? [String: Any])?["badge"] as? Int == 1)
        // A lost device update first: the preference loop retries after the backoff (spec 7.6, 6.2).
        try await rig.adminRequest(
            "POST", "faults", json: ["path": "/v1/devices/me", "method": "PATCH", "kind": "status", "status": 503])
        let writesBefore = rig.badge.writes
        rig.updatesAppBadge.value = false
        await rig.monitor.setUpdatesAppBadge(false)
        // The failing PATCH travels over real loopback; wait (without sleeping) until the retry sleeps.
        for _ in 0..<200 where rig.clock.sleeperCount == 0 { await rig.clock.waitForSleepers(atLeast: 1) }
        try #require(rig.clock.sleeperCount == 1)
        #expect(rig.synchronisedBadge.value == true)
        await rig.clock.advance(by: .seconds(2))
        await rig.monitor.waitForPreferenceSync()
        #expect(rig.synchronisedBadge.value == false)

        try await rig.agentReply("Second")
        let aps = try #require(try await rig.pushes().last?["aps"] as? [String: Any])
        #expect(aps["badge"] == nil)
        await rig.monitor.refresh(.pushForwarded)
        await rig.settle()
        #expect(rig.count.value == 2)
        // Changing the flag neither clears nor recalculates the badge, and later counts are not written.
        #expect(rig.badge.writes == writesBefore)
    }

    /// The visible chat loads the history and reads through its last message, as the chat engine does.
    static func readEverything(_ rig: EmulatorRig) async throws {
        await rig.monitor.chatVisibilityChanged(visible: true)
        let history = try await rig.client.history(limits: false)
        let ticket = await rig.monitor.readStarted()
        let read = try await rig.client.markRead(
            conversationId: try #require(history.conversation?.id), throughSeq: try #require(history.messages.last?.seq))
        await rig.monitor.readFinished(ticket, unreadCount: read.unreadCount)
        await rig.settle()
    }

    @Test("an old notification after logout cannot restore the previous session")
    func oldNotificationAfterLogout() async throws {
        let rig = try EmulatorRig()
        try await rig.sendFirstMessage()
        await rig.monitor.startSession(rig.session)
        let router = try #require(rig.router)
        router.setPushToken(Data([0x01]))
        await rig.settle()
        try await rig.agentReply("Before logout")
        let payload = try #require(try await rig.pushes().last)
        await rig.monitor.refresh(.pushForwarded)
        await rig.settle()
        #expect(rig.count.value == 1)

        // Logout: the monitor ends the session, the router forgets the token, a fresh unused session starts.
        await rig.monitor.endSession()
        router.logout()
        rig.started.value = false
        await rig.client.invalidate()
        let fresh = UnreadSession(
            service: rig.client, hasStartedChat: { false })
        await rig.monitor.startSession(fresh)
        await rig.settle()
        #expect(rig.count.value == 0)
        #expect(rig.stage.current == nil)

        var userInfo: [AnyHashable: Any] = [:]
        for (key, value) in payload { userInfo[AnyHashable(key)] = value }
        #expect(router.handlePushNotification(userInfo: userInfo, openChat: true))
        await rig.settle()
        #expect(rig.count.value == 0)
        #expect(rig.badge.badge == 0)
    }
}
