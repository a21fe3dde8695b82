import Foundation
import Identity
import ReceptionCore

/// What a launch's preparation read off the main actor: the data folder's preferences and scopes, the pending
/// identity, the session's open store and its state, and the cached published appearance. A class: it is handed
/// over once and never copied, and as a struct its copy, move and destroy functions cost the app 5 kB.
final class PreparedLaunch: Sendable {
    let preferences: FilePreferences
    let namespaces: StorageNamespaces
    /// The current session scope (spec 7.1 steps 4–5).
    let scope: StorageScope
    /// Scopes a logout that the preferences file missed retired: their secrets are revoked and removed on the main
    /// actor, where the revocation queue lives, before the rotation's record goes (`nil`: none was recorded).
    let retired: [StorageScope]?
    let stager: IdentityStager
    let session: OpenedSessionStore
    let appearanceCache: AppearanceCache
    let cachedAppearance: RemoteAppearance?

    @inline(never) @_optimize(size) init(
        preferences: FilePreferences, namespaces: StorageNamespaces, scope: StorageScope, retired: [StorageScope]?,
        stager: IdentityStager, session: OpenedSessionStore, appearanceCache: AppearanceCache,
        cachedAppearance: RemoteAppearance?
    ) {
        self.preferences = preferences
        self.namespaces = namespaces
        self.scope = scope
        self.retired = retired
        self.stager = stager
        self.session = session
        self.appearanceCache = appearanceCache
        self.cachedAppearance = cachedAppearance
    }
}

/// A session's store, open, with the state it held when opened. A class, like `PreparedLaunch`: handed over, never
/// copied.
final class OpenedSessionStore: Sendable {
    let store: SessionStore
    let state: SessionState

    @inline(never) @_optimize(size) init(store: SessionStore, state: SessionState) {
        self.store = store
        self.state = state
    }
}

extension Reception {
    /// Starts preparing a configure's storage off the main actor; the parts are built on it when that is done
    /// (`finishLaunch`). A preparation starts after the previous one finished, so two never use a data folder at once.
    @inline(never) @_optimize(size) func prepareLaunch(appID: String, configuration: ReceptionConfiguration) {
        let generation = presentationGeneration
        let previous = launch.latest
        let scopeBox = self.scopeBox
        let prepared = Task.detached(priority: .userInitiated) {
            await previous?.value
            return Self.prepareStorage(appID: appID, configuration: configuration, scopeBox: scopeBox)
        }
        let finishing = Task { [weak self] in
            let launch = await prepared.value
            self?.finishLaunch(launch, appID: appID, configuration: configuration, generation: generation)
        }
        let dropped = launch.begin(appID: appID, generation: generation, finishing: finishing)
        if !dropped.isEmpty {
            logger("Configuration").write(
                .info, "\(dropped.count) calls made before the replaced configuration was ready were dropped")
            for call in dropped { call.drop() }
        }
    }

    /// How many calls wait for the launch (tests order their calls by it).
    @_optimize(size) var keptCallCount: Int { launch.keptCount }

    /// Returns once the latest configure's parts exist: at once when none is being prepared.
    @inline(never) @_optimize(size) package func waitUntilReady() async {
        guard launch.isPreparing else { return }
        await withCheckedContinuation { launch.wait($0) }
    }

