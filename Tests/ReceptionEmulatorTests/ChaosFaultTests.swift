import Foundation
import Testing

/// Chaos faults (issue 19): a probability, jitter beside the delay, matching by device, removing one fault. The
/// random draws come from the configured seed, printed when an expectation fails.
@Suite("ChaosFaultTests")
struct ChaosFaultTests {
    static func randomSeed() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }

    /// Sends `count` unread requests and returns their statuses in order.
    static func statuses(_ harness: EmulatorHarness, _ device: Device, count: Int) async throws -> [Int] {
        var statuses: [Int] = []
        for _ in 0..<count { statuses.append(try await harness.api("GET", "conversation/unread", token: device.token).status) }
        return statuses
    }

    @Test func aHalfProbabilityFaultFailsAboutHalfOf200RequestsAndTheSeedRepeatsThem() async throws {
        let seed = Self.randomSeed()
        var runs: [[Int]] = []
        for _ in 0..<2 {
            let harness = try EmulatorHarness(chaosSeed: seed)
            let device = try await harness.register()
            let added = try await harness.admin(
                "POST", "faults",
                json: ["path": "/v1/conversation/unread", "kind": "status", "status": 503, "probability": 0.5])
            #expect(added.status == 201)
            // Without a count, a fault with a probability stays until removed.
            #expect((added.json["fault"] as? [String: Any])?["count"] is NSNull)
            runs.append(try await Self.statuses(harness, device, count: 200))
            let failed = try await RequestLogTests.entries(harness, "?status=503&limit=5000")
            #expect(failed.count == runs.last?.filter { $0 == 503 }.count, "seed \(seed)")
            #expect(failed.allSatisfy { $0["fault"] as? String == "status" && $0["errorCode"] as? String == "injected_fault" })
            #expect(try await harness.admin("GET", "faults").json["faults"] as? [Any] != nil)
        }
        let failures = runs[0].filter { $0 == 503 }.count
        // Binomial(200, 0.5) has a standard deviation of about 7: 60…140 is more than five of them either side.
        #expect((60...140).contains(failures), "seed \(seed): \(failures) of 200 failed")
        #expect(Set(runs[0]).isSubset(of: [200, 503]), "seed \(seed)")
        #expect(runs[0] == runs[1], "seed \(seed): the same seed drew different failures")
    }

    @Test func probabilityZeroNeverFiresAndACountBoundsTheFirings() async throws {
        let seed = Self.randomSeed()
        let harness = try EmulatorHarness(chaosSeed: seed)
        let device = try await harness.register()
        _ = try await harness.admin(
            "POST", "faults", json: ["path": "/v1/conversation/unread", "kind": "status", "probability": 0])
        _ = try await harness.admin(
            "POST", "faults",
            json: ["path": "/v1/conversation/*", "kind": "status", "status": 500, "probability": 0.9, "count": 3])
        let statuses = try await Self.statuses(harness, device, count: 40)
        #expect(statuses.filter { $0 == 500 }.count == 3, "seed \(seed): \(statuses)")
        #expect(!statuses.contains(503), "seed \(seed)")
        let left = try #require(try await harness.admin("GET", "faults").json["faults"] as? [[String: Any]])
        #expect(left.count == 1)
        #expect(left.first?["probability"] as? Double == 0)
    }

    @Test func delayWithJitterWaitsBetweenTheDelayAndTheDelayPlusTheJitter() async throws {
        let seed = Self.randomSeed()
        let harness = try EmulatorHarness(chaosSeed: seed)
        let device = try await harness.register()
        let added = try await harness.admin(
            "POST", "faults",
            json: ["path": "/v1/conversation/unread", "kind": "delay", "delayMs": 150, "jitterMs": 200, "count": 5])
        #expect((added.json["fault"] as? [String: Any])?["jitterMs"] as? Int == 200)
        for _ in 0..<5 {
            let started = Date()
            #expect(try await harness.api("GET", "conversation/unread", token: device.token).status == 200)
            #expect(Date().timeIntervalSince(started) >= 0.15, "seed \(seed)")
        }
        let logged = try await RequestLogTests.entries(harness, "?limit=5")
        let durations = logged.compactMap { $0["durationMs"] as? Double }
        #expect(durations.count == 5)
        // Each logged duration holds its delay: 150 ms plus 0…200 ms of jitter (and the route's own time).
        #expect(durations.allSatisfy { $0 >= 150 && $0 < 150 + 200 + 2_000 }, "seed \(seed): \(durations)")
        #expect(logged.allSatisfy { $0["fault"] as? String == "delay" })
        // The fault was used up: the next request is not delayed by it, and not logged as faulted.
        _ = try await harness.api("GET", "conversation/unread", token: device.token)
        #expect(try await RequestLogTests.entries(harness, "?limit=1").first?["fault"] is NSNull)
    }

    @Test func aDeviceFaultSparesOtherDevicesAndOneFaultCanBeRemoved() async throws {
        let harness = try EmulatorHarness()
        let target = try await harness.register()
        let other = try await harness.register()
        let added = try await harness.admin(
            "POST", "faults",
            json: ["path": "/v1/*", "device": target.id, "kind": "status", "status": 502, "count": 100])
        let id = try #require((added.json["fault"] as? [String: Any])?["id"] as? String)
        #expect(try await harness.api("GET", "conversation/unread", token: other.token).status == 200)
        #expect(try await harness.api("GET", "conversation/unread", token: target.token).status == 502)
        #expect(try await harness.admin("DELETE", "faults/\(id)").status == 200)
        #expect(try await harness.admin("DELETE", "faults/\(id)").status == 404)
        #expect(try await harness.api("GET", "conversation/unread", token: target.token).status == 200)
    }

    @Test(arguments: [
        #"{"path":"/v1/*","kind":"status","probability":1.5}"#,
        #"{"path":"/v1/*","kind":"status","probability":-0.1}"#,
        #"{"path":"/v1/*","kind":"status","probability":"0.5"}"#,
        #"{"path":"/v1/*","kind":"status","probability":1e309}"#,
        #"{"path":"/v1/*","kind":"status","probability":2}"#,
        #"{"path":"/v1/*","kind":"delay","jitterMs":60001}"#,
        #"{"path":"/v1/*","kind":"delay","jitterMs":-1}"#,
        #"{"path":"/v1/*","kind":"delay","jitterMs":0.5}"#,
        #"{"path":"/v1/*","kind":"delay","jitterMs":9223372036854775808}"#,
        #"{"path":"/v1/*","kind":"status","device":7}"#,
    ])
    func outOfRangeChaosNumbersAre400AndAddNothing(body: String) async throws {
        let harness = try EmulatorHarness()
        let reply = try await harness.raw(
            "POST", "/admin/faults", headers: ["Authorization": "Bearer \(harness.adminToken)"], body: Data(body.utf8))
        #expect(reply.status == 400, "\(body)")
        #expect(reply.errorCode == "invalid_request" || reply.errorCode == "invalid_json")
        #expect((try await harness.admin("GET", "faults").json["faults"] as? [Any])?.isEmpty == true)
    }
}
