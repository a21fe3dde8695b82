/// One rule of a protocol's contract, runnable against any implementation through a fixture. Contract suites are
/// plain values, so a host that brings its own store or clock can run ours over it from any test framework.
public struct ContractCheck<Fixture: Sendable>: Sendable, CustomStringConvertible {
    /// The rule, as a sentence.
    public let name: String
    /// Runs the rule; throws `ContractFailure` when the implementation breaks it.
    public let run: @Sendable (Fixture) async throws -> Void

    /// Makes a check.
    public init(_ name: String, run: @escaping @Sendable (Fixture) async throws -> Void) {
        self.name = name
        self.run = run
    }

    public var description: String { name }
}

/// A broken contract rule, with what was expected.
public struct ContractFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    /// Makes a failure.
    public init(_ description: String) { self.description = description }
}

/// Fails the running check with `message` unless `condition` holds.
public func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw ContractFailure(message()) }
}
