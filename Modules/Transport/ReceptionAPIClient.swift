import Foundation
import ReceptionCore

/// The client side of the Reception protocol for one session: every `/v1/` endpoint of spec 3 behind the request
/// pipeline of spec 6.1 (cooldown admission, token, re-check, halt with probe, one renewal after 401
/// `unauthorized`, cooldown and halt bookkeeping after a failure).
///
/// One instance per session. After `invalidate()` (logout, reset, a new configuration) every call fails with
/// `cancelled` and late answers change nothing.
public actor ReceptionAPIClient {
    /// What the client is built from.
    public struct Dependencies: Sendable {
        /// The service root and App ID every URL is built from.
        public var endpoint: ServiceEndpoint
        /// Where requests go (`URLSessionTransport` by default).
        public var transport: any HTTPTransporting
        /// Where the session credentials are kept.
        public var secureStore: any SecureStoring
        /// The session scope (`appId + generation`) whose credentials this client uses.
        public var scope: String
        /// The session's server waits (spec 6.3), shared with the chat engine and the unread monitor.
        public var cooldowns: CooldownBook
        /// Time for waits and backoff.
        public var clock: any ReceptionClock
        /// Backoff jitter.
        public var random: any RandomSource
        /// Where log lines go (codes and counts only).
        public var logger: ReceptionLogger

        /// Makes dependencies.
        @inline(never) @_optimize(size) public init(
            endpoint: ServiceEndpoint, transport: any HTTPTransporting, secureStore: any SecureStoring, scope: String,
            cooldowns: CooldownBook, clock: any ReceptionClock = SystemClock(),
            random: any RandomSource = SystemRandomSource(),
            logger: ReceptionLogger = ReceptionLogger(category: "Transport")
        ) {
            self.endpoint = endpoint
            self.transport = transport
            self.secureStore = secureStore
            self.scope = scope
            self.cooldowns = cooldowns
            self.clock = clock
            self.random = random
            self.logger = logger
        }
    }

    let deps: Dependencies
    let hooks: SessionHooks
    private var accessToken: String?
    /// Credentials whose secure-store write failed: kept in memory and saved before any token is handed out.
    private var unsavedCredentials: SessionCredentials?
    private var refreshTask: Task<String, any Error>?
    private var registrationTask: Task<String, any Error>?
    /// Spec 6.2: the shared refresh backoff counter.
    private var refreshFailures = 0
    var updateTask: Task<Void, any Error>?
    var updateRequested = 0
    private(set) var haltReason: HaltReason?
    var invalidated = false

    /// A client for one session.
    @inline(never) @_optimize(size) public init(_ dependencies: Dependencies, hooks: SessionHooks) {
        self.deps = dependencies
        self.hooks = hooks
    }

    /// The session's halt state (spec 6.4).
    @_optimize(size) public var halt: HaltReason? { haltReason }

    /// Whether a session secret is stored (the device is registered). Throws when the store cannot answer.
    @inline(never) @_optimize(size) public func isRegistered() throws(ReceptionError) -> Bool {
        if unsavedCredentials != nil { return true }
        return try storedCredentials() != nil
    }

    /// Ends this session object: in-flight work is cancelled and nothing it learns later is applied.
    @inline(never) @_optimize(size) public func invalidate() {
        invalidated = true
        accessToken = nil
        refreshTask?.cancel()
        registrationTask?.cancel()
        updateTask?.cancel()
    }

    /// Spec 6.4: a halt inherited from the previous session (a logout keeps a halt; a new configure does not).
    @_optimize(size) public func inheritHalt(_ reason: HaltReason?) { haltReason = reason }

    // MARK: - Pipeline (spec 6.1)

    /// Options of one request.
    struct Options {
        var body: Data?
        /// A user-initiated action's one-shot permission through a halted session (spec 6.4).
        var probe = false
        /// Whether a missing registration may be created (a user send, or a recovered first submission).
        var allowRegistration = false
        var extraHeaders: [String: String] = [:]
    }

    @inline(never) @_optimize(size)
    func perform(_ route: Route, _ options: Options = Options()) async throws(ReceptionError) -> HTTPResponse {
        guard !invalidated else { throw .cancelled }
        try admit(route)
        var token: String?
        if route.authentication == .bearer {
            token = try await self.token(allowRegistration: options.allowRegistration, probe: options.probe)
            try admit(route)
        }
        var probing = false
        if route.isSubjectToHalt, haltReason != nil {
            guard options.probe else { throw ReceptionError(code: ReceptionError.Code.sessionHalted) }
            probing = true
        }
        var response = try await exchange(route, options, token: token)
        if route.authentication == .bearer, response.status == 401,
           ResponseInterpreter.failure(response, route: route).error.code == ReceptionError.Code.unauthorized {
            token = try await renew(rejected: token)
            try admit(route)
            response = try await exchange(route, options, token: token)
        }
        guard !invalidated else { throw .cancelled }
        if route.isSuccess(response.status) {
            if probing { await setHalt(nil) }
            return response
        }
        let failure = ResponseInterpreter.failure(response, route: route)
        try await handle(failure, route: route)
        throw failure.error
    }

    /// Spec 6.3.2: fail with `cooldown` before the network when a gate scope waits.
    @inline(never) @_optimize(size) private func admit(_ route: Route) throws(ReceptionError) {
        guard !route.isExempt, let wait = deps.cooldowns.wait(for: route.gates, now: deps.clock.now) else { return }
        throw wait.error
    }

    @inline(never) @_optimize(size)
    private func exchange(_ route: Route, _ options: Options, token: String?) async throws(ReceptionError) -> HTTPResponse {
        let request = try buildRequest(route, body: options.body, token: token, extraHeaders: options.extraHeaders)
        do {
            return try await deps.transport.send(request)
        } catch {
            if Task.isCancelled || invalidated { throw .cancelled }
            throw error
        }
    }

    @inline(never) @_optimize(size) func buildRequest(
        _ route: Route, body: Data?, token: String?, extraHeaders: [String: String] = [:]
    ) throws(ReceptionError) -> HTTPRequest {
        var headers = [
            "X-App-Id": deps.endpoint.appID,
            "X-Reception-Revision": String(route.sendsRevisionZero ? 0 : hooks.chatRevision()),
            "Content-Type": "application/json",
        ]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        if route.isStream { headers["Accept"] = "text/event-stream" }
        for (name, value) in extraHeaders { headers[name] = value }  // a loop, not a merge closure (Docs/Footprint.md)
        return HTTPRequest(
            method: route.method, url: try deps.endpoint.url(path: route.path, query: route.query), headers: headers,
            body: body, timeout: route.timeout)
    }

    /// Spec 6.1 step 6: start a cooldown if the response qualifies, update the halt state, react to a chat reset.
    @inline(never) @_optimize(size) func handle(_ failure: FailedResponse, route: Route) async throws(ReceptionError) {
        if let cooldown = failure.cooldown {
            deps.cooldowns.record(scope: cooldown.scope, seconds: cooldown.seconds, now: deps.clock.now)
            deps.logger.write(
                .info, "\(cooldown.scope.rawValue) wait of \(cooldown.seconds) s after status \(failure.error.status)")
        }
        let error = failure.error
        switch (error.status, error.code) {
        case (401, ReceptionError.Code.invalidAppID), (403, ReceptionError.Code.appDisabled):
            await setHalt(.appUnavailable)
        case (403, ReceptionError.Code.blocked):
            await setHalt(.blocked)
        case (409, ReceptionError.Code.chatReset) where route.authentication == .bearer:
            if let revision = error.resetRevision, revision >= 0 {
                deps.logger.write(.info, "chat reset to revision \(revision)")
                await hooks.chatReset(revision)
            }
        default:
            break
        }
    }

    @inline(never) @_optimize(size) private func setHalt(_ reason: HaltReason?) async {
        guard reason != haltReason else { return }
        haltReason = reason
        deps.logger.write(.info, reason.map { "session halted: \($0.rawValue)" } ?? "session resumed")
        await hooks.haltChanged(reason)
    }

    // MARK: - Tokens (spec 7.4)

    @inline(never)
    @_optimize(size) func token(allowRegistration: Bool, probe: Bool) async throws(ReceptionError) -> String {
        guard !invalidated else { throw .cancelled }
        guard hooks.hasStartedChat() else { throw ReceptionError(code: ReceptionError.Code.chatNotStarted) }
        if haltReason != nil, !probe { throw ReceptionError(code: ReceptionError.Code.sessionHalted) }
        try saveUnsavedCredentials()
        if let accessToken { return accessToken }
        if let registrationTask { return try await Self.value(of: registrationTask) }
        if try storedCredentials() != nil { return try await refresh() }
        guard allowRegistration else { throw ReceptionError(code: ReceptionError.Code.chatNotStarted) }
        return try await register(probe: probe)
    }

    /// Spec 2 rule 3–4: renew after a rejection, unless a newer token already replaced the rejected one.
    @inline(never) @_optimize(size) func renew(rejected: String?) async throws(ReceptionError) -> String {
        if let accessToken, accessToken != rejected { return accessToken }
        accessToken = nil
        return try await refresh()
    }

    @inline(never) @_optimize(size) private func refresh() async throws(ReceptionError) -> String {
        if let refreshTask { return try await Self.value(of: refreshTask) }
        if let wait = deps.cooldowns.wait(for: Route.refreshToken.gates, now: deps.clock.now) { throw wait.error }
        let task = tokenTask(registering: false, probe: false)
        refreshTask = task
        defer { refreshTask = nil }
        return try await Self.value(of: task)
    }

    /// The shared refresh or registration, in a task of its own that concurrent callers join: one task closure for
    /// both (Docs/Footprint.md, "A task closure per call site").
    @inline(never) @_optimize(size) private func tokenTask(registering: Bool, probe: Bool) -> Task<String, any Error> {
        Task { () async throws -> String in
            registering ? try await self.runRegistration(probe: probe) : try await self.runRefresh()
        }
    }

    @inline(never) @_optimize(size) private func runRefresh() async throws(ReceptionError) -> String {
        if refreshFailures > 0 {
            do {
                try await deps.clock.sleep(for: Backoff.delay(attempt: refreshFailures, random: deps.random))
            } catch {
                throw .cancelled
            }
        }
        guard !invalidated else { throw .cancelled }
        if let wait = deps.cooldowns.wait(for: Route.refreshToken.gates, now: deps.clock.now) { throw wait.error }
        guard let credentials = try storedCredentials() else {
            throw ReceptionError(code: ReceptionError.Code.chatNotStarted)
        }
        let secret = credentials.sessionSecret
        let body = try ReceptionJSON.encode(["sessionSecret": secret])
        let response: HTTPResponse
        do {
            response = try await exchange(Route.refreshToken, Options(body: body), token: nil)
        } catch {
            if error.isTransient { refreshFailures = min(refreshFailures, 6) + 1 }
            throw error
        }
        // A refresh for a session or secret that is no longer current is discarded (spec 7.4).
        guard !invalidated, (try? storedCredentials())??.sessionSecret == secret else { throw .cancelled }
        if Route.refreshToken.isSuccess(response.status) {
            let token = try ResponseInterpreter.decode(TokenResponse.self, from: response).token
            refreshFailures = 0
            accessToken = token
            return token
        }
        let failure = ResponseInterpreter.failure(response, route: Route.refreshToken)
        if failure.error.status == 401, failure.error.code == ReceptionError.Code.sessionRevoked {
            await revokeLocally()
            throw failure.error
        }
        if failure.error.isTransient, failure.cooldown == nil { refreshFailures = min(refreshFailures, 6) + 1 }
        try await handle(failure, route: Route.refreshToken)
        throw failure.error
    }

    /// Spec 7.5: forget token and credentials; the owner resets the local session.
    @inline(never) @_optimize(size) private func revokeLocally() async {
        accessToken = nil
        unsavedCredentials = nil
        try? deps.secureStore.delete(.session(scope: deps.scope))
        deps.logger.write(.info, "session revoked by the service")
        await hooks.sessionRevoked()
    }

    @inline(never) @_optimize(size) private func register(probe: Bool) async throws(ReceptionError) -> String {
        if let registrationTask { return try await Self.value(of: registrationTask) }
        let task = tokenTask(registering: true, probe: probe)
        registrationTask = task
        defer { registrationTask = nil }
        return try await Self.value(of: task)
    }

    @inline(never) @_optimize(size) private func runRegistration(probe: Bool) async throws(ReceptionError) -> String {
        let payload = try await hooks.devicePayload().forRegistration
        let body = try ReceptionJSON.encode(payload, failureCode: ReceptionError.Code.invalidDeviceInfo)
        let response: HTTPResponse
        do {
            response = try await perform(Route.register, Options(body: body, probe: probe))
        } catch {
            if error.isIdentityTokenRejection, let token = payload.identityToken {
                await hooks.identityRejected(error, token)
            }
            throw error
        }
        let registration = try ResponseInterpreter.decode(RegistrationResponse.self, from: response)
        accessToken = registration.token
        let credentials = SessionCredentials(
            sessionSecret: registration.sessionSecret, verifiedUserId: registration.verifiedUserId)
        unsavedCredentials = credentials
        deps.logger.write(.info, "device registered")
        // Spec 3.1: the credentials are stored before the token is used; a failed write fails this request and
        // is retried on every later token request. Stored before the hook's suspension, so a logout that runs
        // meanwhile finds the secret and queues its revocation.
        try saveUnsavedCredentials()
        await hooks.deviceSynchronised(payload, registration.verifiedUserId)
        guard !invalidated else { throw .cancelled }
        return registration.token
    }

    @inline(never) @_optimize(size) private func storedCredentials() throws(ReceptionError) -> SessionCredentials? {
        if let unsavedCredentials { return unsavedCredentials }
        return try SessionCredentials.read(from: deps.secureStore, scope: deps.scope)
    }

    @inline(never) @_optimize(size) private func saveUnsavedCredentials() throws(ReceptionError) {
        guard let credentials = unsavedCredentials else { return }
        // An ended session writes nothing: its scope was erased, and a secret stored now would outlive it.
        guard !invalidated else { throw .cancelled }
        let data = try ReceptionJSON.encode(credentials)
        try deps.secureStore.write(data, for: .session(scope: deps.scope))
        unsavedCredentials = nil
    }

    /// Spec 7.14.3 step 10: store the verified user ID the service returned, without a write when unchanged.
    @inline(never)
    @_optimize(size) func storeVerifiedUserIdAfterUpdate(_ verifiedUserId: String?) throws(ReceptionError) {
        guard var credentials = try storedCredentials() else { return }
        // Byte-wise comparison: canonically equivalent but differently encoded IDs are different users.
        guard Array((credentials.verifiedUserId ?? "").utf8) != Array((verifiedUserId ?? "").utf8)
                || (credentials.verifiedUserId == nil) != (verifiedUserId == nil) else { return }
        credentials.verifiedUserId = verifiedUserId
        unsavedCredentials = credentials
        try saveUnsavedCredentials()
    }

    /// The verified user ID stored for this session, `nil` when none (throws when the store cannot answer).
    @inline(never) @_optimize(size)
    public func verifiedUserId() throws(ReceptionError) -> String? { try storedCredentials()?.verifiedUserId }

    @inline(never) @_optimize(size)
    private static func value(of task: Task<String, any Error>) async throws(ReceptionError) -> String {
        do {
            return try await task.value
        } catch let error as ReceptionError {
            throw error
        } catch {
            throw .cancelled
        }
    }
}
