import Foundation
import ReceptionCore

/// An `AppLifecycleMonitoring` fed by `NotificationCenter`: each notification name in `transitions` moves the app
/// to its state. On iOS the default configuration builds one over UIKit's application notifications and on macOS
/// over AppKit's (`ApplicationLifecycle+UIKit.swift`, `ApplicationLifecycle+AppKit.swift`; Docs/Apple.md); the
/// mapping itself is platform-neutral, so it is tested on Linux with the same `NotificationCenter` API and names of
/// the test's own.
///
/// Every subscriber gets the current state first, then each change; a notification that repeats the current state
/// wakes nobody. Observation stops when the monitor is released.
public final class NotificationLifecycleMonitor: AppLifecycleMonitoring {
    private let broadcast: Broadcast<AppLifecycleState>
    private let center: NotificationCenter
    /// The observation tokens: set once in `init`, read once in `deinit`, never shared or changed in between.
    nonisolated(unsafe) private let observers: [any NSObjectProtocol]

    /// Observes `transitions` (a notification name and the state it means) on `center`, starting in `initial`.
    @_optimize(size) public init(
        center: NotificationCenter = .default, transitions: [(Notification.Name, AppLifecycleState)],
        initial: AppLifecycleState = .active
    ) {
        let broadcast = Broadcast(initial)
        self.broadcast = broadcast
        self.center = center
        observers = transitions.map { name, state in Self.observe(name, state, center: center, broadcast) }
    }

    /// UIKit's three transitions, named one by one: an array of `Notification.Name` (or of pairs holding one)
    /// brings the imported type's six conformances into the app, 2.4 kB (Docs/Footprint.md, "Size on iOS").
    @_optimize(size) init(
        center: NotificationCenter, active: Notification.Name, background: Notification.Name,
        inactive: Notification.Name, initial: AppLifecycleState
    ) {
        let broadcast = Broadcast(initial)
        self.broadcast = broadcast
        self.center = center
        observers = [
            Self.observe(active, .active, center: center, broadcast),
            Self.observe(background, .background, center: center, broadcast),
            Self.observe(inactive, .inactive, center: center, broadcast),
        ]
    }

    /// `queue: nil`: the block runs on the posting thread (the main thread for UIKit and AppKit), so the states
    /// reach subscribers in the order the platform posted them.
    @inline(never) @_optimize(size) private static func observe(
        _ name: Notification.Name, _ state: AppLifecycleState, center: NotificationCenter,
        _ broadcast: Broadcast<AppLifecycleState>
    ) -> any NSObjectProtocol {
        center.addObserver(forName: name, object: nil, queue: nil) { _ in broadcast.set(state) }
    }

    deinit {
        for token in observers { center.removeObserver(token) }
        broadcast.finish()
    }

    /// The state now.
    @_optimize(size) public var current: AppLifecycleState { broadcast.current }

    /// Moves the app to `state` as a notification would (the Apple adapters correct the initial state with it).
    @_optimize(size) public func set(_ state: AppLifecycleState) { broadcast.set(state) }

    @_optimize(size) public func lifecycleUpdates() -> AsyncStream<AppLifecycleState> { broadcast.updates() }
}
