#if canImport(Network)
    import Dispatch
    import Network
    import ReceptionCore

    /// `NetworkPathMonitoring` from `NWPathMonitor`: a path whose status is `.satisfied` is a usable network. The
    /// default `ReceptionConfiguration.network` on Apple platforms. It reports "available" until the monitor's
    /// first update (which `NWPathMonitor` delivers right after `start`), then every change; a repeated status
    /// wakes nobody. Compiled only where the Network framework exists, which the Linux machines this package is
    /// built on are not; what it feeds (`Broadcast`, the chat engine's `setNetworkAvailable`) is tested on Linux
    /// through the same protocol (Docs/Apple.md).
    // `@unchecked Sendable`: both properties are constants set in `init`; the `NWPathMonitor` is touched only there
    // and in `deinit`, and its handler only reaches the lock-protected `Broadcast`.
    public final class SystemNetworkPathMonitor: NetworkPathMonitoring, @unchecked Sendable {
        private let broadcast = Broadcast(true)
        private let monitor: NWPathMonitor

        /// Starts monitoring every interface on a private serial queue.
        @_optimize(size) public init() {
            let monitor = NWPathMonitor()
            let broadcast = self.broadcast
            monitor.pathUpdateHandler = { path in broadcast.set(path.status == .satisfied) }
            monitor.start(queue: DispatchQueue(label: "com.reception.sdk.network-path"))
            self.monitor = monitor
        }

        deinit {
            monitor.cancel()
            broadcast.finish()
        }

        @_optimize(size) public func pathUpdates() -> AsyncStream<Bool> { broadcast.updates() }
    }
#endif
