import ReceptionCore

/// The environment a host passes with its push token (seed 002 `Reception.PushEnvironment`).
public enum PushEnvironmentChoice: String, Sendable, Hashable, CaseIterable, CaseIdentity {
    /// APNs sandbox: development-provisioned builds.
    case sandbox
    /// APNs production: distribution builds, TestFlight and the App Store.
    case production
    /// Read from the build's signing (spec 7.16); the default.
    case automatic

    /// Spec 7.16: the wire environment, asking `resolver` for `automatic`; `nil` = unresolved.
    @inline(never)
    @_optimize(size) public func resolve(with resolver: any PushEnvironmentResolving) -> PushEnvironment? {
        switch self {
        case .sandbox: .sandbox
        case .production: .production
        case .automatic: resolver.resolveEnvironment()
        }
    }
}
