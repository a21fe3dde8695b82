import Foundation

/// The wait a set of cooldown scopes imposes now (spec 6.3.4): the latest deadline among the active ones, automatic
/// only if every active one is.
public struct CooldownWait: Sendable, Hashable {
    /// The scope whose deadline is the latest.
    public let scope: RetryScope
    /// The wall-clock end of the wait.
    public let until: Date
    /// Whether a held message may wait it out without a tap (every active wait was ≤ 60 s when imposed).
    public let automatic: Bool
    /// Whole seconds left, rounded up, at least 1.
    public let remainingSeconds: Int

    /// The `cooldown` error a request held by this wait fails with (spec 5.4).
    @_optimize(size) public var error: ReceptionError { .cooldown(retryAfter: remainingSeconds, scope: scope) }

    /// Hashes the end only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(until) }
}

/// The server-imposed waits of one session (spec 6.3), shared by the transport that records them and the chat
/// engine that shows them. Persisted through `save` on every change; survives relaunch and chat reset, not logout.
public final class CooldownBook: Sendable {
    /// At most one wait per scope, and there are five scopes: a short list searched in order, not a dictionary
    /// (each dictionary of a new key and value type costs an app about 4 kB of specialised code). The list is kept
    /// in the order `save` writes it (by scope name), so no change sorts it again.
    private struct State {
        var entries: [StoredCooldown]
        /// Rejections per scope, at the scope's position in `RetryScope.allCases`.
        var changes = [Int](repeating: 0, count: RetryScope.allCases.count)

        @inline(never)
        @_optimize(size) func entry(_ scope: RetryScope) -> StoredCooldown? { entries.first { $0.scope == scope } }

        /// Replaces the wait of `cooldown`'s scope, or adds it in its place in the order.
        @inline(never) @_optimize(size) mutating func set(_ cooldown: StoredCooldown) {
            entries.removeAll { $0.scope == cooldown.scope }
            let place = entries.firstIndex { $0.scope.rawValue > cooldown.scope.rawValue } ?? entries.endIndex
            entries.insert(cooldown, at: place)
        }

        @inline(never) @_optimize(size) mutating func count(_ scope: RetryScope) {
            if let slot = RetryScope.allCases.firstIndex(of: scope) { changes[slot] += 1 }
        }

        @inline(never) @_optimize(size) func changeCount(_ scope: RetryScope) -> Int {
            RetryScope.allCases.firstIndex(of: scope).map { changes[$0] } ?? 0
        }

        // What each of the book's calls does under the lock. Methods of their own, never inlined, rather than the
        // bodies of the `withLock` closures: a closure is compiled at the host's -O, a cold method for size
        // (Docs/Footprint.md).

        /// `record`: the whole set when the wait changed, else `nil`.
        @inline(never) @_optimize(size)
        mutating func record(_ scope: RetryScope, seconds: Int, now: Date) -> [StoredCooldown]? {
            count(scope)
            prune(now: now)
            let until = now.addingTimeInterval(Double(seconds))
            if let existing = entry(scope), until.timeIntervalSince(existing.until) <= 1 { return nil }
            set(StoredCooldown(scope: scope, until: until, automatic: seconds <= CooldownBook.automaticLimitSeconds))
            return entries
        }

        /// `applyRecheck`: the whole set after the release or the new wait.
        @inline(never) @_optimize(size)
        mutating func recheck(_ scope: RetryScope, seconds: Int, now: Date) -> [StoredCooldown] {
            if seconds <= 0 {
                entries.removeAll { $0.scope == scope }
            } else {
                set(StoredCooldown(scope: scope, until: now.addingTimeInterval(Double(seconds)), automatic: false))
            }
            return entries
        }

        /// `wait(for:now:)`.
        @inline(never) @_optimize(size) mutating func wait(for wanted: Set<RetryScope>, now: Date) -> CooldownWait? {
            clamp(now: now)
            let active = entries.filter { wanted.contains($0.scope) && $0.until > now }
            guard let latest = active.max(by: { $0.until < $1.until }) else { return nil }
            let remaining = latest.until.timeIntervalSince(now)
            return CooldownWait(
                scope: latest.scope, until: latest.until, automatic: active.allSatisfy(\.automatic),
                remainingSeconds: max(1, Int(remaining.rounded(.up))))
        }

