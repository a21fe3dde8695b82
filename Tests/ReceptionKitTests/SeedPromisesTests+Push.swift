import Foundation
import ReceptionKit
import Testing

/// Seed 002 ("Forward the device token", "Verify on a real device" steps 3 and 6) and seed 000 ("Test your
/// integration" step 4) through the facade: a forwarded token reaches the service in `PATCH devices/me`, never in
/// the registration, and an agent reply then writes a push to the emulator's outbox (what it sends to Apple
/// instead). After a logout the old device's replies stop pushing; the next user's replies push once the token is
/// forwarded again.
@Suite("SeedPromisesTests+Push", .serialized)
@MainActor
struct SeedPromisesPushTests {
    /// The APNs token as the host's delegate receives it, and as the service stores it (lower-case hex, spec 7.16).
    static let token = Data([0xC0, 0xFF, 0xEE, 0x02, 0x9A])
    static let hex = "c0ffee029a"

    static func pushes(_ service: Service) async throws -> [[String: Any]] {
        try await service.admin("GET", "push-outbox")["pushes"] as? [[String: Any]] ?? []
    }

    static func requests(_ service: Service, _ method: String, _ path: String) async throws -> [[String: Any]] {
        let log = try await service.admin("GET", "requests")["requests"] as? [[String: Any]] ?? []
        return log.filter { $0["method"] as? String == method && $0["path"] as? String == path }
    }

    static func bodyKeys(_ entry: [String: Any]) -> [String] {
        (entry["body"] as? [String: Any])?["keys"] as? [String] ?? []
    }

    static func device(_ service: Service, _ id: String) async throws -> [String: Any]? {
        try await service.devices().first { $0["id"] as? String == id }
    }

    static func configurePush(_ service: Service) async throws {
        try await service.admin("PATCH", "app", ["push": ["configured": true, "appName": "Seeds"]])
    }

    @Test(arguments: [true, false])
    func aForwardedTokenReachesTheDeviceUpdateAndAnAgentReplyPushes(beforeRegistration: Bool) async throws {
        let service = try Service()
        try await Self.configurePush(service)
        let app = App(service)
        await app.launch()
        if beforeRegistration { app.reception.setPushToken(Self.token, environment: .sandbox) }
        try await app.send("hello, push me")
        let id = try #require(try await service.devices().first?["id"] as? String)
        if !beforeRegistration {
            #expect(try await Self.device(service, id)?["pushToken"] as? String == nil)
            app.reception.setPushToken(Self.token, environment: .sandbox)
        }
        let stored = await until { (try? await Self.device(service, id)?["pushToken"] as? String) == Self.hex }
        #expect(stored, "the token never reached the device")
        #expect(try await Self.device(service, id)?["pushEnvironment"] as? String == "SANDBOX")
        let updates = try await Self.requests(service, "PATCH", "/v1/devices/me")
        #expect(updates.contains { Self.bodyKeys($0).contains("pushToken") }, "no device update carried the token")
        let registrations = try await Self.requests(service, "POST", "/v1/devices")
        #expect(registrations.count == 1)
        #expect(registrations.allSatisfy { !Self.bodyKeys($0).contains("pushToken") }, "spec 7.16: never in a registration")

        try await service.admin("POST", "devices/\(id)/messages", ["text": "Your reply is ready."])
        let pushes = try await Self.pushes(service)
        try #require(pushes.count == 1, "the reply wrote \(pushes.count) pushes")
        #expect(pushes[0]["deviceId"] as? String == id)
        #expect(pushes[0]["pushToken"] as? String == Self.hex)
        #expect(pushes[0]["pushEnvironment"] as? String == "SANDBOX")
        // The payload the service wrote is one the SDK recognises (seed 002 "Handle notifications").
        let payload = try #require(pushes[0]["payload"] as? [String: Any])
        #expect(app.reception.handlePushNotification(userInfo: payload, openChat: false))
    }

    /// The `aps` of the newest push in the outbox.
    static func lastAps(_ service: Service) async throws -> [String: Any]? {
        (try await pushes(service).last?["payload"] as? [String: Any])?["aps"] as? [String: Any]
    }

