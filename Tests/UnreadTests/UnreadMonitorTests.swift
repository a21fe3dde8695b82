import Foundation
@testable import ReceptionCore
import ReceptionTesting
import Testing
@testable import Unread

@Suite("UnreadMonitorTests")
@MainActor
struct UnreadMonitorTests {
    static let transient = ReceptionError(code: "server_error", status: 503)

    @Test("the count starts at zero and configuration never touches the badge")
    func startsAtZero() async {
        let rig = Rig()
        await rig.monitor.startSession(rig.session)
        await rig.settle()
        #expect(rig.count.value == 0)
        #expect(rig.badge.writes.isEmpty)
        #expect(await rig.service.unreadCalls == 0)
    }

    @Test("becoming active updates the device, then fetches unread, sets the count and the badge")
    func foreground() async {
        let rig = Rig(answer: Rig.open(unread: 3, lastMessage: ManualClock().now))
        await rig.activate()
        #expect(await rig.service.log == ["update", "unread"])
        #expect(rig.count.value == 3)
        #expect(rig.badge.writes == [3])
        #expect(rig.saved.value.last?.status == .open)
    }

    @Test("an unused session makes no request on any trigger",
          arguments: [(false, true), (true, false)])
    func unusedSession(started: Bool, registered: Bool) async {
        let rig = Rig(started: started)
        await rig.service.set(registered: registered)
        await rig.activate()
        for trigger in UnreadTrigger.allCases { await rig.monitor.refresh(trigger) }
        await rig.monitor.chatVisibilityChanged(visible: true)
        await rig.monitor.chatVisibilityChanged(visible: false)
        await rig.settle()
        await rig.advance(seconds: 3600)
        #expect(await rig.service.log.isEmpty)
        #expect(rig.count.value == 0)
        #expect(rig.badge.writes.isEmpty)
    }

    @Test("polling follows the stages: first check 15 s after a fresh reply, not before")
    func pollsOnSchedule() async {
        let rig = Rig()
        await rig.activate()
        #expect(await rig.service.unreadCalls == 1)
        await rig.advance(seconds: 14)
        #expect(await rig.service.unreadCalls == 1)
        await rig.service.set(answer: Rig.open(unread: 2, lastMessage: ManualClock().now))
        await rig.advance(seconds: 1)
        #expect(await rig.service.unreadCalls == 2)
        #expect(rig.count.value == 2)
    }

    @Test("the interval grows with the age of the last activity (stage 2: every 60 s)")
    func secondStage() async {
        let rig = Rig(answer: Rig.open(unread: 0, lastMessage: ManualClock().now.addingTimeInterval(-120)))
        await rig.activate()
        await rig.advance(seconds: 59)
        #expect(await rig.service.unreadCalls == 1)
        await rig.advance(seconds: 1)
        #expect(await rig.service.unreadCalls == 2)
    }

    @Test("the service's empty stage list disables polling")
    func emptyStages() async {
        let rig = Rig(answer: Rig.open(unread: 0, lastMessage: ManualClock().now, stages: []))
        await rig.activate()
        await rig.advance(seconds: 86_400)
        #expect(await rig.service.unreadCalls == 1)
        #expect(await rig.monitor.lastDecision == .stagesExhausted)
    }

    @Test("the service's stages are used when sent")
    func serverStages() async {
        let stages = [UnreadPollingStage(forMinutes: 60, everySeconds: 5)]
        let rig = Rig(answer: Rig.open(unread: 0, lastMessage: ManualClock().now, stages: stages))
        await rig.activate()
        await rig.advance(seconds: 5)
        await rig.advance(seconds: 5)
        #expect(await rig.service.unreadCalls == 3)
    }

    @Test("polling pauses while push is active and resumes when permission is revoked")
    func pushPause() async {
        let rig = Rig(answer: Rig.open(unread: 0, lastMessage: ManualClock().now, push: true))
        rig.permission.current = .authorized
        await rig.activate()
        await rig.advance(seconds: 600)
        #expect(await rig.service.unreadCalls == 1)
        #expect(await rig.monitor.lastDecision == .pushActive)
        rig.permission.current = .denied
        await rig.monitor.notificationPermissionChanged()
        // The reply is now ten minutes old: the third stage, every 600 s.
        await rig.advance(seconds: 599)
        #expect(await rig.service.unreadCalls == 1)
        await rig.advance(seconds: 1)
        #expect(await rig.service.unreadCalls == 2)
    }

