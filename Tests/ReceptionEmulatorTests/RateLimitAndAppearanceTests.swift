import Foundation
import Testing

/// spec 5.2 / 6.3 rate limits with `Retry-After` and `retryScope`, the `limits=1` recheck, and spec 3.16–3.17
/// appearance with `ETag`/304.
@Suite("RateLimitAndAppearanceTests")
struct RateLimitAndAppearanceTests {
    @Test func exhaustedScopesAnswer429WithRetryAfterAndScope() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        #expect(try await harness.admin("PUT", "rate-limits", json: ["messages": ["limit": 1, "windowSeconds": 120]]).status == 200)
        #expect(try await harness.send(device, "one").status == 201)
        let limited = try await harness.send(device, "two")
        #expect(limited.status == 429)
        #expect(limited.errorCode == "rate_limited")
        #expect(limited.header("Retry-After") == "120")
        #expect((limited.json["error"] as? [String: Any])?["retryScope"] as? String == "messages")
        let recheck = try await harness.api("GET", "conversation?limits=1", token: device.token)
        #expect((recheck.json["limits"] as? [String: Int]) == ["messages": 120, "uploads": 0])
        harness.clock.advance(by: 121)
        #expect(try await harness.send(device, "three").status == 201)
    }

    @Test func registrationIsLimitedInTheSessionScope() async throws {
        let harness = try EmulatorHarness()
        _ = try await harness.admin("PUT", "rate-limits", json: ["session": ["limit": 1, "windowSeconds": 60]])
        _ = try await harness.register()
        let limited = try await harness.api("POST", "devices", json: EmulatorHarness.payload())
        #expect(limited.status == 429)
        #expect((limited.json["error"] as? [String: Any])?["retryScope"] as? String == "session")
        let unknown = try await harness.admin("PUT", "rate-limits", json: ["everything": ["limit": 1, "windowSeconds": 60]])
        #expect(unknown.status == 400)
    }

    @Test func appearanceHasAnETagAnd304() async throws {
        let harness = try EmulatorHarness()
        let first = try await harness.api("GET", "appearance")
        #expect(first.status == 200)
        #expect(first.json["schemaVersion"] as? Int == 1)
        #expect(first.json["revision"] as? Int == 0)
        let tag = try #require(first.header("ETag"))
        let unchanged = try await harness.api("GET", "appearance", extraHeaders: ["If-None-Match": tag])
        #expect(unchanged.status == 304)
        _ = try await harness.admin("PUT", "appearance", json: ["appearance": ["colorScheme": "dark", "showsTeamNames": true]])
        let changed = try await harness.api("GET", "appearance", extraHeaders: ["If-None-Match": tag])
        #expect(changed.status == 200)
        #expect(changed.json["revision"] as? Int == 1)
        #expect((changed.json["appearance"] as? [String: Any])?["colorScheme"] as? String == "dark")
        #expect(changed.header("ETag") != tag)
    }

    @Test func appearanceImagesNeedNoReceptionHeaders() async throws {
        let harness = try EmulatorHarness()
        let id = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0, 1])
        let stored = try await harness.raw(
            "PUT", "/admin/appearance/images/\(id)",
            headers: ["Authorization": "Bearer \(harness.adminToken)", "Content-Type": "image/png"], body: png)
        #expect(stored.status == 200)
        let image = try await harness.raw("GET", "/v1/appearance/images/\(id.lowercased())")
        #expect(image.status == 200)
        #expect(image.body == png)
        #expect(try await harness.raw("GET", "/v1/appearance/images/00000000-0000-0000-0000-000000000000").status == 404)
    }

    @Test func credentialsSurviveARestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-\(UUID().uuidString)").path
        let first = try EmulatorHarness(directory: directory)
        let credentials = first.emulator.credentials
        first.emulator.stop()
        // `first` removes the folder when it goes away, so it must outlive the second start.
        try withExtendedLifetime(first) {
            let second = try EmulatorHarness(directory: directory)
            #expect(second.emulator.credentials == credentials)
        }
    }
}
