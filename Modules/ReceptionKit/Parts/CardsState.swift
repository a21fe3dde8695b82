/// The facade's part for cards (spec 7.21): the paywalls the host registered, which availability check is the
/// latest (only its result publishes), and the chain of action-click flushes (one at a time, in order).
final class CardsState {
    /// The validated registration, in the host's order.
    private(set) var registered: [ReceptionPaywall] = []
    /// Bumped by every availability check.
    private var latestCheck = 0
    /// The last flush of queued action clicks; the next one waits for it.
    private var clickFlush: Task<Void, Never>?

    /// Replaces the registration with `paywalls` validated (spec 7.21).
    @_optimize(size) func register(_ paywalls: [ReceptionPaywall]) {
        registered = PaywallRules.validated(paywalls)
    }

    /// Starts an availability check; its result may publish only while `isLatest(_:)` holds for the returned value.
    @_optimize(size) func beginCheck() -> Int {
        latestCheck += 1
        return latestCheck
    }

    /// Whether `check` is the newest availability check.
    @_optimize(size) func isLatest(_ check: Int) -> Bool { check == latestCheck }

    /// Starts a flush of queued clicks after the previous one: `flush` receives the previous task to await.
    @_optimize(size) func chainClickFlush(_ flush: (Task<Void, Never>?) -> Task<Void, Never>) {
        clickFlush = flush(clickFlush)
    }
}
