import Conversation
import Foundation
import Identity
import ReceptionCore
import Transport

extension Reception {
    /// Why the local session is being reset (spec 7.5, 7.14.3 step 6, 7.15).
    enum ResetCause {
        /// `logout()`: everything of the user goes.
        case logout
        /// `deleteData()` completed: as logout, without a revocation.
        case deleted
        /// A token for another user: the stager already holds the new user's token and the push registration.
        case switchedUser
        /// The service revoked the session: labels, metadata and push stay for the next registration; the chat UI
        /// stays on screen.
        case revoked
    }

    // MARK: - Identity (spec 7.14)

    /// Labels the device with your user's ID, name and email (unverified), replacing all three staged values.
    /// Values over their limits (255 / 200 / 254 UTF-16 units) are dropped, not shortened; `nil` leaves the
    /// service's value as it is (seed 000: it stays unset on registration and unchanged on an existing device), so
    /// passing all three as `nil` neither clears the service's identity nor starts a new session. `userId` is
    /// required at the call site but may be `nil`, so an optional ID from your sign-in passes straight through.
    /// Nothing is sent now: the labels travel with the next registration or device update.
    @inline(never) @_optimize(size) public func identify(userId: String?, name: String? = nil, email: String? = nil) {
        whenConfigured("identify(userId:)") { [weak self] _, stager in
            stager.identify(userId: userId, name: name, email: email)
            self?.refreshIdentityState()
        }
    }

    /// Stages a verified identity: an HS256 token your server signed with the identity secret. Kept in memory
    /// only; it travels with the next registration or update. A token for another user replaces the chat.
    @inline(never) @_optimize(size) public func identify(token: String) {
        whenConfigured("identify(token:)") { [weak self] session, stager in
            switch stager.identify(token: token) {
            case .staged:
                Task { await session.engine.identityTokenStaged() }
            case .switchUser:
                self?.resetLocally(cause: .switchedUser)
            case .ignored:
                break
            }
        }
    }

    /// Replaces the customer details shown to your team (at most 20 entries; keys 1–64 and values up to 512
    /// UTF-16 units; more than 20 entries sends none). `[:]` clears them.
    @inline(never) @_optimize(size) public func setMetadata(_ metadata: [String: String]) {
        whenConfigured("setMetadata") { _, stager in stager.setMetadata(metadata) }
    }

    // MARK: - Logout and deletion (spec 7.15, seed 000)

    /// Signs the current user out of support: the local session is reset at once (identity, metadata, push token,
    /// cached chat, drafts, pending sends, unread count), the remote sign-out is queued and retried while the app
    /// is active, and the storage generation is rotated so nothing of this user is readable afterwards.
    /// Configuration, language override, badge preference and the event handler remain.
    @inline(never) @_optimize(size) public func logout() {
        whenConfigured("logout", logout: true) { [weak self] _, _ in self?.resetLocally(cause: .logout) }
    }

    /// Deletes this device's support data on the service, then resets locally as logout does and emits
    /// `.dataDeleted`. Throws a `ReceptionError` (and keeps the session for a retry) when the service could not
    /// confirm: `connection_failed`, `secure_storage_unavailable`, `delete_failed`, …. Before `configure` it does
    /// nothing at all. Called while the configuration is still being read (right after `configure`), it takes its
    /// turn after the calls made before it; `cancelled` when another `configure` replaces that configuration first.
    ///
    /// Declared `async throws`, as seed 000 documents it, so the document's `catch let error as ReceptionError`
    /// compiles without an always-true-cast warning; every error it throws is a `ReceptionError`.
    @inline(never) @_optimize(size) public func deleteData() async throws {
        let start: Result<DeletionStart?, ReceptionError>
        if launch.isPreparing {
            // Its turn among the calls made before the launch is ready: what it deletes is read then, so a logout
            // made after it cannot empty the session first. A configure that replaces the launch first cancels it.
            start = await withCheckedContinuation { continuation in
                launch.keep(LaunchState.Call(
                    run: { [weak self] in continuation.resume(returning: self?.deletionStart() ?? .success(nil)) },
                    drop: { continuation.resume(returning: .failure(ReceptionError(code: ReceptionError.Code.cancelled))) }))
            }
        } else {
            start = deletionStart()
        }
        guard let start = try start.get() else { return }
        if let credentials = start.credentials {
            // A client of its own, so replacing the session (logout, a new user) cannot cancel the deletion.
            let client = standaloneClient(endpoint: start.endpoint, category: "Deletion")
            try await client.deleteDevice(secret: credentials.sessionSecret)
        }
        // A configure or logout that happened meanwhile owns the newer session: leave it alone.
        if start.generation == presentationGeneration { resetLocally(cause: .deleted) }
        onEvent?(.dataDeleted)
    }

    /// What a deletion reads when it starts: `nil` before `configure`. A class: made once and only read (as a
    /// struct it carried copy, move and destroy functions of its own; Docs/Footprint.md, "Size on iOS").
    final class DeletionStart: Sendable {
        let endpoint: ServiceEndpoint
        let generation: Int
        /// `nil`: no session secret is stored (an unused chat), so there is nothing to delete on the service.
        let credentials: SessionCredentials?

