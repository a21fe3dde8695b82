import Foundation
import Identity
@testable import ReceptionKit
import ReceptionTesting
import Testing

/// Spec 1.1 and 7.1: which service roots and App IDs a configuration accepts.
@Suite("ConfigurationTests")
@MainActor
struct ConfigurationTests {
    @Test(arguments: [
        ("https://reception.sh", true), ("http://127.0.0.1:8080", true), ("http://localhost:9/prefix/", true),
        ("http://[::1]:8080", true), ("https://staging.example.com", false), ("https://reception.sh:8443", false),
        ("http://10.0.0.2:8080", false), ("https://reception.sh.evil.example", false),
    ])
    func aReleaseBuildAcceptsOnlyTheHostedRootAndThisMachine(root: String, accepted: Bool) throws {
        let url = try #require(URL(string: root))
        #expect(ReceptionConfiguration.acceptsServiceRoot(url, debugBuild: false) == accepted)
        #expect(ReceptionConfiguration.acceptsServiceRoot(url, debugBuild: true), "debug builds may point anywhere")
    }

    @Test func aRootThatIsNotHTTPIsRefused() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let reception = Reception()
        reception.configure(
            appId: "app_AbCdEfGhIjKlMnOpQrStUv",
            configuration: ReceptionConfiguration(serviceRoot: try #require(URL(string: "ftp://127.0.0.1/")),
                                                  dataDirectory: directory))
        #expect(!reception.isConfigured)
        reception.configure(
            appId: "app_AbCdEfGhIjKlMnOpQrStUv",
            configuration: ReceptionConfiguration(serviceRoot: try #require(URL(string: "http://127.0.0.1:9/")),
                                                  dataDirectory: directory))
        #expect(reception.isConfigured)
        // The launch reads the data folder after configure returns; it is done before the folder is removed.
        await reception.waitUntilReady()
    }

    /// The configuration keeps its fields behind one reference (Docs/Footprint.md, "One reference for wide values"):
    /// a copy set afterwards must not change the value it was copied from, in either direction, for every kind of
    /// field (a URL, an existential, a closure, an optional, an array, the device facts and the test knobs).
    @Test func aCopiedConfigurationIsAValue() throws {
        let original = ReceptionConfiguration(
            serviceRoot: try #require(URL(string: "http://127.0.0.1:1/")),
            dataDirectory: URL(fileURLWithPath: "/tmp/original"))
        var copy = original
        copy.serviceRoot = try #require(URL(string: "http://127.0.0.1:2/"))
        copy.dataDirectory = URL(fileURLWithPath: "/tmp/copy")
        copy.clock = ManualClock()
        copy.network = nil
        copy.preferredLocalizations = ["xx"]
        copy.device = DeviceFacts(
            sdkVersion: "9", osVersion: "copy", deviceModel: "m", locale: "l", timezone: "t", bundleId: nil)
        copy.setupCheckBudget = .seconds(1)
        #expect(original.serviceRoot.absoluteString == "http://127.0.0.1:1/")
        #expect(original.dataDirectory.path == "/tmp/original")
        #expect(!(original.clock is ManualClock))
        #expect(original.preferredLocalizations != ["xx"])
        #expect(original.device.osVersion != "copy")
        #expect(original.setupCheckBudget == .seconds(60))
        #expect(copy.serviceRoot.absoluteString == "http://127.0.0.1:2/")
        #expect(copy.dataDirectory.path == "/tmp/copy")
        #expect(copy.clock is ManualClock)
        #expect(copy.network == nil)
        #expect(copy.preferredLocalizations == ["xx"])
        #expect(copy.device.osVersion == "copy")
        #expect(copy.setupCheckBudget == .seconds(1))

        // The other direction: a later change to the original leaves an earlier copy as it was.
        var second = copy
        let third = second
        second.preferredLocalizations = ["yy"]
        second.device = DeviceFacts(
            sdkVersion: "9", osVersion: "second", deviceModel: "m", locale: "l", timezone: "t", bundleId: nil)
        #expect(third.preferredLocalizations == ["xx"])
        #expect(third.device.osVersion == "copy")
        #expect(second.preferredLocalizations == ["yy"])
        #expect(second.serviceRoot.absoluteString == "http://127.0.0.1:2/", "fields not set are carried over")
    }
}
