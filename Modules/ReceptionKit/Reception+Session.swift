import Conversation
import Foundation
import Identity
import ReceptionCore
import Transport
import Unread

extension Reception {
    /// Builds the session of `scope`: store (the one a launch opened off the main actor, or opened now), cooldowns,
    /// service client wired to the identity stager, chat engine.
    @inline(never) @_optimize(size) func startSession(
        scope: StorageScope, opened: OpenedSessionStore? = nil, inheritingHalt halt: HaltReason?,
        after previous: (@Sendable () async -> Void)? = nil
    ) {
        guard let endpoint, let stager else { return }
        let configuration = self.configuration
        let opened = opened ?? Self.openSessionStore(scope: scope, configuration: configuration)
        let store = opened.store
        let state = opened.state
        let cooldowns = CooldownBook(stored: state.cooldowns, now: configuration.clock.now) { cooldowns in
            try? store.updateSessionState { $0.cooldowns = cooldowns }
        }
        let identitySession = stager.session
        let builder = DevicePayloadBuilder(facts: configuration.device)
        let preferencesBox = self.preferencesBox
        preferencesBox.set(devicePreferences())
        let generation = presentationGeneration
        let hooks = SessionHooks(
            chatRevision: { (try? store.sessionState().chatRevision) ?? 0 },
            hasStartedChat: { (try? store.sessionState().hasStartedChat) ?? false },
            devicePayload: { () throws(ReceptionError) -> DevicePayload in
                // The transport removes push fields from registrations itself; update semantics are right for both
                // (Docs/Identity.md).
                stager.devicePayload(.update, builder: builder, preferences: preferencesBox.value)
            },
            deviceSynchronised: { [weak self] payload, verifiedUserId in
                stager.deviceSynchronised(payload, session: identitySession)
                try? store.updateSessionState {
                    $0.preferences.language = payload.language
                    $0.preferences.updatesAppBadge = payload.updatesAppBadge
                    $0.preferences.availablePaywalls = payload.paywalls.map(\.id)
                    $0.preferences.badgeSynchronised = true
                }
                await self?.verifiedUserIdChanged(verifiedUserId, generation: generation)
                // Spec 7.21: queued action clicks are flushed after every successful device update.
                await self?.flushActionClicksAfterUpdate(generation: generation)
            },
            identityRejected: { [weak self] error, token in
                let outcome = stager.identityRejected(error, token: token, session: identitySession)
                await self?.handleRejection(outcome, generation: generation)
            },
            chatReset: { [weak self] revision in await self?.chatWasReset(revision: revision, generation: generation) },
            sessionRevoked: { [weak self] in await self?.sessionWasRevoked(generation: generation) },
            haltChanged: { [weak self] reason in await self?.haltChanged(reason, generation: generation) })
        let client = ReceptionAPIClient(
            .init(endpoint: endpoint, transport: configuration.transport, secureStore: configuration.secureStore,
                  scope: scope.key, cooldowns: cooldowns, clock: configuration.clock, random: configuration.random,
                  logger: logger("Transport")),
            hooks: hooks)
        let engine = ChatEngine(.init(
            service: client, storage: store.chat, images: configuration.images, photos: store.photos,
            cooldowns: cooldowns,
            clock: configuration.clock, ids: configuration.ids, random: configuration.random,
            logger: logger("Conversation")))
        let session = ReceptionSession(
            scope: scope, store: store, client: client, engine: engine)
        self.session = session
        let model = ChatModel(engine: engine)
        model.texts = chatTexts
        chat = model
        let sink = EventSink(self)
        let monitor = unreadMonitor
        let network = configuration.network
        Task {
            await Self.begin(
                session, model: model, after: previous, halt: halt, sink: sink, generation: generation,
                network: network, monitor: monitor)
        }
    }

    /// The new session's start, in the task `startSession` begins: a function compiled for size rather than the
    /// task's closure, which would be compiled at the host's `-O` (Docs/Footprint.md). The facade is reached through
    /// `sink`, weakly, as the closure's `[weak self]` did.
    @inline(never) @_optimize(size) private static func begin(
        _ session: ReceptionSession, model: ChatModel, after previous: (@Sendable () async -> Void)?,
        halt: HaltReason?, sink: EventSink, generation: Int, network: (any NetworkPathMonitoring)?,
        monitor: UnreadMonitor?
    ) async {
        let engine = session.engine
        await previous?()
        if let halt { await session.client.inheritHalt(halt) }
        await engine.onEvent { event in sink.deliver(event, generation: generation) }
        await engine.start()
        // The facade follows the lifecycle and tells the engine (Reception+Appearance.swift).
        await engine.attach(network: network, lifecycle: nil)
        // The state now, not when the session was made: a lifecycle change meanwhile reached an engine that had not
        // started and was dropped.
        let active = sink.reception?.foreground.isActive ?? true
        await engine.setAppState(active ? .active : .background)
        await model.connect()
        if sink.reception?.isChatOpen == true { await engine.setVisible(true) }
        if let monitor, let reception = sink.reception {
            await reception.followReads(of: engine, monitor: monitor)
            await reception.attachUnread(session, monitor: monitor)
        }
    }

