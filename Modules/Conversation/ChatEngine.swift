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
        /// The session's storage in the roles the engine uses (window, outbox, draft, session state, team, reset),
        /// behind the gate the session's owner closes when the session ends.
        public var store: StoreGate<any ChatStoring>
        /// Turns picked photo files into upload-ready JPEGs.
        public var images: any ImagePreparing
        /// The bytes of confirmed photos, downloaded or uploaded, so each is fetched once (`photo(_:)`); behind the
        /// gate the session's owner closes when the session ends. Keeps nothing unless given.
        public var photos: StoreGate<any PhotoCaching>
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

        /// Makes dependencies over `store`, which stays open for the engine's whole life.
        @inline(never) @_optimize(size) public init(
            service: any ConversationService, store: any ChatStoring, images: any ImagePreparing,
            photos: any PhotoCaching = NoPhotoCache(), cooldowns: CooldownBook, clock: any ReceptionClock = SystemClock(),
            ids: any IDGenerating = SystemIDGenerator(), random: any RandomSource = SystemRandomSource(),
            logger: ReceptionLogger = ReceptionLogger(category: "Conversation")
        ) {
            self.init(
                service: service, storage: StoreGate(store), images: images, photos: StoreGate(photos),
                cooldowns: cooldowns, clock: clock, ids: ids, random: random, logger: logger)
        }

        /// Makes dependencies over a store and a photo cache the caller closes when the session ends (the facade's
        /// `SessionStore`).
        @inline(never) @_optimize(size) public init(
            service: any ConversationService, storage: StoreGate<any ChatStoring>, images: any ImagePreparing,
            photos: StoreGate<any PhotoCaching> = StoreGate(NoPhotoCache()), cooldowns: CooldownBook, clock: any ReceptionClock = SystemClock(),
            ids: any IDGenerating = SystemIDGenerator(), random: any RandomSource = SystemRandomSource(),
            logger: ReceptionLogger = ReceptionLogger(category: "Conversation")
        ) {
            self.service = service
            self.store = storage
            self.images = images
            self.photos = photos
            self.cooldowns = cooldowns
            self.clock = clock
            self.ids = ids
            self.random = random
            self.logger = logger
        }
    }

    let deps: Dependencies
    @_optimize(size) var service: any ConversationService { deps.service }
    @_optimize(size) var clock: any ReceptionClock { deps.clock }
    @_optimize(size) var logger: ReceptionLogger { deps.logger }

    // MARK: The parts (each owns its state; the actor serialises them)

    /// The session's stored facts (cursor, started chat, limit check, chat revision), mirrored from the store.
    var session = SessionState()
    /// The messages, and whether (and which) conversation exists.
    var transcript = Transcript()
    /// Budgets, holds, attempts and the release batch of own unconfirmed messages.
    let outbox: Outbox
    /// The one automatic resend loop.
    let driver: ResendDriver
    /// The opening load and polling.
    let history: HistorySync
    /// The event stream.
    let stream: LiveStream
    /// Reads and the read generation.
    var reads = ReadTracker()
    /// The agent's typing indicator and the person's typing reports.
    let typing: Typing
    /// The draft, the picked photos and the composer's own notices.
    var composer = Composer()
    /// Halt, block, verification and the permission epoch.
    var permission = SendingPermission()
    /// The connection banner and its timers.
    let status: ConnectionStatus
    /// The team roster and its photo downloads.
    let team = Team()
    /// The expired links of confirmed photos and their resolutions.
    let links = AttachmentLinks()
    /// Reads and writes the session's photo cache off the engine's executor.
    let photoKeeper: PhotoKeeper
    /// Downloads in flight by attachment ID (issue 50): a tile and the viewer loading the same photo at once share
    /// one download. A handful at a time: a `KeyedList`, not a dictionary (Docs/Footprint.md).
    var photoDownloads = KeyedList<PhotoDownload>()
    /// Loads that joined a download in flight instead of starting one (a test's signal).
    var sharedPhotoDownloads = 0
    /// Snapshot observers and event receivers.
    let observers = Observers()
    /// The chat reset (its revision) this engine last applied (spec 7.12). One reset is often reported twice: by the
    /// request that met the 409 and by the client's hook, which hears of every 409. The second report can arrive
    /// after the person sent again, and applying it again would take that new message with the old chat.
    var appliedChatReset: Int?
    /// The transcript as last published and its revision (`snapshot`).
    let published = PublishedTranscript()

    // MARK: Lifecycle (the engine's own inputs)

    var visible = false
    var appActive = true
    var pathAvailable = true
    var started = false
    /// Watched since the last opening, whose opening load has not ended (`ChatSnapshot.isOpening`).
    var isOpening = false
    /// Set by `shutdown()`; readable in the package so tests can wait for an ended session instead of sleeping.
    private(set) var isShutDown = false
    /// Spec 6.3.4: the one timer that announces the end of a wait.
    var ticker: Task<Void, Never>?
    /// The path monitor and lifecycle signal loops.
    var monitors: [Task<Void, Never>] = []
    /// Spec 7.8.5: visible and active (including while the first load runs).
    @_optimize(size) var watched: Bool { visible && appActive }

    /// Makes an engine; call `start()` to load the cache.
    @inline(never) @_optimize(size) public init(_ dependencies: Dependencies) {
        self.deps = dependencies
        photoKeeper = PhotoKeeper(dependencies.photos)
        let clock = dependencies.clock
        let service = dependencies.service
        outbox = Outbox(clock: clock)
        driver = ResendDriver(clock: clock)
        history = HistorySync(clock: clock)
        stream = LiveStream(clock: clock)
        typing = Typing(clock: clock) { value throws(ReceptionError) in try await service.typing(value) }
        status = ConnectionStatus(clock: clock)
    }

    // MARK: - Observation

    /// Registers `observer` for every snapshot (called at once with the current one); returns a token for
    /// `removeObserver`.
    @discardableResult
    @inline(never)
    @_optimize(size) public func addObserver(_ observer: @escaping @Sendable (ChatSnapshot) -> Void) -> UInt64 {
        let token = observers.add(observer)
        observer(snapshot)
        return token
    }

    /// Stops calling an observer.
    @_optimize(size) public func removeObserver(_ token: UInt64) { observers.remove(token) }

    /// Registers a receiver of `messageSent` / `imageSent` events (spec 3.8).
    @_optimize(size) public func onEvent(_ handler: @escaping @Sendable (ReceptionEvent) -> Void) {
        observers.addEventHandler(handler)
    }

    @_optimize(size) func emit(_ event: ReceptionEvent) { observers.emit(event) }

    /// Publishes the current snapshot to every observer; `transcriptChanged: false` when only the composer did.
    @inline(never) @_optimize(size) func publish(transcriptChanged: Bool = true) {
        guard !isShutDown else { return }
        observers.advanceVersion()
        observers.notify(snapshot(refreshingTranscript: transcriptChanged))
    }

    // MARK: - Start and shutdown

    /// Loads the chat from the cache (spec 7.8.7: messages still marked sending become failed and recoverable),
    /// restores the draft and the session state. Idempotent.
    @inline(never) @_optimize(size) public func start() {
        guard !started, !isShutDown else { return }
        started = true
        session = reading("load session state", orIfClosed: SessionState()) { try $0.sessionState() } ?? SessionState()
        composer.setText(reading("load draft", orIfClosed: "") { try $0.draft() } ?? "")
        var window = reading("load window", orIfClosed: []) { try $0.loadWindow() } ?? []
        for index in window.indices where !window[index].isConfirmed && !window[index].delivery.contains(.failed) {
            // Spec 7.8.7: an attempt that was running when the process ended is rescued as a transient failure.
            window[index].delivery = DeliveryFlags([.failed, .retryAfterTransientFailure])
            let message = window[index]
            storing("rescue sending message") { try $0.setDelivery(message.delivery, of: message.id) }
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
    @inline(never) @_optimize(size)
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
    @inline(never) @_optimize(size) public func shutdown() {
        isShutDown = true
        outbox.cancelAll()
        driver.stop()
        history.stop()
        _ = stream.stop()
        ticker?.cancel()
        typing.cancelTimers()
        status.cancelTimers()
        for task in monitors { task.cancel() }
        team.cancelDownloads()
        links.clear()
        observers.removeAll()
    }

    // MARK: - Background work

    /// The engine's own background work, each run in a task that holds the engine weakly.
    enum Job: Sendable {
        case deliver(String, userInitiated: Bool)
        case openingLoad, poll, stream, tick, driver, probeBlocked
    }

    /// Starts `job` as `Task { [weak self] in await self?.… }` did at each call site: one task closure for all of
    /// them rather than one per site (Docs/Footprint.md, "A task closure per call site").
    @inline(never) @_optimize(size) func spawn(_ job: Job) -> Task<Void, Never> {
        Task { [weak self] in await self?.run(job) }
    }

    @inline(never) @_optimize(size) private func run(_ job: Job) async {
        switch job {
        case .deliver(let id, let userInitiated): await deliver(id, userInitiated: userInitiated)
        case .openingLoad: await openingLoad()
        case .poll: await runPoll()
        case .stream: await runStream()
        case .tick: await tick()
        case .driver: await runDriver()
        case .probeBlocked: await probeBlocked()
        }
    }

    // MARK: - Storage helpers

    /// Runs a store write; a failure is logged and remembered for the composer notice, never thrown: spec 7.17,
    /// cache write failures never block sending.
    @discardableResult
    @_semantics("optimize.sil.specialize.generic.never")
    @inline(never) @_optimize(size)
    func storing<T: Sendable>(_ what: String, _ body: (any ChatStoring) throws -> T) -> T? {
        logged(what) { try deps.store.write(body) }
    }

    /// Runs a store read the same way; a closed store reads as `empty`.
    @_semantics("optimize.sil.specialize.generic.never")
    @inline(never) @_optimize(size)
    func reading<T: Sendable>(_ what: String, orIfClosed empty: T, _ body: (any ChatStoring) throws -> T) -> T? {
        logged(what) { try deps.store.read(orIfClosed: empty, body) }
    }

    // One copy for every result type: specialised per type it was five (Docs/Footprint.md).
    @_semantics("optimize.sil.specialize.generic.never")
    @inline(never) @_optimize(size) private func logged<T>(_ what: String, _ access: () throws -> T) -> T? {
        do {
            return try access()
        } catch {
            let code = (error as? ReceptionError)?.code ?? ReceptionError.Code.storageUnavailable.rawValue
            logger.write(.error, "storage: \(what) failed (\(code))")
            if code == ReceptionError.Code.storageFull || code == ReceptionError.Code.storageUnavailable {
                composer.storageFailed()
            }
            return nil
        }
    }

    @inline(never) @_optimize(size) func persistSession(_ change: @escaping (inout SessionState) -> Void) {
        Self.apply(change, to: &session)
        storing("save session state") { try $0.updateSessionState(change) }
    }

    /// Applies `change`; `persistSession` hands its closure here rather than calling it, so the compiler keeps one
    /// copy of `persistSession`, not one per closure passed to it (Docs/Footprint.md, "Size on iOS").
    @inline(never) @_optimize(size)
    private static func apply(_ change: (inout SessionState) -> Void, to state: inout SessionState) {
        change(&state)
    }

    @_optimize(size) func index(of id: String) -> Int? { transcript.index(of: id) }

    /// The messages in list order (`Transcript` owns them).
    @_optimize(size) var messages: [StoredMessage] { transcript.messages }
    /// Whether the service has a conversation for this device.
    @_optimize(size) var hasConversation: Bool { transcript.hasConversation }
    /// The conversation's ID, once known.
    @_optimize(size) var conversationID: String? { transcript.conversationID }
}
