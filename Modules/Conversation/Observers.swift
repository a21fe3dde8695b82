import ReceptionCore

/// Who listens to the engine: snapshot observers with their tokens, the version that orders snapshots, and the
/// receivers of `messageSent` / `imageSent` events (spec 3.8).
final class Observers {
    /// In the order they registered. A list: a chat has one or two observers, and a dictionary keyed by token would
    /// compile its own hashing code (2.5 kB on iOS).
    private var observers: [(token: UInt64, observe: @Sendable (ChatSnapshot) -> Void)] = []
    private var nextToken: UInt64 = 0
    /// Increases with every publication.
    private(set) var version = 0
    private var eventHandlers: [@Sendable (ReceptionEvent) -> Void] = []

    /// Registers `observer`; returns its token.
    @inline(never) @_optimize(size) func add(_ observer: @escaping @Sendable (ChatSnapshot) -> Void) -> UInt64 {
        let token = nextToken
        nextToken += 1
        observers.append((token: token, observe: observer))
        return token
    }

    /// Stops calling the observer of `token`.
    @_optimize(size) func remove(_ token: UInt64) { observers.removeAll { $0.token == token } }

    /// Registers an event receiver.
    @_optimize(size) func addEventHandler(_ handler: @escaping @Sendable (ReceptionEvent) -> Void) {
        eventHandlers.append(handler)
    }

    /// Calls every event receiver.
    @_optimize(size) func emit(_ event: ReceptionEvent) { for handler in eventHandlers { handler(event) } }

    /// A publication begins: the version moves.
    @_optimize(size) func advanceVersion() { version += 1 }

    /// Hands `snapshot` to every observer, in the order they registered.
    @_optimize(size) func notify(_ snapshot: ChatSnapshot) { for observer in observers { observer.observe(snapshot) } }

    /// Forgets every observer (the session ended); event receivers stay.
    @_optimize(size) func removeAll() { observers.removeAll() }
}
