import Foundation

/// The emulator's shared state behind a lock. The package's floor is macOS 14, below the standard library's lock
/// type, and the emulator shares no code with the client but `Digest`, so it keeps this wrapper over Foundation's
/// `NSLock` (present on every platform the emulator runs on) instead of the client's `ReceptionCore.Locked`.
///
/// Every access goes through `withLock`; it is not reentrant. `@unchecked Sendable` holds because the state is
/// only reached under the lock and moves in and out as `sending` values, so a non-`Sendable` state (a SQLite
/// connection) never escapes to another thread.
package final class EmulatorLock<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    /// A lock holding `initial`.
    package init(_ initial: sending State) {
        state = initial
    }

    /// Runs `body` with exclusive access to the state and returns its result; an error it throws reaches the caller
    /// after the lock is released.
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending State) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
