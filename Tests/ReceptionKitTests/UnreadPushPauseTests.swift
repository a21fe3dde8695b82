import Foundation
import ReceptionCore
import ReceptionKit
import ReceptionTesting
import Testing

/// Seed 004 "Periodic checks while chat is closed" and its check 5 against the emulator: "Checks pause when push is
/// configured for the device and notification permission is available. If permission is revoked, foreground checks
/// can resume … Returning to the foreground still refreshes an activated support session." / "Background and
/// foreground the app with chat closed. Confirm a refresh occurs even when periodic checks are paused."
///
/// The SDK and the emulator share a manual clock, so the polling stages (spec 7.11: 15 s, 60 s, 600 s) pass only
/// when the test moves it; the foreground and the permission are explicit signals.
@Suite("UnreadPushPauseTests", .serialized)
@MainActor
struct UnreadPushPauseTests {
    static let unreadPath = "/v1/conversation/unread"

    /// The unread GETs answered so far.
    func unreadChecks(_ app: App) -> Int { app.transport.log.filter { $0.path == Self.unreadPath }.count }

    func foreground(_ app: App) {
        app.reception.appDidEnterBackground()
        app.reception.appDidBecomeActive()
    }

    /// Moves the shared clock through `total` in steps of `step`, letting what wakes run at every step.
    func advance(_ clock: ManualClock, by total: Duration, step: Duration) async {
        var passed = Duration.zero
        while passed < total {
            await clock.advance(by: step)
            passed += step
        }
    }

    @Test func withPushAndPermissionChecksPauseButAForegroundStillRefreshesTheCount() async throws {
        let clock = ManualClock(now: Date())
        let service = try Service(clock: clock)
        let app = App(service)
        let permission = SettableNotificationPermission(.authorized)
        var configuration = app.configuration
        configuration.clock = clock
        configuration.notificationPermission = permission
        app.reception.configure(appId: service.appID, configuration: configuration)
        await app.reception.waitUntilReady()
        app.reception.setPushToken(Data([0xAB, 0xCD, 0xEF, 0x01]), environment: .sandbox)
        try await app.send("hello")
        let device = try #require(try await service.devices().first?["id"] as? String)
        #expect(await until { (try? await service.admin("GET", "devices/\(device)")["pushToken"] as? String) == "abcdef01" },
                "the staged token never reached the service")
        func reply(_ text: String) async throws {
            try await service.admin("POST", "devices/\(device)/messages", ["kind": "TEXT", "text": text])
        }

        // A foreground refresh learns that push is active (the service's `push: true`, permission granted).
        try await reply("first reply")
        foreground(app)
        #expect(await until { app.reception.unreadCount == 1 }, "the foreground did not refresh the count")
        #expect(await until { app.transport.onTheWire.isEmpty })
        let pushes = try await service.admin("GET", "push-outbox")["pushes"] as? [Any]
        #expect(pushes?.count == 1, "the reply went out as a push, so checks may pause")

        // Twenty minutes pass with a new reply waiting: every stage of spec 7.11 would have polled by now.
        try await reply("second reply")
        let checksBefore = unreadChecks(app)
        await advance(clock, by: .seconds(20 * 60), step: .seconds(15))
        #expect(await until { app.transport.onTheWire.isEmpty })
        // The foreground is the explicit signal: its device update, then its unread GET, come after anything a
        // periodic check would have sent while the clock moved.
        let logBefore = app.transport.log.count
        foreground(app)
        let refreshed = await until {
            app.reception.unreadCount == 2 && app.transport.log.dropFirst(logBefore).contains { $0.path == Self.unreadPath }
        }
        #expect(refreshed, "the foreground did not refresh the count while paused")
        let checksDuringAdvance = app.transport.log.prefix(logBefore).filter { $0.path == Self.unreadPath }.count - checksBefore
        #expect(checksDuringAdvance == 0, "periodic checks ran while push was active: \(checksDuringAdvance)")
        // (The published appearance is fetched on foreground too, spec 7.20; it has nothing to do with unread.)
        let afterForeground = app.transport.log.dropFirst(logBefore).map { "\($0.request.method) \($0.path)" }
            .filter { $0 != "GET /v1/appearance" }
        #expect(afterForeground.first == "PATCH /v1/devices/me", "the foreground's device update: \(afterForeground)")
        #expect(afterForeground.filter { $0 == "GET \(Self.unreadPath)" }.count == 1, "\(afterForeground)")

        // Revoking permission lets checks resume (seed 004): after the next refresh a poll is armed again.
        permission.current = .denied
        try await reply("third reply")
        foreground(app)
        #expect(await until { app.reception.unreadCount == 3 })
        #expect(await until { app.transport.onTheWire.isEmpty })
        try await reply("fourth reply")
        let checksAfterRevoke = unreadChecks(app)
        await advance(clock, by: .seconds(601), step: .seconds(601))
        #expect(await until { unreadChecks(app) > checksAfterRevoke }, "no periodic check after permission was revoked")
        #expect(await until { app.reception.unreadCount == 4 }, "the periodic check did not refresh the count")
    }
}
