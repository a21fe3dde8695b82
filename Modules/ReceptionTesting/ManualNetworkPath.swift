import ReceptionCore

/// A `NetworkPathMonitoring` switched by hand, standing in for `NWPathMonitor`: every subscriber gets the current
/// availability first, then each change (a `set` to the value it already has wakes nobody).
public final class ManualNetworkPath: NetworkPathMonitoring {
    private let broadcast: Broadcast<Bool>

    /// A path that starts available (or not).
    public init(available: Bool = true) {
        broadcast = Broadcast(available)
    }

    /// Whether the path is available now.
    public var isAvailable: Bool { broadcast.current }

    /// Makes the path available or not and tells every subscriber.
    public func set(available: Bool) { broadcast.set(available) }

    public func pathUpdates() -> AsyncStream<Bool> { broadcast.updates() }
}