    @Test("service push without permission keeps polling", arguments: [NotificationAuthorization.denied, .notDetermined])
    func pushWithoutPermission(permission: NotificationAuthorization) async {
        let rig = Rig(answer: Rig.open(unread: 0, lastMessage: ManualClock().now, push: true))
        rig.permission.current = permission
        await rig.activate()
        await rig.advance(seconds: 15)
        #expect(await rig.service.unreadCalls == 2)
    }

    @Test("no periodic checks for a resolved conversation, but foreground still refreshes")
    func resolved() async {
        let rig = Rig(answer: Rig.open(unread: 1, lastMessage: ManualClock().now, status: .resolved))
        await rig.activate()
        await rig.advance(seconds: 3600)
        #expect(await rig.service.unreadCalls == 1)
        await rig.monitor.appEnteredBackground()
        await rig.monitor.appBecameActive()
        await rig.settle()
        #expect(await rig.service.unreadCalls == 2)
    }

    @Test("no periodic checks in the background")
    func background() async {
        let rig = Rig()
        await rig.activate()
        await rig.monitor.appEnteredBackground()
        await rig.advance(seconds: 3600)
        #expect(await rig.service.unreadCalls == 1)
        #expect(await rig.monitor.isPollArmed == false)
    }

    @Test("no periodic checks while the chat is visible; closing it refreshes")
    func chatVisible() async {
        let rig = Rig()
        await rig.activate()
        await rig.monitor.chatVisibilityChanged(visible: true)
        await rig.advance(seconds: 3600)
        #expect(await rig.service.unreadCalls == 1)
        await rig.monitor.chatVisibilityChanged(visible: false)
        await rig.settle()
        #expect(await rig.service.unreadCalls == 2)
    }

    @Test("an unread answer is not applied while the chat is visible")
    func notAppliedWhileVisible() async {
        let rig = Rig(answer: Rig.open(unread: 1, lastMessage: ManualClock().now))
        await rig.activate()
        await rig.monitor.chatVisibilityChanged(visible: true)
        await rig.service.set(answer: Rig.open(unread: 9, lastMessage: ManualClock().now))
        await rig.monitor.refresh(.pushForwarded)
        await rig.settle()
        #expect(await rig.service.unreadCalls == 2)
        #expect(rig.count.value == 1)
    }

    @Test("an unread answer that started before a read never overwrites the read's count")
    func readGeneration() async {
        let rig = Rig(answer: Rig.open(unread: 4, lastMessage: ManualClock().now))
        await rig.monitor.startSession(rig.session)
        await rig.service.holdNextUnread()
        await rig.monitor.appBecameActive()
        while !(await rig.service.isHolding) { await Task.yield() }
        // The chat opens, reads, and closes while the unread GET is in flight.
        let ticket = await rig.monitor.readStarted()
        await rig.monitor.readFinished(ticket, unreadCount: 0)
        #expect(rig.count.value == 0)
        await rig.service.release()
        await rig.monitor.waitUntilIdle()
        #expect(rig.count.value == 0)
    }

    @Test("a send while the unread GET is in flight also discards its count")
    func sendGeneration() async {
        let rig = Rig(answer: Rig.open(unread: 4, lastMessage: ManualClock().now))
        await rig.monitor.startSession(rig.session)
        await rig.service.holdNextUnread()
        await rig.monitor.appBecameActive()
        while !(await rig.service.isHolding) { await Task.yield() }
        await rig.monitor.messageSent()
        await rig.service.release()
        await rig.monitor.waitUntilIdle()
        #expect(rig.count.value == 0)
        #expect(rig.badge.writes.isEmpty)
    }

    @Test("a read response applies only when no other read happened meanwhile")
    func overlappingReads() async {
        let rig = Rig()
        await rig.monitor.startSession(rig.session)
        let first = await rig.monitor.readStarted()
        let second = await rig.monitor.readStarted()
        await rig.monitor.readFinished(second, unreadCount: 2)
        await rig.monitor.readFinished(first, unreadCount: 5)
        await rig.monitor.waitUntilIdle()
        #expect(rig.count.value == 2)
        #expect(rig.badge.writes == [2])
    }

