import ReceptionCore

/// An `AppLifecycleMonitoring` moved by hand: every subscriber gets the current state first, then each change.
public final class ManualLifecycle: AppLifecycleMonitoring {
    private let state: Locked<(current: AppLifecycleState, subscribers: [Int: AsyncStream<AppLifecycleState>.Continuation], next: Int)>

    /// A lifecycle starting in `state` (active by default).
    public init(_ state: AppLifecycleState = .active) {
        self.state = Locked((state, [:], 0))
    }

    /// The current state.
    public var current: AppLifecycleState { state.withLock { $0.current } }

    /// Moves the app to `newState` and tells every subscriber.
    public func set(_ newState: AppLifecycleState) {
        // Yielded under the lock, so concurrent changes reach every subscriber in the order they were made.
        state.withLock { state in
            state.current = newState
            for subscriber in state.subscribers.values { subscriber.yield(newState) }
        }
    }

    public func lifecycleUpdates() -> AsyncStream<AppLifecycleState> {
        let (stream, continuation) = AsyncStream.makeStream(of: AppLifecycleState.self)
        let id = state.withLock { state in
            state.next += 1
            state.subscribers[state.next] = continuation
            continuation.yield(state.current)
            return state.next
        }
        continuation.onTermination = { [weak self] _ in _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) } }
        return stream
    }
}
