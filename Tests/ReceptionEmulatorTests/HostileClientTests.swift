import Foundation
import ReceptionEmulator
import Testing

/// A hostile client cannot take the emulator away from others: one device holds at most four event streams (more
/// end the oldest), a fault on every path spares the admin API that clears it, and a refused admin body changes
/// nothing.
@Suite("HostileClientTests")
struct HostileClientTests {
    /// Opens an event stream and reads until its status line has come; returns the connection with what it read.
    static func openStream(_ harness: EmulatorHarness, _ device: Device) throws -> RawConnection {
        let connection = try EventStreamTests.open(harness, device)
        _ = connection.read(until: "\r\n\r\n")
        return connection
    }

    @Test func sixteenStreamsOfOneDeviceLeaveFourOpenAndOthersStillConnect() async throws {
        let harness = try EmulatorHarness(pingInterval: 0.1)
        let device = try await harness.register()
        try await harness.send(device, "hi")
        var streams: [RawConnection] = []
        for index in 0..<16 {
            let stream = try Self.openStream(harness, device)
            #expect(stream.text.hasPrefix("HTTP/1.1 200"), "stream \(index + 1)")
            streams.append(stream)
        }
        // Every stream but the newest four was ended with `data: reconnect`.
        for stream in streams.prefix(16 - EventHub.streamsPerDevice) { #expect(stream.read(until: "data: reconnect\n")) }
        #expect(harness.emulator.openEventStreams <= EventHub.streamsPerDevice)
        // Another device and ordinary requests are served meanwhile.
        let other = try await harness.register()
        try await harness.send(other, "me too")
        let otherStream = try Self.openStream(harness, other)
        #expect(otherStream.text.hasPrefix("HTTP/1.1 200"))
        #expect(try await harness.api("GET", "conversation", token: device.token).status == 200)
        _ = try await harness.admin("POST", "devices/\(device.id)/messages", json: ["text": "reply"])
        for stream in streams.suffix(EventHub.streamsPerDevice) { #expect(stream.read(until: "data: changed\n")) }
    }

    @Test func aFaultOnEveryPathLeavesTheAdminAPIUntouched() async throws {
        let harness = try EmulatorHarness()
        let added = try await harness.admin(
            "POST", "faults", json: ["path": "*", "kind": "status", "status": 503, "count": 9_007_199_254_740_991])
        #expect(added.status == 201)
        #expect(try await harness.api("GET", "appearance").status == 503)
        #expect(try await harness.admin("GET", "app").status == 200)
        #expect(try await harness.admin("DELETE", "faults").status == 200)
        #expect(try await harness.api("GET", "appearance").status == 200)
    }

    @Test func aRefusedIdentitySecretBodyKeepsTheSecret() async throws {
        let harness = try EmulatorHarness()
        let secret = harness.identitySecret
        let reply = try await harness.admin("POST", "identity-secret", json: ["markUnverified": "yes"])
        #expect(reply.status == 400)
        #expect(reply.errorCode == "invalid_request")
        #expect(harness.identitySecret == secret)
    }
}
