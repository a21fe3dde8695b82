/// The facade's part for a configure whose storage is being prepared off the main actor (Docs/Footprint.md, "A
/// light launch"): which App ID it is for, the calls the host made meanwhile, and the tasks waiting for it.
///
/// `configure(appId:)` only validates and records; opening the data folder, the preferences, the secure store and the
/// SQLite store happens on a background task, and the parts are built when it finishes. A call that needs them
/// (`identify`, `openChat`, `logout`, `setPushToken`, `deleteData`, …) made before then is kept here and runs once
/// they exist, in the order it was made; `runSetupCheck` waits for them.
@MainActor
final class LaunchState {
    /// A call kept until the parts exist: `run` reads the facade's state when it runs; `drop` is told when a configure
    /// replaced the preparation first (a waiting `deleteData` then throws instead of waiting for ever).
    struct Call {
        var run: @MainActor () -> Void
        var drop: @MainActor () -> Void = {}
    }

    /// The App ID being prepared, `nil` when no preparation is under way.
    private(set) var appID: String?
    /// The configure generation the preparation belongs to.
    private(set) var generation = 0
    /// The finishing task of the latest preparation; the next one starts after it, so two preparations never use the
    /// same data folder at once.
    private(set) var latest: Task<Void, Never>?
    private var calls: [Call] = []
    private var waiters: [CheckedContinuation<Void, Never>] = []
    /// Whether a `logout()` is among the kept calls: a configure that replaces the preparation drops the calls, but
    /// the replaced App ID's storage is still signed out (`Reception.finishReplacedLaunch`).
    private var logoutKept = false

    /// Generations of replaced preparations whose storage is to be signed out when they finish: one per replaced
    /// preparation still running, each taken when it finishes, so a few at most (a list: a `Set<Int>` kept its own
    /// hashing code in the app for these).
    private var signOuts: [Int] = []

    /// Whether a configure's parts are still being prepared.
    @_optimize(size) var isPreparing: Bool { appID != nil }

    /// How many calls are kept now.
    @_optimize(size) var keptCount: Int { calls.count }

    /// A configure began preparing `appID`; the calls kept for the preparation it replaces are returned (dropped:
    /// they were meant for the configuration the host replaced), and a logout among them is remembered for that
    /// preparation's finish.
    @_optimize(size) func begin(appID: String, generation: Int, finishing: Task<Void, Never>) -> [Call] {
        let dropped = calls
        if isPreparing && logoutKept && !signOuts.contains(self.generation) { signOuts.append(self.generation) }
        calls = []
        logoutKept = false
        self.appID = appID
        self.generation = generation
        latest = finishing
        return dropped
    }

    /// Whether the replaced preparation of `generation` had a logout kept (asked once).
    @_optimize(size) func takeSignOut(generation: Int) -> Bool {
        guard let index = signOuts.firstIndex(of: generation) else { return false }
        signOuts.remove(at: index)
        return true
    }

    /// Keeps `call` until the parts exist; `logout` marks a sign-out, which a replacing configure still carries out.
    /// Never inlined: the facade's closures call it, and closures are compiled at -O (Docs/Footprint.md).
    @inline(never) @_optimize(size) func keep(_ call: Call, logout: Bool = false) {
        calls.append(call)
        if logout { logoutKept = true }
    }

    /// Registers a task that waits for the parts. Never inlined: a continuation's closure calls it, and closures are
    /// compiled at -O (Docs/Footprint.md).
    @inline(never) @_optimize(size)
    func wait(_ continuation: CheckedContinuation<Void, Never>) { waiters.append(continuation) }

    /// The preparation of `generation` finished: the kept calls, in order, and the waiters to resume. Another
    /// generation's finish (a configure replaced it) takes nothing.
    @_optimize(size)
    func finish(generation: Int) -> (calls: [Call], waiters: [CheckedContinuation<Void, Never>])? {
        guard isPreparing, generation == self.generation else { return nil }
        defer {
            appID = nil
            calls = []
            waiters = []
            logoutKept = false
        }
        return (calls, waiters)
    }
}