    /// Spec 7.6: an activated session sends its device update now, so the service has the changed preferences.
    /// (The launch and foreground updates belong to the unread monitor, which orders them before its unread GET.)
    @inline(never) @_optimize(size) func synchronisePreferences() async {
        guard let session, foreground.isActive, await session.isActivated() else { return }
        try? await session.client.updateDevice(probe: false, allowRegistration: false)
    }

    /// The synchronised preferences as the payload needs them (spec 7.6).
    @inline(never) @_optimize(size) func devicePreferences() -> DevicePreferences {
        DevicePreferences(
            languageOverride: languageOverride, preferredLocalizations: configuration.preferredLocalizations,
            updatesAppBadge: updatesAppBadge, paywalls: availablePaywalls)
    }

    /// A synchronised preference changed (spec 7.6): the payload source sees the new values at once, and a used,
    /// registered chat sends an update now (its own retry budget lives in the client's coalesced updates).
    @inline(never) @_optimize(size) func preferencesChanged() {
        preferencesBox.set(devicePreferences())
        guard isConfigured else { return }
        Task { [weak self] in await self?.synchronisePreferences() }
    }

    /// Calls on the session's other actors that the facade starts and does not wait for.
    enum Job: Sendable {
        /// A replaced session winds down.
        case endSession(ReceptionSession)
        /// A replaced unread monitor stops.
        case endUnread(UnreadMonitor)
        /// A message was sent: the monitor's count follows.
        case messageSent(UnreadMonitor)
        /// The app became active or went to the background: the engine first, then the unread monitor.
        case appState(active: Bool, ChatEngine, UnreadMonitor?)
        /// The chat closed: the engine stops watching, then the monitor refreshes the count (the visibility line).
        case chatClosed(ChatEngine, UnreadMonitor?)
        /// The chat opened: the monitor holds the count (the visibility line).
        case countChatOpened(UnreadMonitor?)
        /// An opening whose device update ended: the engine watches the chat (the visibility line).
        case chatShown(ChatEngine)
    }

    /// Runs `job` in a task of its own started on the main actor, as a `Task { await … }` at each call site did: one
    /// task closure for all of them (Docs/Footprint.md, "A task closure per call site").
    @inline(never) @_optimize(size) static func post(_ job: Job) {
        Task { await run(job) }
    }

    @inline(never) @_optimize(size) static func run(_ job: Job) async {
        switch job {
        case .endSession(let session): await session.end()
        case .endUnread(let monitor): await monitor.endSession()
        case .messageSent(let monitor): await monitor.messageSent()
        case .appState(true, let engine, let monitor):
            await engine.setAppState(.active)
            await monitor?.appBecameActive()
        case .appState(false, let engine, let monitor):
            await engine.setAppState(.background)
            await monitor?.appEnteredBackground()
        case .chatClosed(let engine, let monitor):
            await engine.setVisible(false)
            await monitor?.chatVisibilityChanged(visible: false)
        case .countChatOpened(let monitor): await monitor?.chatVisibilityChanged(visible: true)
        case .chatShown(let engine): await engine.setVisible(true)
        }
    }

    /// Hands engine events (from the engine's actor) to the facade on the main actor.
    /// `@unchecked Sendable`: its one stored property is a weak reference, set once in `init` and only read
    /// afterwards (`weak let` would say so, but needs Swift 6.2; the package supports 6.0).
    final class EventSink: @unchecked Sendable {
        private(set) weak var reception: Reception?
        @_optimize(size) init(_ reception: Reception) { self.reception = reception }
        // Never inlined: the engine's event closure calls it, and closures are compiled at -O (Docs/Footprint.md).
        @inline(never) @_optimize(size) func deliver(_ event: ReceptionEvent, generation: Int) {
            Task { @MainActor [reception] in reception?.deliver(event, generation: generation) }
        }
    }