        /// `active(now:)`.
        @inline(never) @_optimize(size) mutating func active(now: Date) -> [StoredCooldown] {
            clamp(now: now)
            return entries.filter { $0.until > now }
        }

        @inline(never) @_optimize(size) mutating func prune(now: Date) {
            entries.removeAll { $0.until <= now }
        }

        /// Spec 6.3.4: a deadline more than a day ahead (the clock was set back) is reduced to one day from now.
        @inline(never) @_optimize(size) mutating func clamp(now: Date) {
            let limit = now.addingTimeInterval(Double(Limits.maximumRetryAfterSeconds))
            for index in entries.indices where entries[index].until > limit {
                entries[index].until = limit
            }
            prune(now: now)
        }
    }

    /// A wait longer than this needs a manual retry (spec 7.8.5).
    public static let automaticLimitSeconds = 60

    private let state: Locked<State>
    private let save: @Sendable ([StoredCooldown]) -> Void

    /// A book starting from `stored` waits (clamped to one day from `now`, expired ones pruned), calling `save`
    /// with the whole set after every change.
    @inline(never) @_optimize(size)
    public init(stored: [StoredCooldown] = [], now: Date, save: @escaping @Sendable ([StoredCooldown]) -> Void = { _ in }) {
        var state = State(entries: [])
        for cooldown in stored where cooldown.until > now {
            var clamped = cooldown
            clamped.until = min(cooldown.until, now.addingTimeInterval(Double(Limits.maximumRetryAfterSeconds)))
            if let existing = state.entry(cooldown.scope), existing.until >= clamped.until { continue }
            state.set(clamped)
        }
        self.state = Locked(state)
        self.save = save
    }

    /// Records a wait of `seconds` (already clamped to 1 … 86,400) for `scope` reported by the service at `now`.
    /// It replaces the stored wait only when it ends more than one second later (spec 6.3.4: `Retry-After` has
    /// one-second resolution, and a shorter report never shortens a longer wait). Returns whether it changed.
    @discardableResult
    @inline(never) @_optimize(size) public func record(scope: RetryScope, seconds: Int, now: Date) -> Bool {
        let snapshot = state.withLock { $0.record(scope, seconds: seconds, now: now) }
        guard let snapshot else { return false }
        save(snapshot)
        return true
    }

    /// Spec 6.3.6: the service released (`seconds == 0`) or re-set a wait after a limit recheck. A re-set wait is
    /// never automatic, so a shortened long wait does not turn into a timer-driven resend.
    @inline(never) @_optimize(size) public func applyRecheck(scope: RetryScope, seconds: Int, now: Date) {
        let snapshot = state.withLock { $0.recheck(scope, seconds: seconds, now: now) }
        save(snapshot)
    }

    /// The wait that holds a request gated by `scopes` at `now`, or `nil` when none is active.
    @inline(never)
    @_optimize(size) public func wait(for scopes: some Sequence<RetryScope>, now: Date) -> CooldownWait? {
        let wanted = Set(scopes)
        return state.withLock { $0.wait(for: wanted, now: now) }
    }

    /// How many rejections were reported for `scope` so far (spec 6.3.6 rule 4: an answer to a recheck is ignored
    /// for a scope whose counter moved while it was in flight).
    @_optimize(size) public func changeCount(of scope: RetryScope) -> Int { state.withLock { $0.changeCount(scope) } }

    /// Every active wait at `now`, for the one timer that announces the nearest end.
    @inline(never) @_optimize(size) public func active(now: Date) -> [StoredCooldown] {
        state.withLock { $0.active(now: now) }
    }

    /// The nearest end of an active wait, or `nil`.
    @inline(never) @_optimize(size) public func nextDeadline(now: Date) -> Date? {
        // A loop: `map` and `min()` would each be specialised for this one caller.
        var nearest: Date?
        for cooldown in active(now: now) where nearest.map({ cooldown.until < $0 }) ?? true { nearest = cooldown.until }
        return nearest
    }

    /// Forgets every wait (logout, session revocation, deletion).
    @inline(never) @_optimize(size) public func removeAll() {
        state.withLock { $0.entries.removeAll() }
        save([])
    }
}
