/// The facade's part for a configure whose storage is being prepared off the main actor (Docs/Footprint.md, "A
/// light launch"): which App ID it is for, the calls the host made meanwhile, and the tasks waiting for it.
///
/// `configure(appId:)` only validates and records; opening the data folder, the preferences, the secure store and the
/// SQLite store happens on a background task, and the parts are built when it finishes. A call that needs them
/// (`identify`, `openChat`, `logout`, `setPushToken`, …) made before then is kept here and runs once they exist, in
/// the order it was made; `deleteData()` and `runSetupCheck` wait for them.
@MainActor
struct LaunchState {
    /// A call kept until the parts exist; it reads the facade's state when it runs.
    typealias Call = @MainActor () -> Void

    /// The App ID being prepared, `nil` when no preparation is under way.
    private(set) var appID: String?
    /// The configure generation the preparation belongs to.
    private(set) var generation = 0
    /// The finishing task of the latest preparation; the next one starts after it, so two preparations never use the
    /// same data folder at once.
    private(set) var latest: Task<Void, Never>?
    private var calls: [Call] = []
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Whether a configure's parts are still being prepared.
    var isPreparing: Bool { appID != nil }

    /// A configure began preparing `appID`. The calls kept for a preparation it replaces are dropped (they were made
    /// for the configuration the host replaced); their number is returned for the log.
    mutating func begin(appID: String, generation: Int, finishing: Task<Void, Never>) -> Int {
        let dropped = calls.count
        calls = []
        self.appID = appID
        self.generation = generation
        latest = finishing
        return dropped
    }

    /// Keeps `call` until the parts exist.
    mutating func keep(_ call: @escaping Call) { calls.append(call) }

    /// Registers a task that waits for the parts.
    mutating func wait(_ continuation: CheckedContinuation<Void, Never>) { waiters.append(continuation) }

    /// The preparation of `generation` finished: the kept calls, in order, and the waiters to resume. Another
    /// generation's finish (a configure replaced it) takes nothing.
    mutating func finish(generation: Int) -> (calls: [Call], waiters: [CheckedContinuation<Void, Never>])? {
        guard isPreparing, generation == self.generation else { return nil }
        defer {
            appID = nil
            calls = []
            waiters = []
        }
        return (calls, waiters)
    }
}
