/// A session's way into its store, which the session's owner closes when the session ends (spec 7.15: logout,
/// deletion, a reset).
///
/// The parts of a session wind down asynchronously, and a late write of theirs (a photo, a confirmation, a cursor)
/// must not land in the next user's scope, nor bring the previous user's data back into the file. So every access
/// holds the gate: after `close(then:)` writes throw `storage_unavailable` and reads see the empty value their
/// caller names, and a write in progress finishes before the closing step runs. A gate seen through one of the
/// store's roles (`role(_:)`) shares the same lock, so closing one closes all of them.
public final class StoreGate<Store: Sendable>: Sendable {
    private let store: Store
    /// `true` once closed; held across each access.
    private let closed: Locked<Bool>

    /// An open gate in front of `store`.
    @_optimize(size) public convenience init(_ store: Store) { self.init(store, closed: Locked(false)) }

    @_optimize(size) private init(_ store: Store, closed: Locked<Bool>) {
        self.store = store
        self.closed = closed
    }

    /// The same gate in front of one of the store's roles.
    @_optimize(size) public func role<Role: Sendable>(_ view: (Store) -> Role) -> StoreGate<Role> {
        StoreGate<Role>(view(store), closed: closed)
    }

    /// Runs a write while the gate is open; once closed it throws `storage_unavailable` and writes nothing.
    /// What `body` throws comes through unchanged.
    @_optimize(size) public func write<T: Sendable>(_ body: (Store) throws -> T) throws -> T {
        try closed.withLock { isClosed throws -> T in
            if isClosed { throw ReceptionError.storageUnavailable }
            return try body(store)
        }
    }

    /// Runs a read while the gate is open; once closed it returns `empty`.
    /// What `body` throws comes through unchanged.
    @_optimize(size) public func read<T: Sendable>(orIfClosed empty: T, _ body: (Store) throws -> T) throws -> T {
        try closed.withLock { isClosed throws -> T in
            if isClosed { return empty }
            return try body(store)
        }
    }

    /// Closes the gate (waiting for an access in progress), then runs `last` with the store, for example the
    /// rotation to the next session's scope.
    @_optimize(size) public func close(then last: (Store) throws(ReceptionError) -> Void) throws(ReceptionError) {
        closed.withLock { $0 = true }
        try last(store)
    }
}
