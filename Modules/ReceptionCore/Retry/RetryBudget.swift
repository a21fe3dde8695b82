/// The retry budget of one background job (spec 6.2): a message, the history load, polling, the stream, the unread
/// refresh, an action click, preference sync, appearance, a logout revocation.
///
/// A cooldown failure schedules the next attempt at the cooldown's end and costs nothing. Any other failure counts
/// one attempt; a permanent failure stops the budget; after the 8th counted attempt it stops too ("paused until the
/// app becomes active"). When the app becomes active a budget stopped by transient failures starts fresh; one
/// stopped by a permanent failure stays stopped.
public struct RetryBudget: Sendable, Hashable {
    /// Counted attempts that failed.
    public private(set) var attempts = 0
    /// Whether no further automatic attempt is made.
    public private(set) var isStopped = false
    /// Whether the last counted failure was transient.
    public private(set) var lastFailureWasTransient = false
    /// How long to wait before the next attempt, when one is scheduled.
    public private(set) var nextDelay: Duration?

    /// The most counted attempts before the budget stops.
    public static let maximumAttempts = 8

    /// A fresh budget.
    @_optimize(size) public init() {}

    /// Records a failure and decides the next attempt.
    @inline(never)
    @_optimize(size) public mutating func recordFailure(_ error: ReceptionError, random: any RandomSource) {
        if error.code == ReceptionError.Code.cooldown {
            nextDelay = .seconds(max(1, error.retryAfter ?? 1))
            return
        }
        attempts += 1
        lastFailureWasTransient = error.isTransient
        guard error.isTransient, attempts < Self.maximumAttempts else {
            isStopped = true
            nextDelay = nil
            return
        }
        if let retryAfter = error.retryAfter {
            nextDelay = .seconds(retryAfter)
        } else {
            nextDelay = Backoff.delay(attempt: attempts, random: random)
        }
    }

    /// Records a success: the budget starts fresh.
    @_optimize(size) public mutating func recordSuccess() { self = RetryBudget() }

    /// Spec 6.2: the app became active. A budget whose last failure was transient starts fresh; a permanently
    /// failed one stays stopped.
    @inline(never) @_optimize(size) public mutating func appBecameActive() {
        if !isStopped || lastFailureWasTransient { self = RetryBudget() }
    }
}
