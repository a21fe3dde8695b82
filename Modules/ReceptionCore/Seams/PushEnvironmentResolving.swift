/// Resolves the APNs environment of this build for `setPushToken(_:environment: .automatic)` (spec 7.16).
///
/// The rule: a simulator is `SANDBOX`; a device build without an embedded provisioning profile (an App Store build)
/// is `PRODUCTION`; otherwise the profile's `Entitlements` → `aps-environment` decides (`development` → `SANDBOX`,
/// `production` → `PRODUCTION`), and anything else — missing, another value, an unreadable profile — is unresolved,
/// which makes the token be ignored.
public protocol PushEnvironmentResolving: Sendable {
    /// The environment of this build, or `nil` when it cannot be resolved.
    func resolveEnvironment() -> PushEnvironment?
}
