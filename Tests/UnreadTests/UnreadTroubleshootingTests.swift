import Foundation
import Observation
import ReceptionCore
import ReceptionTesting
import Testing
@testable import Unread

/// One test per reproducible row of seed 004's troubleshooting table, named after the row's symptom.
@Suite("UnreadTroubleshootingTests")
@MainActor
struct UnreadTroubleshootingTests {
    @Test("Count stays zero after a fresh install: opening an unused chat does not activate support")
    func countStaysZeroAfterAFreshInstall() async {
        let rig = Rig(started: false)
        await rig.service.set(registered: false)
        await rig.activate()
        await rig.monitor.chatVisibilityChanged(visible: true)
        await rig.monitor.chatVisibilityChanged(visible: false)
        await rig.monitor.refresh(.pushForwarded)
        await rig.settle()
        #expect(await rig.service.log.isEmpty)
        #expect(rig.count.value == 0)
        // The first valid message activates support: the next trigger fetches the count.
        rig.started.value = true
        await rig.service.set(registered: true)
        await rig.monitor.appBecameActive()
        await rig.settle()
        #expect(rig.count.value == 1)
    }

    @Test("The row never updates: a view reading unreadCount is told when it changes")
    func theRowNeverUpdates() async {
        let rig = Rig(answer: Rig.open(unread: 3, lastMessage: ManualClock().now))
        let changed = Box(false)
        withObservationTracking {
            _ = rig.count.value
        } onChange: {
            changed.value = true
        }
        await rig.activate()
        #expect(changed.value)
        #expect(rig.count.value == 3)
    }

    @Test("A reply is not reflected immediately: background, resolved status and paused checks explain it")
    func aReplyIsNotReflectedImmediately() async {
        let rig = Rig(answer: Rig.open(unread: 0, lastMessage: ManualClock().now))
        await rig.activate()
        await rig.service.set(answer: Rig.open(unread: 1, lastMessage: ManualClock().now))
        // In the background nothing is checked.
        await rig.monitor.appEnteredBackground()
        await rig.advance(seconds: 600)
        #expect(rig.count.value == 0)
        // Returning to the foreground refreshes.
        await rig.monitor.appBecameActive()
        await rig.settle()
        #expect(rig.count.value == 1)
        // A forwarded push refreshes even when periodic checks pause for push.
        await rig.service.set(answer: Rig.open(unread: 2, lastMessage: ManualClock().now, push: true))
        rig.permission.current = .authorized
        await rig.monitor.refresh(.pushForwarded)
        await rig.settle()
        #expect(rig.count.value == 2)
        await rig.service.set(answer: Rig.open(unread: 3, lastMessage: ManualClock().now, push: true))
        await rig.advance(seconds: 3600)
        #expect(rig.count.value == 2)
        await rig.monitor.refresh(.pushForwarded)
        await rig.settle()
        #expect(rig.count.value == 3)
    }

    @Test("Count does not clear on opening: a successful server read is required")
    func countDoesNotClearOnOpening() async {
        let rig = Rig(answer: Rig.open(unread: 2, lastMessage: ManualClock().now))
        await rig.activate()
        await rig.monitor.chatVisibilityChanged(visible: true)
        await rig.settle()
        #expect(rig.count.value == 2)
        let failed = await rig.monitor.readStarted()
        await rig.monitor.readFinished(failed, unreadCount: nil)
        #expect(rig.count.value == 2)
        let read = await rig.monitor.readStarted()
        await rig.monitor.readFinished(read, unreadCount: 0)
        await rig.monitor.waitUntilIdle()
        #expect(rig.count.value == 0)
    }

    @Test("In-app badge works but the app icon does not: updatesAppBadge is off")
    func inAppBadgeWorksButTheAppIconDoesNot() async {
        let rig = Rig(answer: Rig.open(unread: 4, lastMessage: ManualClock().now), updatesAppBadge: false)
        await rig.activate()
        #expect(rig.count.value == 4)
        #expect(rig.badge.writes.isEmpty)
    }

    @Test("Notifications remain at zero: badge management is off, or the payload lacks the reception marker")
    func notificationsRemainAtZero() async {
        let off = Rig(answer: Rig.open(unread: 0, lastMessage: ManualClock().now), updatesAppBadge: false)
        off.notifications.deliver(identifier: "support-1", hasReceptionKey: true)
        await off.activate()
        #expect(off.notifications.remainingIdentifiers == ["support-1"])

        let on = Rig(answer: Rig.open(unread: 0, lastMessage: ManualClock().now))
        on.notifications.deliver(identifier: "support-1", hasReceptionKey: true)
        on.notifications.deliver(identifier: "unmarked", hasReceptionKey: false)
        await on.activate()
        #expect(on.notifications.remainingIdentifiers == ["unmarked"])
    }

    @Test("Another feature's badge count disappears: the SDK writes its support count directly")
    func anotherFeaturesBadgeCountDisappears() async {
        let rig = Rig(answer: Rig.open(unread: 2, lastMessage: ManualClock().now))
        await rig.badge.setBadge(5)  // the host's own feature
        await rig.activate()
        #expect(rig.badge.badge == 2)

        let hostOwned = Rig(answer: Rig.open(unread: 2, lastMessage: ManualClock().now), updatesAppBadge: false)
        await hostOwned.badge.setBadge(5)
        await hostOwned.activate()
        #expect(hostOwned.badge.badge == 5)
    }
}
