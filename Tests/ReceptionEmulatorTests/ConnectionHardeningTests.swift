import Foundation
import ReceptionEmulator
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 15: hostile or careless clients cannot stop the emulator answering others. Idle and slow connections hold a
/// socket but no thread; requests without credentials or over their limit are answered from their head before any
/// body byte is read; a delayed answer and an idle event stream park their connection; one device cannot hold more
/// than a few streams; stopping wakes everything that waits.
@Suite("ConnectionHardeningTests")
struct ConnectionHardeningTests {
    /// The status line and JSON error code of the first answer on `connection`, once its head and body arrived.
    static func answer(_ connection: RawConnection) -> (status: Int, code: String?)? {
        guard connection.read(until: "\r\n\r\n") else { return nil }
        _ = connection.read(until: "}")
        let text = connection.text
        guard let line = text.split(separator: "\r\n").first else { return nil }
        let parts = line.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        let code = text.range(of: #""code":""#).map { range in
            String(text[range.upperBound...].prefix { $0 != "\"" })
        }
        return (status, code)
    }

    /// Polls `condition` until it holds (true) or about `seconds` passed (false): a wait for something that must
    /// happen, never a check that something did not.
    static func eventually(seconds: Double = 20, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return try await condition()
    }

    @Test func twelveHundredIdleAndSlowClientsDoNotStopANormalRequest() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        var held: [RawConnection] = []
        for index in 0..<1_200 {
            let connection = try RawConnection(port: harness.port)
            // Half send nothing; half start a request and never finish its head (slowloris).
            if index.isMultiple(of: 2) { connection.write("GET /v1/conversation/unread HTTP/1.1\r\nHost: x\r\nX-App") }
            held.append(connection)
        }
        let reply = try await harness.api("GET", "conversation/unread", token: device.token)
        #expect(reply.status == 200)
        #expect(try await harness.send(device, "still answering").status == 201)
        // The held connections are still open and usable: one of the slow ones finishes its request now.
        held[0].write("-Id: \(harness.appId)\r\nAuthorization: Bearer \(device.token)\r\n\r\n")
        #expect(Self.answer(held[0])?.status == 200)
        withExtendedLifetime(held) {}
    }

    @Test func anAdminRequestWithoutTheTokenIs401BeforeItsBodyIsSent() throws {
        let harness = try EmulatorHarness()
        let connection = try RawConnection(port: harness.port)
        // Announces 100 MB and sends none of it: the answer must come from the head alone.
        connection.write(
            "POST /admin/faults HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n")
        let answer = try #require(Self.answer(connection), "no answer before the body was sent")
        #expect(answer.status == 401)
        #expect(answer.code == "admin_unauthorized")
    }

    @Test func aDeviceRequestWithoutAValidTokenIs401BeforeItsBodyIsSent() async throws {
        let harness = try EmulatorHarness()
        for authorization in ["", "Authorization: Bearer at_not_a_token\r\n"] {
            let connection = try RawConnection(port: harness.port)
            connection.write(
                "POST /v1/conversation/messages HTTP/1.1\r\nHost: x\r\nX-App-Id: \(harness.appId)\r\n\(authorization)"
                    + "Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n")
            let answer = try #require(Self.answer(connection), "no answer before the body was sent")
            #expect(answer.status == 401)
            #expect(answer.code == "unauthorized")
        }
        let wrongApp = try RawConnection(port: harness.port)
        wrongApp.write("POST /v1/devices HTTP/1.1\r\nHost: x\r\nX-App-Id: app_nope\r\nContent-Length: 60000\r\n\r\n")
        let answer = try #require(Self.answer(wrongApp), "no answer before the body was sent")
        #expect(answer.status == 401)
        #expect(answer.code == "invalid_app_id")
    }

    @Test func aDeclaredLengthOverTheLimitIs413BeforeTheBodyIsSent() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        let heads = [
            "POST /v1/conversation/messages HTTP/1.1\r\nHost: x\r\nX-App-Id: \(harness.appId)\r\n"
                + "Authorization: Bearer \(device.token)\r\nContent-Length: 65537\r\n\r\n",
            "POST /admin/faults HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(harness.adminToken)\r\n"
                + "Content-Length: \(8 * 1_048_576 + 1)\r\n\r\n",
            "POST /v1/devices HTTP/1.1\r\nHost: x\r\nX-App-Id: \(harness.appId)\r\nContent-Length: 18446744073709551615\r\n\r\n",
        ]
        for head in heads {
            let connection = try RawConnection(port: harness.port)
            connection.write(head)
            let answer = try #require(Self.answer(connection), "no answer before the body was sent: \(head)")
            #expect(answer.status == 413, "\(head)")
            #expect(answer.code == "payload_too_large", "\(head)")
        }
        #expect(try await harness.send(device, "after").status == 201)
    }

    @Test func aStoragePutWithAForgedSignatureIs403BeforeItsBodyIsSent() throws {
        let harness = try EmulatorHarness()
        let connection = try RawConnection(port: harness.port)
        connection.write(
            "PUT /storage/att_x?expires=4102444800&sig=\(String(repeating: "0", count: 64)) HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: image/jpeg\r\nContent-Length: 1048576\r\n\r\n")
        let answer = try #require(Self.answer(connection), "no answer before the body was sent")
        #expect(answer.status == 403)
        #expect(answer.code == "invalid_signature")
    }

    @Test func theAdminLimitAppliesOnceTheAdminTokenIsAccepted() async throws {
        let harness = try EmulatorHarness()
        // 100,000 bytes: over the 64 KiB of the device API, well under the admin API's 8 MiB.
        let padded = #"{"path":"/v1/nothing","kind":"drop""# + String(repeating: " ", count: 100_000) + "}"
        let reply = try await harness.raw(
            "POST", "/admin/faults",
            headers: ["Authorization": "Bearer \(harness.adminToken)", "Content-Type": "application/json"],
            body: Data(padded.utf8))
        #expect(reply.status == 201)
    }

    @Test func aChunkedBodyOverTheLimitIs413AndNothingOfItIsKept() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        let connection = try RawConnection(port: harness.port)
        connection.write(
            "POST /v1/conversation/messages HTTP/1.1\r\nHost: x\r\nX-App-Id: \(harness.appId)\r\n"
                + "Authorization: Bearer \(device.token)\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n")
        // A valid message padded to 70,000 bytes in chunks: over the limit, so it must not be stored.
        let body = #"{"clientId":"CHUNKED","text":"too long","attachmentIds":[]}"# + String(repeating: " ", count: 69_942)
        for start in stride(from: 0, to: body.utf8.count, by: 10_000) {
            let part = String(decoding: Array(body.utf8)[start..<min(start + 10_000, body.utf8.count)], as: UTF8.self)
            connection.write(String(part.utf8.count, radix: 16) + "\r\n" + part + "\r\n")
        }
        connection.write("0\r\n\r\n")
        let answer = try #require(Self.answer(connection), "no answer to a chunked body over the limit")
        #expect(answer.status == 413)
        #expect(answer.code == "payload_too_large")
        let messages = try await harness.api("GET", "conversation", token: device.token).json["messages"] as? [[String: Any]]
        #expect(messages?.contains { $0["clientId"] as? String == "CHUNKED" } == false)
        #expect(try await harness.send(device, "after").status == 201)
    }

    @Test func aChunkedBodyThatNeverEndsLosesItsConnection() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        let connection = try RawConnection(port: harness.port)
        connection.write(
            "POST /v1/conversation/messages HTTP/1.1\r\nHost: x\r\nX-App-Id: \(harness.appId)\r\n"
                + "Authorization: Bearer \(device.token)\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = "100000\r\n" + String(repeating: "a", count: 0x100000) + "\r\n"
        // 64 KiB + 16 MiB may be drained; by 40 MiB the server must have given the connection up.
        var sent = 0
        while sent < 40, connection.write(chunk) { sent += 1 }
        #expect(sent < 40, "the server drained 40 MiB of a body over its limit")
        #expect(try await harness.send(device, "after").status == 201)
    }

    @Test func delayedAnswersHoldNoThreadAndStoppingAnswersThem() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        // Twice as many delayed requests as the server has worker threads, each delayed for a minute.
        let delayed = HTTPServerLimits.standard.workerThreads * 2
        _ = try await harness.admin(
            "POST", "faults",
            json: ["method": "GET", "path": "/v1/conversation/unread", "kind": "delay", "delayMs": 60_000, "count": delayed])
        var waiting: [RawConnection] = []
        for _ in 0..<delayed {
            let connection = try RawConnection(port: harness.port, readTimeoutSeconds: 20)
            connection.write(
                "GET /v1/conversation/unread HTTP/1.1\r\nHost: x\r\nX-App-Id: \(harness.appId)\r\n"
                    + "Authorization: Bearer \(device.token)\r\n\r\n")
            waiting.append(connection)
        }
        // Every delay fault has been taken once the fault list is empty: all those requests are waiting now.
        #expect(
            try await Self.eventually {
                (try await harness.admin("GET", "faults").json["faults"] as? [Any])?.isEmpty == true
            })
        #expect(try await harness.api("GET", "conversation", token: device.token).status == 200)
        #expect(try await harness.send(device, "served while others wait").status == 201)
        harness.emulator.stop()
        for connection in waiting {
            let status = Self.answer(connection)?.status
            #expect(status == 503 || (status == nil && connection.readUntilClosed()))
        }
    }

    @Test func aDelayedAnswerArrivesAfterItsDelay() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        _ = try await harness.admin(
            "POST", "faults",
            json: ["method": "POST", "path": "/v1/conversation/messages", "kind": "delay", "delayMs": 200])
        #expect(try await harness.send(device, "late but delivered").status == 201)
        let conversation = try await harness.api("GET", "conversation", token: device.token)
        let messages = conversation.json["messages"] as? [[String: Any]] ?? []
        #expect(messages.contains { $0["text"] as? String == "late but delivered" })
    }

    @Test func aFifthStreamOfOneDeviceEndsTheOldest() async throws {
        let harness = try EmulatorHarness(pingInterval: 5)
        let device = try await harness.register()
        try await harness.send(device, "hi")
        var streams: [RawConnection] = []
        for _ in 0..<EventHub.streamsPerDevice {
            let stream = try EventStreamTests.open(harness, device)
            #expect(stream.read(until: ": ping\n"))
            streams.append(stream)
        }
        let newest = try EventStreamTests.open(harness, device)
        #expect(newest.read(until: ": ping\n"))
        #expect(streams[0].read(until: "data: reconnect\n"), "the oldest stream was not ended")
        _ = try await harness.admin("POST", "devices/\(device.id)/messages", json: ["text": "reply"])
        #expect(newest.read(until: "data: changed\n"))
        for stream in streams.dropFirst() { #expect(stream.read(until: "data: changed\n")) }
    }

    @Test func manyIdleStreamsAllGetTheirPingsAndOthersAreServed() async throws {
        let harness = try EmulatorHarness(pingInterval: 0.2)
        var streams: [RawConnection] = []
        // Ten times as many streams as worker threads: each waits parked, not on a thread.
        for _ in 0..<10 {
            let device = try await harness.register()
            try await harness.send(device, "hi")
            for _ in 0..<4 {
                let stream = try EventStreamTests.open(harness, device)
                streams.append(stream)
            }
        }
        for stream in streams {
            #expect(stream.read(until: ": ping\n"))
            stream.reset()
        }
        let device = try await harness.register()
        #expect(try await harness.send(device, "served").status == 201)
        for stream in streams { #expect(stream.read(until: ": ping\n"), "a parked stream missed its ping") }
    }

    @Test func aStreamWhoseClientLeftIsReapedAtItsNextPing() async throws {
        let harness = try EmulatorHarness(pingInterval: 0.2)
        let device = try await harness.register()
        try await harness.send(device, "hi")
        let stream = try EventStreamTests.open(harness, device)
        #expect(stream.read(until: ": ping\n"))
        #expect(harness.emulator.openEventStreams == 1)
        stream.disconnect()
        #expect(await Self.eventually { harness.emulator.openEventStreams == 0 })
    }

    @Test func stoppingWithOpenStreamsEndsThemWithReconnect() async throws {
        let harness = try EmulatorHarness(pingInterval: 30)
        let device = try await harness.register()
        try await harness.send(device, "hi")
        let streams = try (0..<3).map { _ in try EventStreamTests.open(harness, device) }
        for stream in streams { #expect(stream.read(until: ": ping\n")) }
        harness.emulator.stop()
        for stream in streams { #expect(stream.read(until: "data: reconnect\n")) }
    }

    @Test(arguments: ["0.0.0.0", "192.168.1.20", "10.0.0.1"])
    func aHostOtherThanLoopbackIsWarnedAbout(host: String) throws {
        let warning = try #require(EmulatorCommand.exposureWarning(host: host))
        #expect(warning.contains(host))
        #expect(warning.contains("clear text"))
    }

    @Test func loopbackIsNotWarnedAbout() {
        #expect(EmulatorCommand.exposureWarning(host: "127.0.0.1") == nil)
    }
}
