import Foundation
@testable import ReceptionCore
@testable import ReceptionKit
import ReceptionTesting
import Testing

/// Issue 17: the lifecycle and network signals a configuration carries. On Apple platforms the defaults are
/// `NotificationLifecycleMonitor` over UIKit's or AppKit's notifications and `SystemNetworkPathMonitor` over
/// `NWPathMonitor` (Docs/Apple.md); those adapters cannot be built here, so what they feed is tested through the
/// same protocols: the notification mapping with this platform's `NotificationCenter`, and the facade following a
/// monitor it was given.
@Suite("PlatformMonitorTests", .serialized)
@MainActor
struct PlatformMonitorTests {
    static let becameActive = Notification.Name("PlatformMonitorTests.becameActive")
    static let enteredBackground = Notification.Name("PlatformMonitorTests.enteredBackground")
    static let willEnterForeground = Notification.Name("PlatformMonitorTests.willEnterForeground")

    /// The mapping the UIKit adapter hands to the monitor (its three names one by one), or the same mapping as the
    /// public list of transitions, over the test's own names and centre.
    static func monitor(_ center: NotificationCenter, initial: AppLifecycleState = .active, named: Bool = true)
        -> NotificationLifecycleMonitor
    {
        guard named else {
            return NotificationLifecycleMonitor(
                center: center,
                transitions: [
                    (becameActive, .active), (enteredBackground, .background), (willEnterForeground, .inactive),
                ],
                initial: initial)
        }
        return NotificationLifecycleMonitor(
            center: center, active: becameActive, background: enteredBackground, inactive: willEnterForeground,
            initial: initial)
    }

    @Test func withoutUIKitOrAppKitTheDefaultsStayAsTheyWere() {
        let configuration = ReceptionConfiguration()
        #if canImport(UIKit) || canImport(AppKit)
        #expect(configuration.lifecycle is NotificationLifecycleMonitor)
        #else
        #expect(configuration.lifecycle == nil, "Linux: the host reports its lifecycle itself")
        #endif
        #if canImport(Network)
        #expect(configuration.network is SystemNetworkPathMonitor)
        #else
        #expect(configuration.network == nil, "Linux: the host reports its network itself")
        #endif
    }

    @Test(arguments: [true, false])
    func notificationsMoveTheStateInTheOrderPostedAndRepeatsWakeNobody(named: Bool) async {
        let center = NotificationCenter()
        let lifecycle = Self.monitor(center, named: named)
        var updates = lifecycle.lifecycleUpdates().makeAsyncIterator()
        center.post(name: Self.enteredBackground, object: nil)
        center.post(name: Self.enteredBackground, object: nil)
        center.post(name: Self.willEnterForeground, object: nil)
        center.post(name: Notification.Name("PlatformMonitorTests.unrelated"), object: nil)
        center.post(name: Self.becameActive, object: nil)
        #expect(await updates.next() == .active, "the current state first")
        #expect(await updates.next() == .background)
        #expect(await updates.next() == .inactive, "the repeated background was dropped")
        #expect(await updates.next() == .active)
        #expect(lifecycle.current == .active)
        // A later subscriber starts from the state now.
        center.post(name: Self.enteredBackground, object: nil)
        var late = lifecycle.lifecycleUpdates().makeAsyncIterator()
        #expect(await late.next() == .background)
    }

    @Test func releasingTheMonitorStopsObservingAndEndsItsStreams() async {
        let center = NotificationCenter()
        var lifecycle: NotificationLifecycleMonitor? = Self.monitor(center, initial: .inactive)
        var updates = lifecycle?.lifecycleUpdates().makeAsyncIterator()
        #expect(await updates?.next() == .inactive)
        lifecycle = nil
        center.post(name: Self.becameActive, object: nil)
        #expect(await updates?.next() == nil, "no state after release, and the stream ended")
    }

    @Test func theFacadeFollowsANotificationMonitorItWasGiven() async throws {
        let service = try Service()
        let clock = ManualClock()
        let center = NotificationCenter()
        let app = App(service)
        var configuration = app.configuration
        configuration.clock = clock
        configuration.lifecycle = Self.monitor(center)
        configuration.preferredLocalizations = ["en"]
        app.reception.configure(appId: service.appID, configuration: configuration)
        await app.reception.waitUntilReady()
        let refresher = try #require(app.reception.appearanceRefresher)
        #expect(await until { await refresher.isRunning }, "active: the appearance refresh loop runs")
        center.post(name: Self.enteredBackground, object: nil)
        #expect(await until { await !refresher.isRunning }, "background (a notification): the loop stops")
        center.post(name: Self.willEnterForeground, object: nil)
        center.post(name: Self.becameActive, object: nil)
        #expect(await until { await refresher.isRunning }, "active again: the loop runs")
    }

    @Test func theChatFollowsANetworkMonitorItWasGiven() async throws {
        let service = try Service()
        let path = ManualNetworkPath()
        let app = App(service)
        var configuration = app.configuration
        configuration.network = path
        app.reception.configure(appId: service.appID, configuration: configuration)
        await app.reception.waitUntilReady()
        try await app.send("Hello")
        let chat = try #require(app.reception.chat)
        path.set(available: false)
        #expect(await until { await chat.refresh(); return chat.banner == .offline }, "no path: No connection")
        path.set(available: true)
        #expect(await until { await chat.refresh(); return chat.banner != .offline }, "the path is back")
    }
}