        @inline(never)
        @_optimize(size) init(endpoint: ServiceEndpoint, generation: Int, credentials: SessionCredentials?) {
            self.endpoint = endpoint
            self.generation = generation
            self.credentials = credentials
        }
    }

    /// Reads the session secret now: a logout during the request deletes the stored item, and the answer must still
    /// count.
    @inline(never) @_optimize(size) private func deletionStart() -> Result<DeletionStart?, ReceptionError> {
        guard isConfigured, let session, let endpoint else { return .success(nil) }
        do throws(ReceptionError) {
            let credentials = try SessionCredentials.read(from: configuration.secureStore, scope: session.scope.key)
            return .success(DeletionStart(endpoint: endpoint, generation: presentationGeneration, credentials: credentials))
        } catch {
            return .failure(error)
        }
    }

    /// Spec 7.15 step 2: ends the current session and starts a fresh one on a new storage generation.
    @inline(never) @_optimize(size) func resetLocally(cause: ResetCause) {
        guard let appID, let namespaces, let stager, let old = session else { return }
        let secureStore = configuration.secureStore
        let log = logger("Session")
        // The rotation first: it is recorded in the secure store before preferences.json changes, so even a write
        // that fails, or a process that ends right here, cannot make the old scope current again (issue 15); the
        // next configure completes it and revokes any secret still stored under the old scope.
        let newScope = namespaces.rotate(appID: appID)
        scopeBox.set(newScope.key)
        if cause == .logout || cause == .switchedUser {
            do {
                if let credentials = try SessionCredentials.read(from: secureStore, scope: old.scope.key) {
                    revocations?.enqueue(PendingRevocation(appID: appID, secret: credentials.sessionSecret))
                }
            } catch {
                log.write(.error, "the session secret could not be read; the remote sign-out is skipped")
            }
        }
        switch cause {
        case .logout, .deleted: stager.logout()
        case .switchedUser: stager.persistPending()
        case .revoked:
            stager.sessionRevoked()
            stager.persistPending()
        }
        presentationGeneration += 1
        session = nil
        if cause != .revoked {
            // Seed 000: logout, a completed deletion and the reset of a token for another user dismiss the SDK
            // sheet; a chat the host embeds stays open on the new session. A revoked session (spec 7.5) and a
            // support reset from the dashboard (spec 7.12) keep the chat on screen.
            dismissSheet()
            isChatOpen = presence.isOpen
            pushRouter?.logout()
        }
        // The old session's secrets and chat go; the store rotation erases every older scope of this App ID.
        try? secureStore.deleteAll(namespace: old.scope.key)
        do {
            // Closed first: the old session's parts still winding down can no longer write (SessionStore).
            try old.store.closeAndRotate(to: newScope)
        } catch {
            log.write(
                .error, "the old chat could not be erased now (\(error.code)); it is unreachable and erased later")
        }
        // The new session exists at once (a host may identify and send right after logout); the old one winds
        // down behind it and hands over its halt state (spec 6.4: a halt survives logout).
        // The count becomes 0 with badge synchronisation before the new session attaches (seed 000, "Log out").
        let monitor = unreadMonitor
        startSession(scope: newScope, inheritingHalt: nil, after: { await monitor?.endSession() })
        let refresher = appearanceRefresher
        refresher?.post(.sessionChanged)
        let successor = session?.client
        let revocations = self.revocations
        let queueRevocation = cause == .logout || cause == .switchedUser
        Task { [weak self] in
            let halt = await old.client.halt
            await old.end()
            if let halt { await successor?.inheritHalt(halt) }
            // A registration that finished while the session was ending may have stored its secret after the erase
            // above; the ended client writes nothing more, so this look is final.
            if let late = try? SessionCredentials.read(from: secureStore, scope: old.scope.key) {
                if queueRevocation { revocations?.enqueue(PendingRevocation(appID: appID, secret: late.sessionSecret)) }
                try? secureStore.deleteAll(namespace: old.scope.key)
                log.write(.info, "a secret stored while the session ended was removed")
                self?.drainRevocations()
            }
        }
        refreshIdentityState(verified: .some(nil))
        // Spec 7.15 step 3: paywalls are re-checked with invalidation.
        if cause != .revoked { refreshPaywalls(invalidate: true) }
        drainRevocations()
        log.write(.info, "session reset")
    }

    /// The secure items of a retired scope go; a session secret among them is queued for revocation first (the
    /// service answers 200 for a session it already revoked or deleted, so this is right whatever retired it).
    @inline(never) @_optimize(size)
    static func retireSecrets(of scope: StorageScope, store: any SecureStoring, revocations: RevocationQueue?) {
        if let credentials = try? SessionCredentials.read(from: store, scope: scope.key) {
            revocations?.enqueue(PendingRevocation(appID: scope.appID, secret: credentials.sessionSecret))
        }
        try? store.deleteAll(namespace: scope.key)
    }
}