    @Test("a transient failure keeps the last count and retries with backoff")
    func transientRetry() async {
        let rig = Rig(answer: Rig.open(unread: 2, lastMessage: ManualClock().now))
        await rig.activate()
        #expect(rig.count.value == 2)
        await rig.service.enqueue(.failure(Self.transient))
        await rig.service.set(answer: Rig.open(unread: 5, lastMessage: ManualClock().now))
        await rig.monitor.refresh(.pushForwarded)
        await rig.settle()
        #expect(rig.count.value == 2)
        // Spec 6.2: attempt 1 waits 2 s (jitter 1 with the fixed random source).
        await rig.advance(seconds: 1.9)
        #expect(await rig.service.unreadCalls == 3 - 1)
        await rig.advance(seconds: 0.1)
        #expect(await rig.service.unreadCalls == 3)
        #expect(rig.count.value == 5)
    }

    @Test("a permanent failure does not retry and keeps the count")
    func permanentFailure() async {
        let rig = Rig(answer: Rig.open(unread: 2, lastMessage: ManualClock().now))
        await rig.activate()
        await rig.service.enqueue(.failure(ReceptionError(code: "invalid_request", status: 400)))
        await rig.monitor.refresh(.pushForwarded)
        await rig.settle()
        await rig.advance(seconds: 3600)
        #expect(await rig.service.unreadCalls == 2)
        #expect(rig.count.value == 2)
        #expect(await rig.monitor.isPollArmed == false)
    }

    @Test("after the 8th transient failure retries pause until the app becomes active")
    func budgetStops() async {
        let rig = Rig()
        await rig.monitor.startSession(rig.session)
        for _ in 0..<8 { await rig.service.enqueue(.failure(Self.transient)) }
        await rig.monitor.appBecameActive()
        await rig.settle()
        // One retry per step (the longest backoff is 75 s), so a loaded machine cannot skip a wake-up.
        for _ in 0..<12 { await rig.advance(seconds: 80) }
        await rig.advance(seconds: 3600)
        #expect(await rig.service.unreadCalls == 8)
        await rig.monitor.appEnteredBackground()
        await rig.monitor.appBecameActive()
        await rig.settle()
        #expect(await rig.service.unreadCalls == 9)
        #expect(rig.count.value == 1)
    }

    @Test("an app-unavailable halt sends nothing on its own")
    func haltAppUnavailable() async {
        let rig = Rig()
        await rig.service.set(halt: .appUnavailable)
        await rig.activate()
        await rig.monitor.refresh(.pushForwarded)
        await rig.settle()
        #expect(await rig.service.log.isEmpty)
    }

    @Test("a blocked session sends one probe on foreground, without a device update, and no polling")
    func haltBlocked() async {
        let rig = Rig()
        await rig.service.set(halt: .blocked)
        // The probe is answered 403 blocked again: the halt stays.
        await rig.service.enqueue(.failure(ReceptionError(code: ReceptionError.Code.blocked, status: 403)))
        await rig.activate()
        await rig.monitor.refresh(.chatClosed)
        await rig.monitor.refresh(.pushForwarded)
        await rig.settle()
        await rig.advance(seconds: 3600)
        #expect(await rig.service.log == ["unread(probe)"])
        #expect(await rig.monitor.isPollArmed == false)
    }

    @Test("a successful probe of a blocked session restarts the schedule")
    func probeEndsHalt() async {
        let rig = Rig()
        await rig.service.set(halt: .blocked)
        await rig.activate()
        #expect(await rig.monitor.isPollArmed)
        await rig.advance(seconds: 15)
        #expect(await rig.service.log == ["unread(probe)", "unread"])
    }

    @Test("configure while active refreshes like the foreground")
    func configuredTrigger() async {
        let rig = Rig(answer: Rig.open(unread: 2, lastMessage: ManualClock().now))
        await rig.monitor.startSession(rig.session)
        await rig.monitor.refresh(.configured)
        await rig.monitor.waitUntilIdle()
        #expect(await rig.service.log == ["update", "unread"])
        #expect(rig.count.value == 2)
    }

    @Test("a cooldown waits for its end and costs no attempt")
    func cooldown() async {
        let rig = Rig(answer: Rig.open(unread: 2, lastMessage: ManualClock().now))
        await rig.monitor.startSession(rig.session)
        for _ in 0..<8 { await rig.service.enqueue(.failure(.cooldown(retryAfter: 30, scope: .requests))) }
        await rig.service.enqueue(.failure(Self.transient))
        await rig.monitor.appBecameActive()
        await rig.settle()
        for _ in 0..<8 { await rig.advance(seconds: 30) }
        #expect(await rig.service.unreadCalls == 9)
        // Eight cooldowns counted nothing: the transient failure is attempt 1, retried after 2 s.
        await rig.advance(seconds: 2)
        #expect(await rig.service.unreadCalls == 10)
        #expect(rig.count.value == 2)
    }