    /// The launch's storage work, off the main actor: the data folder, its preferences and the current scope (a
    /// logout the file missed is completed first, issue 15), a restored chat without its secret cleared (spec 7.1
    /// step 5), the pending identity, the session's store and the cached published appearance (step 3).
    @inline(never) @_optimize(size) nonisolated static func prepareStorage(
        appID: String, configuration: ReceptionConfiguration, scopeBox: ScopeBox
    ) -> PreparedLaunch {
        let log = logger("Configuration")
        // Issue 15: the data folder is the owner's only (0700); every file in it is created 0600.
        do { try PrivateFiles.createFolder(configuration.dataDirectory) } catch {
            log.write(.error, "the data folder could not be created (\(error.code))")
        }
        let preferences = FilePreferences.shared(
            url: configuration.dataDirectory.appendingPathComponent("preferences.json"),
            write: configuration.writePreferencesFile, logger: logger("Preferences"))
        let namespaces = StorageNamespaces(
            preferences: preferences, idGenerator: configuration.ids,
            journal: RotationJournal(store: configuration.secureStore, logger: logger("Session")),
            logger: logger("Session"))
        var (scope, retired) = namespaces.currentKeepingRecord(appID: appID)
        // Spec 7.1 step 5: a chat whose secret is *missing* (a restored backup: secure items are device-bound) is
        // cleared and a new generation rotated in. An unreadable secure store is not "missing". The store opened
        // for the check serves the session when it stays.
        var kept: (any MessageStoring)?
        if configuration.secureStore.read(.session(scope: scope.key)) == .missing,
           let existing = try? configuration.messageStore(configuration.dataDirectory, scope, logger("MessageCache")) {
            if (try? existing.sessionState().hasStartedChat) == true || !((try? existing.loadWindow()) ?? []).isEmpty {
                scope = namespaces.rotate(appID: appID)
                try? existing.rotate(to: scope)
                log.write(.info, "a restored chat without its session secret was cleared")
            } else {
                kept = existing
            }
        }
        scopeBox.set(scope.key)
        // Preferences of older scopes (an earlier version's logout left them) hold a previous user's identity.
        namespaces.removeEarlierScopes(of: scope)
        let stager = IdentityStager(
            store: pendingIdentityStore(preferences, scopeBox: scopeBox),
            verifiedUserId: IdentityStager.verifiedUserIdReader(
                secureStore: configuration.secureStore, scope: { scopeBox.value }),
            logger: logger("Identity"))
        let session = openSessionStore(scope: scope, configuration: configuration, opened: kept)
        let cache = AppearanceCache(preferences: FilePreferences.shared(
            url: configuration.dataDirectory.appendingPathComponent("appearance.json"),
            write: configuration.writePreferencesFile))
        return PreparedLaunch(
            preferences: preferences, namespaces: namespaces, scope: scope, retired: retired, stager: stager,
            session: session, appearanceCache: cache, cachedAppearance: cache.load(appID: appID))
    }

    /// Opens the store and the photo cache of `scope` (or takes a store already open) behind a session's gate, and
    /// reads its state. A store that cannot be opened leaves the chat in memory.
    @inline(never) @_optimize(size) nonisolated static func openSessionStore(
        scope: StorageScope, configuration: ReceptionConfiguration, opened: (any MessageStoring)? = nil
    ) -> OpenedSessionStore {
        let inner: any MessageStoring
        if let opened {
            inner = opened
        } else {
            do {
                inner = try configuration.messageStore(configuration.dataDirectory, scope, logger("MessageCache"))
            } catch {
                logger("MessageCache").write(.error, 
                    "the message store could not be opened (\(error.code)); the chat runs in memory")
                inner = UnavailableMessageStore(scope: scope)
            }
        }
        // Issue 39: the scope's photo cache (opening it removes the App ID's other scopes' photos); one that cannot
        // be opened caches nothing, and photos are downloaded each time.
        let photos: any PhotoCaching
        do {
            photos = try configuration.photoCache(configuration.dataDirectory, scope, logger("MessageCache"))
        } catch {
            logger("MessageCache").write(
                .error, "the photo cache could not be opened (\(error.code)); photos are not kept")
            photos = NoPhotoCache()
        }
        // Closed when the session ends, so the old session's late writes never reach the next one (SessionStore).
        let store = SessionStore(inner, photos: photos)
        return OpenedSessionStore(store: store, state: (try? store.sessionState()) ?? SessionState())
    }

    /// The pending identity lives in the plain preferences under `<scope>.pending` (spec 7.17).
    @inline(never) @_optimize(size)
    nonisolated static func pendingIdentityStore(_ preferences: FilePreferences, scopeBox: ScopeBox) -> PendingIdentityStore {
        PendingIdentityStore(
            load: { loadPendingIdentity(preferences, key: "\(scopeBox.value).pending") },
            save: { savePendingIdentity($0, preferences, key: "\(scopeBox.value).pending") })
    }

