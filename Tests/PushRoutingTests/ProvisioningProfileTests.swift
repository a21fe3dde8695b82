import Foundation
import PushRouting
import ReceptionCore
import Testing

@Suite("ProvisioningProfileTests")
struct ProvisioningProfileTests {
    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "mobileprovision", subdirectory: "Fixtures"))
        return try Data(contentsOf: url)
    }

    @Test("the aps-environment is read from the plist inside the envelope")
    func readsEntitlement() throws {
        #expect(ProvisioningProfile.apsEnvironment(in: try Self.fixture("development")) == "development")
        #expect(ProvisioningProfile.apsEnvironment(in: try Self.fixture("production")) == "production")
        #expect(ProvisioningProfile.apsEnvironment(in: try Self.fixture("no-aps")) == nil)
        #expect(ProvisioningProfile.apsEnvironment(in: try Self.fixture("unparseable")) == nil)
        #expect(ProvisioningProfile.apsEnvironment(in: Data()) == nil)
    }

    /// Spec 7.16 automatic resolution: (fixture or nil for no profile, simulator, expected).
    @Test("automatic environment resolution", arguments: [
        ("development", false, PushEnvironment?.some(.sandbox)),
        ("production", false, .some(.production)),
        ("no-aps", false, nil),
        ("other", false, nil),
        ("unparseable", false, nil),
        ("", false, .some(.production)),
        ("production", true, .some(.sandbox)),
        ("", true, .some(.sandbox)),
    ])
    func resolution(fixture: String, simulator: Bool, expected: PushEnvironment?) throws {
        let profile: Data? = fixture.isEmpty ? nil : try Self.fixture(fixture)
        let resolver = ProvisioningProfileResolver(isSimulator: simulator) { profile }
        #expect(resolver.resolveEnvironment() == expected)
    }

    @Test("explicit choices do not ask the resolver")
    func explicitChoices() {
        let unresolved = ProvisioningProfileResolver(isSimulator: false) { Data("junk".utf8) }
        #expect(PushEnvironmentChoice.sandbox.resolve(with: unresolved) == .sandbox)
        #expect(PushEnvironmentChoice.production.resolve(with: unresolved) == .production)
        #expect(PushEnvironmentChoice.automatic.resolve(with: unresolved) == nil)
    }
}
