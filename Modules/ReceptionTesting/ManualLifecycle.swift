import ReceptionCore

/// An `AppLifecycleMonitoring` moved by hand: every subscriber gets the current state first, then each change (a
/// `set` to the state it already has wakes nobody, as the platform monitors behave).
public final class ManualLifecycle: AppLifecycleMonitoring {
    private let broadcast: Broadcast<AppLifecycleState>

    /// A lifecycle starting in `state` (active by default).
    public init(_ state: AppLifecycleState = .active) {
        broadcast = Broadcast(state)
    }

    /// The current state.
    public var current: AppLifecycleState { broadcast.current }

    /// Moves the app to `newState` and tells every subscriber.
    public func set(_ newState: AppLifecycleState) { broadcast.set(newState) }

    public func lifecycleUpdates() -> AsyncStream<AppLifecycleState> { broadcast.updates() }
}
