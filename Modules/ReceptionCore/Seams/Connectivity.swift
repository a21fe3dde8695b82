/// Whether the device has a usable network path, as the platform's path monitor reports it (spec 7.18 (a), 7.10:
/// the stream stops when the path goes away and restarts when it returns). Injected so tests flip it by hand.
public protocol NetworkPathMonitoring: Sendable {
    /// The current availability first, then every change, until the consumer stops iterating.
    func pathUpdates() -> AsyncStream<Bool>
}
