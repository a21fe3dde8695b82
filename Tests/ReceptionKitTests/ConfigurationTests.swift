import Foundation
@testable import ReceptionKit
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
}
