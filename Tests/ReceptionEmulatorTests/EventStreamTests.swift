import Foundation
import Testing

/// spec 3.12 / 8.1.8 over a raw socket: pings, `changed`, `typing`/`idle`, `reconnect`, and other requests served
/// while a stream is open.
@Suite("EventStreamTests")
struct EventStreamTests {
    static func open(_ harness: EmulatorHarness, _ device: Device) throws -> RawConnection {
        let connection = try RawConnection(port: harness.port)
        connection.write(
            "GET /v1/conversation/events HTTP/1.1\r\nHost: x\r\nX-App-Id: \(harness.appId)\r\n"
                + "X-Reception-Revision: 0\r\nAuthorization: Bearer \(device.token)\r\nAccept: text/event-stream\r\n\r\n")
        return connection
    }

    @Test func streamCarriesPingsChangesAndTyping() async throws {
        let harness = try EmulatorHarness(pingInterval: 0.1)
        let device = try await harness.register()
        try await harness.send(device, "hi")
        let stream = try Self.open(harness, device)
        #expect(stream.read(until: ": ping\n"))
        #expect(stream.text.hasPrefix("HTTP/1.1 200"))
        #expect(stream.text.lowercased().contains("content-type: text/event-stream"))
        // Other requests are served while the stream holds its connection.
        #expect(try await harness.admin("POST", "devices/\(device.id)/messages", json: ["text": "reply"]).status == 201)
        #expect(stream.read(until: "data: changed\n"))
        _ = try await harness.admin("POST", "devices/\(device.id)/typing", json: ["typing": true])
        #expect(stream.read(until: "data: typing\n"))
        _ = try await harness.admin("POST", "devices/\(device.id)/typing", json: ["typing": false])
        #expect(stream.read(until: "data: idle\n"))
        stream.reset()
        #expect(stream.read(until: ": ping\n"))
    }

    @Test func streamSaysReconnectWhenItsTokenExpires() async throws {
        // The emulator's clock stands still here, so however long a loaded machine takes to register and open, the
        // stream opens with the token's whole life left and ends one real second later.
        let harness = try EmulatorHarness(pingInterval: 0.1, accessTokenLifetime: 1)
        let device = try await harness.register()
        try await harness.send(device, "hi")
        let stream = try Self.open(harness, device)
        #expect(stream.read(until: ": ping\n"), "the stream did not open while the token was valid")
        #expect(stream.read(until: "data: reconnect\n"))
    }

    @Test func resetSupportEndsTheStreamWithReconnect() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        try await harness.send(device, "hi")
        let stream = try Self.open(harness, device)
        #expect(stream.read(until: ": ping\n"))
        _ = try await harness.admin("POST", "devices/\(device.id)/reset")
        #expect(stream.read(until: "data: reconnect\n"))
    }
}
