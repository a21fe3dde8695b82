/// A value many async subscribers follow: each subscriber gets the current value first, then every change, in the
/// order the changes were made. A `set` to the value already held is dropped, so a platform that reports the same
/// state twice (a second "did become active") wakes nobody. The lifecycle and network monitors of the Apple
/// platforms (Docs/Apple.md) are thin adapters over it, so their behaviour is tested here, on Linux.
package final class Broadcast<Value: Sendable & Equatable>: Sendable {
    private struct State {
        var current: Value
        var subscribers: [Int: AsyncStream<Value>.Continuation] = [:]
        var next = 0
    }

    private let state: Locked<State>

    /// A broadcast holding `initial`.
    package init(_ initial: Value) {
        state = Locked(State(current: initial))
    }

    /// The value now.
    package var current: Value { state.withLock { $0.current } }

    /// The number of subscribers still iterating.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Replaces the value and tells every subscriber, unless it equals the current one.
    package func set(_ value: Value) {
        // Yielded under the lock, so concurrent changes reach every subscriber in the order they were made.
        state.withLock { state in
            guard state.current != value else { return }
            state.current = value
            for subscriber in state.subscribers.values { subscriber.yield(value) }
        }
    }

    /// The current value first, then every change, until the consumer stops iterating.
    package func updates() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
        let id = state.withLock { state in
            state.next += 1
            state.subscribers[state.next] = continuation
            continuation.yield(state.current)
            return state.next
        }
        continuation.onTermination = { [weak self] _ in _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) } }
        return stream
    }

    /// Ends every subscriber's stream (the source went away).
    package func finish() {
        let subscribers = state.withLock { state in
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