    /// Seed 004 "Badge": "Offline, the last successfully saved preference remains in effect": while the device
    /// update carrying `updatesAppBadge = false` fails, replies still push the badge (the saved true); once an update
    /// succeeds (the next foreground), they omit it and keep their alert and sound (issue 52).
    @Test func whileThePreferenceUpdateFailsOfflineTheLastSavedValueApplies() async throws {
        let service = try Service()
        try await Self.configurePush(service)
        let app = App(service)
        await app.launch()
        app.reception.setPushToken(Self.token, environment: .sandbox)
        try await app.send("badge me")
        let id = try #require(try await service.devices().first?["id"] as? String)
        #expect(await until { (try? await Self.device(service, id)?["pushToken"] as? String) == Self.hex })
        #expect(try await Self.device(service, id)?["updatesAppBadge"] as? Bool == true)
        app.transport.isOffline = true
        app.reception.updatesAppBadge = false
        let tried = await until {
            app.transport.refused.contains { $0.method == "PATCH" && $0.url.path.hasSuffix("/devices/me") }
        }
        #expect(tried, "the preference update was tried and failed offline")
        #expect(try await Self.device(service, id)?["updatesAppBadge"] as? Bool == true)
        try await service.admin("POST", "devices/\(id)/messages", ["text": "while the update fails"])
        var aps = try #require(try await Self.lastAps(service))
        #expect(aps["badge"] as? Int == 1, "the last saved preference (true) applies: \(aps)")
        app.transport.isOffline = false
        app.reception.appDidEnterBackground()
        app.reception.appDidBecomeActive()
        #expect(await until { (try? await Self.device(service, id)?["updatesAppBadge"] as? Bool) == false })
        try await service.admin("POST", "devices/\(id)/messages", ["text": "after the update"])
        aps = try #require(try await Self.lastAps(service))
        #expect(aps["badge"] == nil && aps["sound"] as? String == "default")
        #expect((aps["alert"] as? [String: String])?["body"] == "after the update")
    }

    @Test func afterALogoutAsRepliesStopPushingAndBsPushOnceTheTokenIsForwardedAgain() async throws {
        let service = try Service()
        try await Self.configurePush(service)
        let app = App(service)
        await app.launch()
        app.reception.identify(userId: "user-a")
        app.reception.setPushToken(Self.token, environment: .sandbox)
        try await app.send("from A")
        let a = try #require(try await service.devices().first?["id"] as? String)
        #expect(await until { (try? await Self.device(service, a)?["pushToken"] as? String) == Self.hex })
        try await service.admin("POST", "devices/\(a)/messages", ["text": "reply to A before logout"])
        #expect(try await Self.pushes(service).count == 1, "a reply to A arrives before logout")

        let secretOfA = try #require(app.sessionSecret())
        app.reception.logout()
        #expect(await until { (try? await service.refreshStatus(secret: secretOfA)) == 401 }, "the remote sign-out never completed")
        // The outbox is written while the reply is posted, so reading it after the answer is final.
        try await service.admin("POST", "devices/\(a)/messages", ["text": "reply to A after logout"])
        #expect(try await Self.pushes(service).count == 1, "a reply to A still pushed after the sign-out")

        // B on the same phone: the logout cleared the staged token, so B's replies push only after it is forwarded.
        app.reception.identify(userId: "user-b")
        try await app.send("from B")
        let b = try #require(try await service.devices().first { $0["externalUserId"] as? String == "user-b" }?["id"] as? String)
        #expect(b != a)
        #expect(try await Self.device(service, b)?["pushToken"] as? String == nil)
        try await service.admin("POST", "devices/\(b)/messages", ["text": "reply to B before the token"])
        #expect(try await Self.pushes(service).count == 1)
        app.reception.setPushToken(Self.token, environment: .sandbox)
        #expect(await until { (try? await Self.device(service, b)?["pushToken"] as? String) == Self.hex })
        try await service.admin("POST", "devices/\(b)/messages", ["text": "reply to B"])
        let pushes = try await Self.pushes(service)
        #expect(pushes.count == 2)
        #expect(pushes.last?["deviceId"] as? String == b)
        #expect(pushes.map { $0["deviceId"] as? String } == [a, b], "only A's reply before logout and B's reply push")
    }
}
