import Foundation
import ReceptionCore

/// Reads the `aps-environment` entitlement from a provisioning profile (spec 7.16).
///
/// An `embedded.mobileprovision` is a property list inside a CMS signature envelope. The signature is not checked
/// (the system already did when it installed the app); the XML property list is taken from between `<?xml` and
/// the closing `</plist>` and parsed by Foundation.
public enum ProvisioningProfile {
    /// The `Entitlements` → `aps-environment` string of `profile`, or `nil` when the profile holds no readable
    /// property list or no such string.
    @inline(never) @_optimize(size) public static func apsEnvironment(in profile: Data) -> String? {
        let bytes = [UInt8](profile)
        guard let start = firstRange(of: Array("<?xml".utf8), in: bytes, from: 0),
              let end = firstRange(of: Array("</plist>".utf8), in: bytes, from: start.upperBound)
        else { return nil }
        let plist = Data(bytes[start.lowerBound..<end.upperBound])
        guard let root = try? PropertyListSerialization.propertyList(from: plist, options: [], format: nil)
                as? [String: Any],
              let entitlements = root["Entitlements"] as? [String: Any]
        else { return nil }
        return entitlements["aps-environment"] as? String
    }

    /// Spec 7.16 `automatic`: a simulator is sandbox; no profile is production (an App Store build); otherwise
    /// `development` → sandbox, `production` → production, anything else unresolved.
    @inline(never)
    @_optimize(size) public static func environment(isSimulator: Bool, profile: Data?) -> PushEnvironment? {
        if isSimulator { return .sandbox }
        guard let profile else { return .production }
        switch apsEnvironment(in: profile) {
        case "development": return .sandbox
        case "production": return .production
        default: return nil
        }
    }

    @inline(never) @_optimize(size)
    private static func firstRange(of needle: [UInt8], in haystack: [UInt8], from offset: Int) -> Range<Int>? {
        guard !needle.isEmpty, haystack.count >= needle.count, offset <= haystack.count - needle.count else {
            return nil
        }
        for index in offset...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index..<(index + needle.count) }
        }
        return nil
    }
}

/// Resolves the environment from a provisioning profile (spec 7.16). `embedded` reads the app bundle's
/// `embedded.mobileprovision`; tests pass a fixture profile and choose whether it is a simulator.
public struct ProvisioningProfileResolver: PushEnvironmentResolving {
    private let isSimulator: Bool
    private let profile: @Sendable () -> Data?

    /// A resolver for a build that is (or is not) a simulator, reading its profile with `profile` (`nil` = none).
    @inline(never) @_optimize(size) public init(isSimulator: Bool, profile: @escaping @Sendable () -> Data?) {
        self.isSimulator = isSimulator
        self.profile = profile
    }

    /// The running app: the simulator flag of the build and the main bundle's embedded profile.
    @inline(never) @_optimize(size) public static var embedded: ProvisioningProfileResolver {
        #if targetEnvironment(simulator)
            let simulator = true
        #else
            let simulator = false
        #endif
        return ProvisioningProfileResolver(isSimulator: simulator) {
            guard let url = Bundle.main.url(forResource: "embedded", withExtension: "mobileprovision") else {
                return nil
            }
            // A profile that exists but cannot be read is unparseable (unresolved), not absent (production).
            return (try? Data(contentsOf: url)) ?? Data()
        }
    }

    @inline(never) @_optimize(size) public func resolveEnvironment() -> PushEnvironment? {
        // A simulator needs no profile read.
        ProvisioningProfile.environment(isSimulator: isSimulator, profile: isSimulator ? nil : profile())
    }
}