    @inline(never) @_optimize(size) func deliver(_ event: ReceptionEvent, generation: Int) {
        // Events of a replaced session still reach the host (a late send confirmation is still a send).
        if event == .messageSent, generation == presentationGeneration, let unreadMonitor {
            Self.post(.messageSent(unreadMonitor))
        }
        onEvent?(event)
    }

    @inline(never) @_optimize(size) func flushActionClicksAfterUpdate(generation: Int) {
        guard generation == presentationGeneration, let session,
              (try? session.store.sessionState().pendingActionClicks.isEmpty) == false else { return }
        flushActionClicks(session)
    }

    @inline(never) @_optimize(size) func verifiedUserIdChanged(_ verifiedUserId: String?, generation: Int) {
        guard generation == presentationGeneration else { return }
        refreshIdentityState(verified: verifiedUserId)
    }

    @inline(never) @_optimize(size) func refreshIdentityState(verified: String?? = nil) {
        guard let stager else {
            identityState = .anonymous
            return
        }
        let verifiedID: String?
        if let verified {
            verifiedID = verified
        } else {
            verifiedID = try? IdentityStager.verifiedUserIdReader(
                secureStore: configuration.secureStore, scope: { [scopeBox] in scopeBox.value })()
        }
        if let verifiedID {
            identityState = .verified(userId: verifiedID)
        } else if let label = stager.pendingIdentity.externalUserId {
            identityState = .labelled(userId: label)
        } else {
            identityState = .anonymous
        }
    }

    @inline(never) @_optimize(size) func haltChanged(_ reason: HaltReason?, generation: Int) async {
        guard generation == presentationGeneration, let session else { return }
        await session.engine.haltChanged(reason)
        await appearanceRefresher?.setHalted(reason != nil)
    }

    @inline(never) @_optimize(size) func chatWasReset(revision: Int, generation: Int) async {
        guard generation == presentationGeneration, let session else { return }
        // The engine resets the store and its memory in one turn, so no late write can slip in between.
        await session.engine.chatReset(revision: revision)
        await unreadMonitor?.chatWasReset()
    }

    @inline(never) @_optimize(size) func handleRejection(_ outcome: TokenRejectionOutcome, generation: Int) {
        guard generation == presentationGeneration else { return }
        switch outcome {
        case .rejected(let event):
            onEvent?(event)
        case .switchUser:
            resetLocally(cause: .switchedUser)
        case .ignored:
            break
        }
    }

    @inline(never) @_optimize(size) func sessionWasRevoked(generation: Int) {
        guard generation == presentationGeneration else { return }
        resetLocally(cause: .revoked)
    }

    /// A client outside any session, for requests that carry their own secret (revocation, deletion): it has no
    /// token, no registration and no cooldowns of its own to respect (both routes are exempt, spec 6.1).
    @inline(never) @_optimize(size) nonisolated static func standaloneClient(
        endpoint: ServiceEndpoint, configuration: ReceptionConfiguration, logger: ReceptionLogger
    ) -> ReceptionAPIClient {
        ReceptionAPIClient(
            .init(endpoint: endpoint, transport: configuration.transport, secureStore: configuration.secureStore,
                  scope: "standalone", cooldowns: CooldownBook(now: configuration.clock.now),
                  clock: configuration.clock, random: configuration.random, logger: logger),
            hooks: SessionHooks(devicePayload: { () throws(ReceptionError) -> DevicePayload in
                throw ReceptionError(code: ReceptionError.Code.invalidDeviceInfo)
            }))
    }

    @inline(never)
    @_optimize(size) func standaloneClient(endpoint: ServiceEndpoint, category: String) -> ReceptionAPIClient {
        Self.standaloneClient(endpoint: endpoint, configuration: configuration, logger: logger(category))
    }

    /// Sends the queued logout revocations one after the other while the app is active (spec 7.15), through the
    /// queue's single drain: asked for while one runs, it makes that one go round again instead of starting another.
    @inline(never) @_optimize(size) func drainRevocations() {
        guard let revocations, let endpoint, foreground.isActive else { return }
        let configuration = self.configuration
        let log = logger("Logout")
        let root = endpoint.root
        revocations.setActive(true)
        revocations.startDrain(RevocationQueue.Sender(
            revoke: { entry throws(ReceptionError) in
                // An entry whose App ID no longer makes an endpoint fails permanently and is dropped.
                let target = try ServiceEndpoint(appID: entry.appId, root: root)
                let client = Self.standaloneClient(endpoint: target, configuration: configuration, logger: log)
                try await client.revokeSession(secret: entry.sessionSecret)
            },
            clock: configuration.clock, random: configuration.random))
    }
}
