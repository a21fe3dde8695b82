/// Where the host app is in its lifecycle (spec 7.2): only an active app streams, polls, reads and resends.
public enum AppLifecycleState: String, Sendable, Hashable, CaseIdentity {
    /// In the foreground and receiving events.
    case active
    /// Visible but not receiving events (an alert, the app switcher).
    case inactive
    /// Not visible.
    case background
}

/// The app's lifecycle signal, injected so tests move an app between foreground and background by hand.
public protocol AppLifecycleMonitoring: Sendable {
    /// The current state first, then every change, until the consumer stops iterating.
    func lifecycleUpdates() -> AsyncStream<AppLifecycleState>
}
