import Foundation
import ReceptionCore

/// Spec 7.20's refresh cadence: while the app is active, remote appearance is on and the session is not halted,
/// fetch; then wait 300 s after a success, or the retry delay after a failure, and repeat. Fetches are at least
/// 300 s apart unless a retry is due; the loop stops after 8 failed attempts (or one permanent failure) until the app
/// becomes active again. The ETag lives here, in memory only, so the first fetch of a process is unconditional.
actor AppearanceRefresher {
    /// Spec 7.20: the wait after a successful fetch.
    static let interval: Duration = .seconds(300)

    struct Dependencies: Sendable {
        /// One `GET appearance` with the held ETag.
        var fetch: @Sendable (_ etag: String?) async throws(ReceptionError) -> AppearanceFetch
        /// A new valid appearance arrived.
        var published: @Sendable (RemoteAppearance) async -> Void
        var clock: any ReceptionClock
        var random: any RandomSource
        var logger: ReceptionLogger

        @inline(never) @_optimize(size) package init(
            fetch: @escaping @Sendable (_ etag: String?) async throws(ReceptionError) -> AppearanceFetch,
            published: @escaping @Sendable (RemoteAppearance) async -> Void,
            clock: any ReceptionClock, random: any RandomSource, logger: ReceptionLogger
        ) {
            self.fetch = fetch
            self.published = published
            self.clock = clock
            self.random = random
            self.logger = logger
        }
    }

    private let deps: Dependencies
    private var etag: String?
    private var lastSuccess: Duration?
    private var budget = RetryBudget()
    private var active: Bool
    private var enabled: Bool
    private var halted = false
    private var ended = false
    private var loop: Task<Void, Never>?
    private var loopNumber = 0
    private var sessionNumber = 0

    @inline(never) @_optimize(size) package init(_ dependencies: Dependencies, active: Bool, enabled: Bool) {
        deps = dependencies
        self.active = active
        self.enabled = enabled
    }

    /// Starts the loop if its conditions hold.
    @_optimize(size) func start() { reconcile() }

    /// Spec 7.2: the app became active — the loop restarts; a budget stopped by transient failures starts fresh, one
    /// stopped by a permanent failure stays stopped (spec 6.2).
    @inline(never) @_optimize(size) func appBecameActive() {
        active = true
        budget.appBecameActive()
        reconcile()
    }

    /// Spec 7.2: the loop stops in the background.
    @inline(never) @_optimize(size) func appEnteredBackground() {
        active = false
        reconcile()
    }

    /// `usesRemoteAppearance` changed; turning it on starts a fresh budget.
    @inline(never) @_optimize(size) func setEnabled(_ enabled: Bool) {
        guard enabled != self.enabled else { return }
        self.enabled = enabled
        if enabled { budget = RetryBudget() }
        reconcile()
    }

    /// Spec 6.4: no appearance refresh while the session is halted; it resumes with a fresh budget when the halt
    /// ends (the failure that halted it, such as 401 `invalid_app_id`, no longer stands).
    @inline(never) @_optimize(size) func setHalted(_ halted: Bool) {
        if self.halted, !halted { budget = RetryBudget() }
        self.halted = halted
        reconcile()
    }

    /// The facade replaced its session (logout, deletion, a reset): a fetch the old session's client cancelled is
    /// repeated through the new one instead of counting as a failure.
    @inline(never) @_optimize(size) func sessionChanged() {
        sessionNumber += 1
        reconcile()
    }

    /// For good (a new configuration replaces this refresher).
    @inline(never) @_optimize(size) func end() {
        ended = true
        reconcile()
    }

    /// What the facade tells the refresher from the main actor.
    enum Event: Sendable {
        case start, appBecameActive, appEnteredBackground, sessionChanged
        case enabled(Bool)
    }

    /// Hands `event` to the refresher in a task of its own that starts on the main actor, as a
    /// `Task { await refresher.… }` in the facade did: one task closure for every event rather than one per call
    /// site (Docs/Footprint.md, "Size on iOS").
    @inline(never) @_optimize(size) nonisolated func post(_ event: Event) {
        Task { @MainActor in await self.handle(event) }
    }

    @inline(never) @_optimize(size) private func handle(_ event: Event) {
        switch event {
        case .start: start()
        case .appBecameActive: appBecameActive()
        case .appEnteredBackground: appEnteredBackground()
        case .sessionChanged: sessionChanged()
        case .enabled(let enabled): setEnabled(enabled)
        }
    }

    /// Whether a loop is running (tests).
    @_optimize(size) var isRunning: Bool { loop != nil }

    /// How many session changes were applied (tests wait for one instead of sleeping).
    @_optimize(size) var sessionChanges: Int { sessionNumber }

    @_optimize(size) private var shouldRun: Bool { !ended && active && enabled && !halted && !budget.isStopped }

    @inline(never) @_optimize(size) private func reconcile() {
        guard shouldRun else {
            loop?.cancel()
            loop = nil
            return
        }
        guard loop == nil else { return }
        loopNumber += 1
        let number = loopNumber
        loop = Task { await self.run(number) }
    }

    @inline(never) @_optimize(size) private func run(_ number: Int) async {
        refresh: while !Task.isCancelled {
            if let lastSuccess {
                do { try await deps.clock.sleep(until: lastSuccess + Self.interval) } catch { break refresh }
            }
            let session = sessionNumber
            do throws(ReceptionError) {
                let outcome = try await deps.fetch(etag)
                guard !Task.isCancelled else { break refresh }
                succeeded()
                await accept(outcome)
            } catch {
                if Task.isCancelled { break refresh }
                switch error.code {
                case ReceptionError.Code.cancelled:
                    // The session's client was invalidated under the request: repeat it through the new session's
                    // client (once per change); otherwise the facade is gone.
                    guard session != sessionNumber else { break refresh }
                case ReceptionError.Code.sessionHalted:
                    halted = true
                    break refresh
                case ReceptionError.Code.invalidAppearance:
                    // Spec 3.16: an invalid payload is ignored (and logged); the cadence goes on as after a success.
                    deps.logger.write(.info, "appearance ignored (\(error.code))")
                    succeeded()
                default:
                    budget.recordFailure(error, random: deps.random)
                    deps.logger.write(.info, "appearance not refreshed (\(error.code))")
                    guard !budget.isStopped, let delay = budget.nextDelay else { break refresh }
                    do { try await deps.clock.sleep(for: delay) } catch { break refresh }
                }
            }
        }
        if loopNumber == number { loop = nil }
    }

    @inline(never) @_optimize(size) private func succeeded() {
        budget.recordSuccess()
        lastSuccess = deps.clock.uptime
    }

    @inline(never) @_optimize(size) private func accept(_ outcome: AppearanceFetch) async {
        switch outcome {
        case .unchanged(let newETag):
            if let newETag { etag = newETag }
        case .updated(let data, let revision, let newETag):
            guard let appearance = RemoteAppearance(revision: revision, data: data) else {
                deps.logger.write(.info, "appearance ignored (\(ReceptionError.Code.invalidAppearance))")
                return
            }
            etag = newETag
            await deps.published(appearance)
        }
    }
}
