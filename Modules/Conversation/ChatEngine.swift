import Foundation
import ReceptionCore

/// The chat engine of one session (Docs/Conversation.md): the send pipeline and outbox, the automatic resend
/// driver, recovery at launch, the history load, polling and event stream with the merge rule, reads, typing, the
/// sending-permission states and the connection banner. It talks to the service, storage and images only through
/// `ReceptionCore` protocols, and every timed rule runs on the injected clock.
///
/// Inputs are method calls (the person's actions and the lifecycle signals); output is a `ChatSnapshot` published
/// to observers after every change. `ChatModel` is the main-actor face of it.
public actor ChatEngine {
    /// What the engine is built from: the single injection point.
    public struct Dependencies: Sendable {
        /// Every network operation (spec 3); `Transport.ReceptionAPIClient` in production.
        public var service: any ConversationService
        /// The session's storage: window, outbox, draft and session state.
        public var store: any MessageStoring
        /// Turns picked photo files into upload-ready JPEGs.
        public var images: any ImagePreparing
        /// The session's server waits, shared with the transport that records them.
        public var cooldowns: CooldownBook
        /// Time and sleeping.
        public var clock: any ReceptionClock
        /// Client IDs of new messages.
        public var ids: any IDGenerating
        /// Backoff jitter.
        public var random: any RandomSource
        /// Where log lines go (codes and counts only, never content).
        public var logger: ReceptionLogger

        /// Makes dependencies.
        public init(
            service: any ConversationService, store: any MessageStoring, images: any ImagePreparing,
            cooldowns: CooldownBook, clock: any ReceptionClock = SystemClock(),
            ids: any IDGenerating = SystemIDGenerator(), random: any RandomSource = SystemRandomSource(),
            logger: ReceptionLogger = ReceptionLogger(category: "Conversation")
        ) {
            self.service = service
            self.store = store
            self.images = images
            self.cooldowns = cooldowns
            self.clock = clock
            self.ids = ids
            self.random = random
            self.logger = logger
        }
    }

    /// In-process bookkeeping of one own unconfirmed message (spec 7.17: budgets and `heldBy` are memory only).
    struct Outgoing {
        var budget: RetryBudget?
        var nextAttemptAt: Duration?
        var heldBy: RetryScope?
        var inFlight = false
        var pendingVisible = false
        var progress: Double?
        var pendingTimer: Task<Void, Never>?
    }

    let deps: Dependencies
    var service: any ConversationService { deps.service }
    var clock: any ReceptionClock { deps.clock }
    var logger: ReceptionLogger { deps.logger }

    // MARK: Conversation state
    /// The messages, and whether (and which) conversation exists.
    var transcript = Transcript()
    var outgoing: [String: Outgoing] = [:]
    var session = SessionState()
    /// Reads and the read generation.
    var reads = ReadTracker()
    /// Spec 7.17: the team map with its photos.
    var team = TeamRoster()
    /// Bumped by a chat reset, so a photo downloaded for the old chat is never written.
    var teamEpoch = 0
    /// Bumped whenever the profiles change, so observers compare a number instead of photo bytes.
    var teamVersion = 0
    var teamDownloads: [String: Task<Void, Never>] = [:]
    /// Per member, the link whose download failed; a newer link is tried, this one is not.
    var failedTeamLinks: [String: URL] = [:]

    /// The draft, the picked photos and the composer's own notices.
    var composer = Composer()
    /// Halt, block, verification and the permission epoch.
    var permission = SendingPermission()

    // MARK: Lifecycle
    var visible = false
    var appActive = true
    var pathAvailable = true
    var started = false
    /// Set by `shutdown()`; readable in the package so tests can wait for an ended session instead of sleeping.
    package private(set) var isShutDown = false
    /// Spec 7.8.5: visible and active (including while the first load runs).
    var watched: Bool { visible && appActive }

    // MARK: Tasks
    var attempts: [String: Task<Void, Never>] = [:]
    var driverTask: Task<Void, Never>?
    var driverSleep: Task<Void, Never>?
    var driverWaiter: CheckedContinuation<Void, Never>?
    var releaseBatch: [String] = []
    /// The opening load and polling.
    var history: HistorySync
    /// The event stream.
    var stream: LiveStream
    var ticker: Task<Void, Never>?
    var monitors: [Task<Void, Never>] = []

    /// The agent's typing indicator and the person's typing reports.
    var typing: Typing
    /// The connection banner and its timers.
    var status: ConnectionStatus

    // MARK: Output
    var observers: [UInt64: @Sendable (ChatSnapshot) -> Void] = [:]
    var nextObserver: UInt64 = 0
    var version = 0
    var events: [@Sendable (ReceptionEvent) -> Void] = []

    /// Makes an engine; call `start()` to load the cache.
    public init(_ dependencies: Dependencies) {
        self.deps = dependencies
        let service = dependencies.service
        typing = Typing(clock: dependencies.clock) { value throws(ReceptionError) in try await service.typing(value) }
        status = ConnectionStatus(clock: dependencies.clock)
        history = HistorySync(clock: dependencies.clock)
        stream = LiveStream(clock: dependencies.clock)
    }

    // MARK: - Observation

    /// Registers `observer` for every snapshot (called at once with the current one); returns a token for
    /// `removeObserver`.
    @discardableResult
    public func addObserver(_ observer: @escaping @Sendable (ChatSnapshot) -> Void) -> UInt64 {
        let id = nextObserver
        nextObserver += 1
        observers[id] = observer
        observer(snapshot)
        return id
    }

    /// Stops calling an observer.
    public func removeObserver(_ token: UInt64) { observers[token] = nil }

    /// Registers a receiver of `messageSent` / `imageSent` events (spec 3.8).
    public func onEvent(_ handler: @escaping @Sendable (ReceptionEvent) -> Void) { events.append(handler) }

    func emit(_ event: ReceptionEvent) { for handler in events { handler(event) } }

    /// Publishes the current snapshot to every observer.
    func publish() {
        guard !isShutDown else { return }
        version += 1
        let current = snapshot
        for observer in observers.values { observer(current) }
    }

    // MARK: - Start and shutdown

    /// Loads the chat from the cache (spec 7.8.7: messages still marked sending become failed and recoverable),
    /// restores the draft and the session state. Idempotent.
    public func start() {
        guard !started, !isShutDown else { return }
        started = true
        session = storing("load session state") { try deps.store.sessionState() } ?? SessionState()
        composer.setText(storing("load draft") { try deps.store.draft() } ?? "")
        var window = storing("load window") { try deps.store.loadWindow() } ?? []
        for index in window.indices where !window[index].isConfirmed && !window[index].delivery.contains(.failed) {
            // Spec 7.8.7: an attempt that was running when the process ended is rescued as a transient failure.
            window[index].delivery = DeliveryFlags([.failed, .retryAfterTransientFailure])
            let message = window[index]
            storing("rescue sending message") { try deps.store.setDelivery(message.delivery, of: message.id) }
        }
        transcript.restore(window, hasConversation: session.unread.hasConversation || window.contains { $0.isConfirmed })
        restoreTeam()
        if !window.isEmpty, !session.hasStartedChat {
            // Spec 7.3: a non-empty cache means the chat was used.
            session.hasStartedChat = true
            persistSession { $0.hasStartedChat = true }
        }
        updateBanner()
        startTicker()
        publish()
    }

    /// Attaches the platform's path monitor and lifecycle signal; each update is applied as if the host called
    /// `setNetworkAvailable` / `setAppState`.
    public func attach(network: (any NetworkPathMonitoring)?, lifecycle: (any AppLifecycleMonitoring)?) {
        if let network {
            monitors.append(Task { [weak self] in
                for await available in network.pathUpdates() { await self?.setNetworkAvailable(available) }
            })
        }
        if let lifecycle {
            monitors.append(Task { [weak self] in
                for await state in lifecycle.lifecycleUpdates() { await self?.setAppState(state) }
            })
        }
    }

    /// Stops every task (the session ended or the process is going away). Nothing learnt afterwards is applied;
    /// an attempt that was running stays *sending* in the store and is rescued by the next launch.
    public func shutdown() {
        isShutDown = true
        for task in attempts.values { task.cancel() }
        attempts.removeAll()
        for task in [driverTask, driverSleep, ticker] { task?.cancel() }
        history.stop()
        _ = stream.stop()
        typing.cancelTimers()
        status.cancelTimers()
        for task in monitors { task.cancel() }
        for task in teamDownloads.values { task.cancel() }
        for state in outgoing.values { state.pendingTimer?.cancel() }
        wakeDriver()
        observers.removeAll()
    }

    // MARK: - Storage helpers

    /// Runs a store operation; a failure is logged and remembered for the composer notice, never thrown: spec 7.17,
    /// cache write failures never block sending.
    @discardableResult
    func storing<T>(_ what: String, _ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch {
            let code = (error as? ReceptionError)?.code ?? ReceptionError.Code.storageUnavailable
            logger.error("storage: \(what) failed (\(code))")
            if code == ReceptionError.Code.storageFull || code == ReceptionError.Code.storageUnavailable {
                composer.storageFailed()
            }
            return nil
        }
    }

    func persistSession(_ change: @escaping (inout SessionState) -> Void) {
        change(&session)
        storing("save session state") { try deps.store.updateSessionState(change) }
    }

    func index(of id: String) -> Int? { transcript.index(of: id) }

    /// The messages in list order (`Transcript` owns them).
    var messages: [StoredMessage] { transcript.messages }
    /// Whether the service has a conversation for this device.
    var hasConversation: Bool { transcript.hasConversation }
    /// The conversation's ID, once known.
    var conversationID: String? { transcript.conversationID }
}
