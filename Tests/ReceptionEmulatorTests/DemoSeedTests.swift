import Foundation
import ReceptionEmulator
import Testing

/// `--seed demo` (issue 19): a verified customer, an unverified one, a guest and a blocked device, with photos both
/// ways, a review card and a paywall card; a second seed adds nothing.
@Suite("DemoSeedTests")
struct DemoSeedTests {
    @Test func theDemoSeedFillsARealisticInboxOnce() async throws {
        let harness = try EmulatorHarness()
        #expect(try harness.emulator.seedDemo())
        let devices = try #require(try await harness.admin("GET", "devices").json["devices"] as? [[String: Any]])
        #expect(devices.count == 4)
        #expect(Set(devices.map { $0["badge"] as? String ?? "guest" }) == ["verified", "unverified", "guest"])
        #expect(devices.filter { $0["blocked"] as? Bool == true }.count == 1)
        var kinds: [String] = []
        var photoSenders: Set<String> = []
        for device in devices {
            let id = try #require(device["id"] as? String)
            let messages = try await harness.admin("GET", "devices/\(id)/messages").json["messages"] as? [[String: Any]] ?? []
            #expect(!messages.isEmpty)
            for message in messages {
                kinds.append(message["kind"] as? String ?? "")
                if !(message["attachments"] as? [Any] ?? []).isEmpty { photoSenders.insert(message["sender"] as? String ?? "") }
            }
        }
        #expect(kinds.contains("REVIEW") && kinds.contains("PAYWALL"))
        #expect(photoSenders == ["USER", "AGENT"])
        #expect(try await RequestLogTests.entries(harness).isEmpty)
        #expect(try !harness.emulator.seedDemo())
        #expect((try await harness.admin("GET", "devices").json["devices"] as? [Any])?.count == 4)
    }
}
