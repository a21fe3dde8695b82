import Foundation
import ReceptionCore
import ReceptionKit
import ReceptionTesting
import Testing

/// Seed 000 "Identity fields": `identify(userId:name:email:)` takes an optional user ID; `nil` omits a field, so it
/// stays unset on registration and unchanged on an existing device, and all three `nil` neither clear the service's
/// identity nor start a new session. Against the real emulator over loopback.
@Suite("IdentifyTests", .serialized)
@MainActor
struct IdentifyTests {
    /// The device updates (`PATCH devices/me`) the service answered, in order.
    static func deviceUpdates(_ app: App) -> [SwitchableTransport.Exchange] {
        app.transport.log.filter { $0.request.method == "PATCH" && $0.path == "/v1/devices/me" && $0.status == 200 }
    }

    static func jsonObject(_ body: Data?) -> [String: Any]? {
        body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    /// Opens the chat with `metadata` staged and waits until the device update that follows reached the service,
    /// so whatever `identify` staged before has travelled too. Returns that update's request body.
    static func sendADeviceUpdate(_ app: App, metadata: [String: String]) async throws -> [String: Any] {
        let earlier = deviceUpdates(app).count
        app.reception.setMetadata(metadata)
        app.reception.closeChat()
        app.reception.openChat()
        let arrived = await until {
            let stored = try? await app.service.devices().first?["metadata"] as? [String: String]
            return stored == metadata && deviceUpdates(app).count > earlier
        }
        try #require(arrived, "no device update reached the service")
        return try #require(jsonObject(deviceUpdates(app).last?.request.body))
    }

    @Test func allThreeNilChangeNothingOnTheService() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        app.reception.identify(userId: "user-a", name: "Ada", email: "ada@example.com")
        try await app.send("before the nil identify")
        let deviceID = try #require(try await service.devices().first?["id"] as? String)
        let secret = try #require(app.sessionSecret())

        // What a host passes after its sign-in, whose user ID is optional.
        let signedInUserId: String? = nil
        app.reception.identify(userId: signedInUserId, name: nil, email: nil)
        let body = try await Self.sendADeviceUpdate(app, metadata: ["step": "after-nil"])
        for field in ["externalUserId", "name", "email"] {
            #expect(body.keys.contains(field) == false, "\(field) is omitted from the update, not sent as null")
        }

        let devices = try await service.devices()
        #expect(devices.count == 1, "no new device record")
        let device = try #require(devices.first)
        #expect(device["id"] as? String == deviceID)
        #expect(device["externalUserId"] as? String == "user-a")
        #expect(device["name"] as? String == "Ada")
        #expect(device["email"] as? String == "ada@example.com")
        #expect(app.sessionSecret() == secret, "the same session")
        #expect(try await service.messages(device: deviceID) == ["before the nil identify"])
        #expect(app.texts.contains("before the nil identify"), "the chat was not reset")
        #expect(try await service.refreshStatus(secret: secret) == 200, "the service still knows the session")
    }

    @Test func aNonNilIdentifyStillLabelsTheDeviceAndNilKeepsAField() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        app.reception.identify(userId: "user-a", name: "Ada", email: "ada@example.com")
        try await app.send("labelled")
        var device = try #require(try await service.devices().first)
        #expect(device["externalUserId"] as? String == "user-a")
        #expect(device["name"] as? String == "Ada" && device["email"] as? String == "ada@example.com")

        let signedInUserId: String? = "user-a"
        app.reception.identify(userId: signedInUserId, name: "Ada Lovelace", email: nil)
        #expect(app.reception.identityState == .labelled(userId: "user-a"))
        let body = try await Self.sendADeviceUpdate(app, metadata: ["step": "renamed"])
        #expect(body["externalUserId"] as? String == "user-a")
        #expect(body["name"] as? String == "Ada Lovelace")
        #expect(body.keys.contains("email") == false)

        let devices = try await service.devices()
        #expect(devices.count == 1)
        device = try #require(devices.first)
        #expect(device["externalUserId"] as? String == "user-a")
        #expect(device["name"] as? String == "Ada Lovelace")
        #expect(device["email"] as? String == "ada@example.com", "a nil email leaves the service's value")
    }

    @Test func allThreeNilBeforeTheFirstSendRegisterAnUnlabelledDevice() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        app.reception.identify(userId: "user-a", name: "Ada", email: "ada@example.com")
        app.reception.identify(userId: nil, name: nil, email: nil)
        #expect(app.reception.identityState == .anonymous)
        try await app.send("unlabelled")
        let registration = try #require(
            app.transport.log.first { $0.request.method == "POST" && $0.path == "/v1/devices" && $0.status < 300 })
        let body = try #require(Self.jsonObject(registration.request.body))
        for field in ["externalUserId", "name", "email"] {
            #expect(body.keys.contains(field) == false, "\(field) stays unset on registration")
        }
        let device = try #require(try await service.devices().first)
        for field in ["externalUserId", "name", "email"] {
            #expect(device[field] as? String == nil, "the service holds no \(field)")
        }
    }
}
