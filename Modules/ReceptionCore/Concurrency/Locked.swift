#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value behind a lock. The standard library's lock type needs iOS 18 / macOS 15 and the package's floor is
/// iOS 17 / macOS 14, so every library a host links uses this one instead (executables and tests may use either).
/// Every access goes through `withLock`, so the value is only ever touched by one thread at a time. Not reentrant:
/// calling `withLock` on the same instance from inside its own body deadlocks.
///
/// The lock is `os_unfair_lock` on Darwin and `pthread_mutex_t` elsewhere. Either one is allocated on the heap and
/// never moves: a C lock must keep one address for its whole life, and Swift gives a stored property (or `&` on
/// one) no stable address, so it is held through a pointer, never as a stored value.
///
/// `@unchecked Sendable` is safe here: the wrapper owns a C lock handle and
/// the state, and the state moves in and out only through `sending` values under that lock, so region isolation
/// (not a `Sendable` requirement on `State`) keeps a non-`Sendable` state, such as a SQLite connection, from
/// escaping to another thread.
package final class Locked<State>: @unchecked Sendable {
    #if canImport(Darwin)
    private typealias Primitive = os_unfair_lock
    #else
    private typealias Primitive = pthread_mutex_t
    #endif

    private let primitive: UnsafeMutablePointer<Primitive>
    private var state: State

    /// A lock holding `initial`.
    package init(_ initial: sending State) {
        state = initial
        primitive = .allocate(capacity: 1)
        #if canImport(Darwin)
        primitive.initialize(to: os_unfair_lock())
        #else
        primitive.initialize(to: pthread_mutex_t())
        // A default (non-recursive, non-robust) mutex: initialisation cannot fail on glibc or musl, so the return
        // code carries nothing to act on.
        _ = pthread_mutex_init(primitive, nil)
        #endif
    }

    deinit {
        #if !canImport(Darwin)
        _ = pthread_mutex_destroy(primitive)
        #endif
        primitive.deinitialize(count: 1)
        primitive.deallocate()
    }

    /// Runs `body` with exclusive access to the state and returns what it returns. An error `body` throws reaches
    /// the caller unchanged, after the lock is released; changes `body` made before throwing are kept.
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending State) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        lock()
        defer { unlock() }
        return try body(&state)
    }

    private func lock() {
        #if canImport(Darwin)
        os_unfair_lock_lock(primitive)
        #else
        // A default mutex only reports errors (EINVAL, EDEADLK) for a destroyed lock or a relock by its owner;
        // the first cannot happen while `self` is alive, the second is the documented non-reentrancy.
        _ = pthread_mutex_lock(primitive)
        #endif
    }

    private func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(primitive)
        #else
        _ = pthread_mutex_unlock(primitive)
        #endif
    }
}
