import ReceptionCore

/// A `PushEnvironmentResolving` with a fixed answer, `nil` meaning "unresolved".
public struct FixedPushEnvironmentResolver: PushEnvironmentResolving {
    /// The answer.
    public var environment: PushEnvironment?

    /// A resolver answering `environment`.
    public init(_ environment: PushEnvironment?) {
        self.environment = environment
    }

    public func resolveEnvironment() -> PushEnvironment? { environment }
}
