import Foundation

/// Source of identifiers (message client IDs, storage generations), injected so tests see predictable IDs.
public protocol IDGenerating: Sendable {
    /// A new unique identifier.
    func makeUUID() -> UUID
}

extension IDGenerating {
    /// Spec 7.8.1: a fresh upper-case UUID string, the form of local message IDs and client IDs.
    @_optimize(size) public func makeID() -> String { makeUUID().uuidString.uppercased() }
}

/// Random version-4 UUIDs from the system.
public struct SystemIDGenerator: IDGenerating {
    /// Makes a generator.
    @_optimize(size) public init() {}

    @_optimize(size) public func makeUUID() -> UUID { UUID() }
}
