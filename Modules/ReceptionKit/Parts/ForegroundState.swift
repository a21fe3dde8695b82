/// Whether the app is active, as the facade last heard it (from the host's calls or the configured lifecycle
/// monitor), and the task that follows that monitor.
final class ForegroundState {
    /// `true` until the app is reported in the background.
    var isActive = true
    /// Follows `ReceptionConfiguration.lifecycle`; replaced by each configure.
    private var observation: Task<Void, Never>?

    /// Ends the previous observation and keeps `task` as the current one.
    @_optimize(size) func follow(_ task: Task<Void, Never>?) {
        observation?.cancel()
        observation = task
    }
}