    @Test("badge writes are serialised and only the newest pending value is applied")
    func serialisedBadge() async {
        let gate = Gate()
        let rig = Rig(badge: RecordingBadgeSink(delay: { await gate.pass() }))
        await rig.monitor.startSession(rig.session)
        for value in [1, 2, 3] {
            let ticket = await rig.monitor.readStarted()
            await rig.monitor.readFinished(ticket, unreadCount: value)
            while await gate.waiting == 0 { await Task.yield() }
        }
        await gate.openAll()
        await rig.monitor.waitUntilIdle()
        #expect(rig.badge.writes == [1, 3])
        #expect(rig.badge.overlapped == false)
        #expect(rig.count.value == 3)
    }

    @Test("a negative count from the service becomes zero")
    func neverNegative() async {
        let rig = Rig(answer: Rig.open(unread: -3, lastMessage: ManualClock().now))
        await rig.activate()
        #expect(rig.count.value == 0)
        #expect(rig.badge.writes == [0])
    }

    @Test("the badge is written on every synchronisation, also when the number did not change")
    func badgeEverySync() async {
        let rig = Rig(answer: Rig.open(unread: 1, lastMessage: ManualClock().now))
        await rig.activate()
        await rig.advance(seconds: 15)
        #expect(rig.badge.writes == [1, 1])
    }

    @Test("at zero only notifications with a top-level reception key are removed")
    func cleanupAtZero() async {
        let rig = Rig(answer: Rig.open(unread: 0, lastMessage: ManualClock().now))
        rig.notifications.deliver(identifier: "support-1", userInfo: ["reception": ["conversationId": "c1"]])
        rig.notifications.deliver(identifier: "shop", userInfo: ["order": "42"])
        rig.notifications.deliver(identifier: "nested", userInfo: ["data": ["reception": "x"]])
        await rig.activate()
        #expect(rig.notifications.remainingIdentifiers == ["shop", "nested"])
    }

    @Test("a count above zero removes nothing")
    func noCleanupAboveZero() async {
        let rig = Rig(answer: Rig.open(unread: 1, lastMessage: ManualClock().now))
        rig.notifications.deliver(identifier: "support-1", hasReceptionKey: true)
        await rig.activate()
        #expect(rig.notifications.removals.isEmpty)
    }

    @Test("ending the session resets the count to zero with badge sync and cleanup; late answers are dropped")
    func endSession() async {
        let rig = Rig(answer: Rig.open(unread: 2, lastMessage: ManualClock().now))
        rig.notifications.deliver(identifier: "support-1", hasReceptionKey: true)
        await rig.activate()
        await rig.service.holdNextUnread()
        await rig.monitor.refresh(.pushForwarded)
        while !(await rig.service.isHolding) { await Task.yield() }
        await rig.monitor.endSession()
        await rig.service.release()
        await rig.settle()
        #expect(rig.count.value == 0)
        #expect(rig.badge.writes == [2, 0])
        #expect(rig.notifications.remainingIdentifiers.isEmpty)
        await rig.advance(seconds: 3600)
        #expect(await rig.service.unreadCalls == 2)
    }

    @Test("a changed updatesAppBadge is synchronised with retries, and never for an unused session")
    func preferenceSync() async {
        let rig = Rig()
        await rig.activate()
        rig.synchronisedBadge.value = true
        await rig.service.failUpdates(Self.transient)
        await rig.monitor.setUpdatesAppBadge(false)
        await rig.settle()
        #expect(await rig.service.updates == 2)
        await rig.advance(seconds: 2)
        await rig.monitor.waitForPreferenceSync()
        #expect(await rig.service.updates == 3)

        let unused = Rig(started: false)
        await unused.activate()
        await unused.monitor.setUpdatesAppBadge(false)
        await unused.monitor.waitForPreferenceSync()
        #expect(await unused.service.updates == 0)
    }
}

/// Holds callers until the test opens it.
actor Gate {
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var open = false
    var waiting: Int { waiters.count }

    func pass() async {
        if open { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func openAll() {
        open = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }
}