    // The pending identity's load and save. Never inlined: the store's closures call them, and closures are
    // compiled at -O (Docs/Footprint.md).

    @inline(never) @_optimize(size)
    nonisolated static func loadPendingIdentity(_ preferences: FilePreferences, key: String) -> PendingIdentity? {
        guard let text = preferences[key] else { return nil }
        return try? JSONDecoder().decode(PendingIdentity.self, from: UTF8Bytes.data(text))
    }

    @inline(never) @_optimize(size)
    nonisolated static func savePendingIdentity(_ pending: PendingIdentity, _ preferences: FilePreferences, key: String) {
        guard let data = try? JSONEncoder().encode(pending) else { return }
        preferences[key] = String(decoding: data, as: UTF8.self)
    }

    /// The storage is ready: the retired scopes are swept, the parts built, the session started, and the calls kept
    /// meanwhile run in order, then the waiters resume. A preparation that a later configure replaced builds nothing
    /// (its record of a missed rotation stays for the next launch); if a logout was kept for it, its storage is
    /// signed out all the same (`signOutReplaced`).
    // Never inlined: the launch task calls it from a closure, and closures are compiled at -O (Docs/Footprint.md).
    @inline(never) @_optimize(size) private func finishLaunch(
        _ prepared: PreparedLaunch, appID: String, configuration: ReceptionConfiguration, generation: Int
    ) {
        guard let kept = launch.finish(generation: generation) else {
            if launch.takeSignOut(generation: generation) {
                signOutReplaced(prepared, appID: appID, secureStore: configuration.secureStore)
            }
            return
        }
        defer { for waiter in kept.waiters { waiter.resume() } }
        if let retired = prepared.retired {
            for scope in retired {
                Self.retireSecrets(of: scope, store: configuration.secureStore, revocations: revocations)
            }
            prepared.namespaces.retiredScopesSwept(appID: appID)
        }
        // Spec 7.1 step 6: the count restarts at 0 without touching the badge (the service's value follows).
        app?.parts = ConfiguredParts(
            preferences: prepared.preferences, namespaces: prepared.namespaces, stager: prepared.stager,
            unreadMonitor: makeUnreadMonitor(configuration), pushRouter: makePushRouter(configuration))
        startSession(scope: prepared.scope, opened: prepared.session, inheritingHalt: nil)
        // A chat screen already on screen (embedded before configure) opens the new session's chat.
        chatPresenceChanged()
        refreshIdentityState()
        // Spec 7.1 step 3: the cached published appearance of this App ID, then the refresh loop.
        startAppearance(appID: appID, cache: prepared.appearanceCache, cached: prepared.cachedAppearance)
        drainRevocations()
        logger("Configuration").write(.info, "configured")
        for call in kept.calls { call.run() }
    }

    /// A `logout()` made for a configuration the host replaced before it was ready: that App ID's storage is signed
    /// out as the logout would have done it (spec 7.15): a new generation (which removes the old scope's pending
    /// identity from the preferences), the session secret queued for revocation and removed, the chat erased.
    @inline(never) @_optimize(size)
    private func signOutReplaced(_ prepared: PreparedLaunch, appID: String, secureStore: any SecureStoring) {
        let newScope = prepared.namespaces.rotate(appID: appID)
        let queue = revocations?.keeps(secureStore) == true
            ? revocations : RevocationQueue(store: secureStore, logger: logger("Logout"))
        Self.retireSecrets(of: prepared.scope, store: secureStore, revocations: queue)
        do {
            try prepared.session.store.closeAndRotate(to: newScope)
        } catch {
            logger("Session").write(.error, "the replaced configuration's chat could not be erased now (\(error.code))")
        }
        logger("Session").write(.info, "the logout made before the configuration was replaced signed its storage out")
    }
}
