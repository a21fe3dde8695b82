import Conversation
import Foundation
import Identity
import PushRouting
import Observation
import ReceptionCore
import Transport
import Unread

/// ReceptionKit's entry point: configure it with your App ID, tell it who the user is, and open the support chat.
///
/// Use it from the main actor. Calls made before `configure(appId:)` do nothing (and log an error), as the
/// documents say.
@MainActor
@Observable
public final class Reception {
    /// The instance a host uses.
    public static let shared = Reception()

    /// The SDK version sent in the device payload.
    public nonisolated static let version = "0.1.0"

    /// How much the SDK logs: `off` < `error` < `info` < `debug` (spec 7.22). `Reception.LogLevel` and the
    /// module's `LogLevel` are one type.
    public typealias LogLevel = ReceptionCore.LogLevel

    /// How much the SDK logs (default `info`). May be set from any thread.
    public nonisolated static var logLevel: LogLevel {
        get { logging.withLock { $0.level } }
        set { logging.withLock { $0.level = newValue } }
    }

    /// Receives every line that passes `logLevel`, with its level, instead of standard error; `nil` (the default)
    /// writes `[Reception] level Category: message` to standard error. The text is `Category: message`, one line
    /// (newlines escaped), never a secret or message content (spec 7.22). May be set from any thread; it is called
    /// on the thread that logs.
    public nonisolated static var logHandler: (@Sendable (LogLevel, String) -> Void)? {
        get { logging.withLock { $0.handler } }
        set { logging.withLock { $0.handler = newValue } }
    }

    /// Whether `configure(appId:)` accepted an App ID for `Reception.shared`.
    public static var isConfigured: Bool { shared.isConfigured }

    // MARK: Observable state

    /// Whether `configure(appId:)` accepted an App ID.
    public internal(set) var isConfigured = false
    /// Whether the chat is on screen.
    public internal(set) var isChatOpen = false
    /// Who support sees: anonymous, labelled, or verified.
    public internal(set) var identityState: IdentityState = .anonymous
    /// The model a chat screen binds to, for the current session (replaced on logout and reset).
    public internal(set) var chat: ChatModel?
    /// The last known unread count (never negative); observable through `Observation`.
    public var unreadCount: Int { unreadModel.value }

    /// Called with every event (spec 7.22). Installing another handler replaces this one.
    public var onEvent: ((ReceptionEvent) -> Void)?

    /// Whether the SDK manages the app icon badge (default `true`; synchronised to the service).
    public var updatesAppBadge = true {
        didSet { if oldValue != updatesAppBadge { preferencesChanged() } }
    }

    /// The language of the chat and of the device payload, instead of the host's first preferred localisation.
    public var languageOverride: String? {
        didSet {
            guard oldValue != languageOverride else { return }
            preferencesChanged()
            resolveAppearance()
        }
    }

    /// Texts the chat shows instead of its built-in ones, in every language (e.g. `[.offline: "Offline"]`); the
    /// title and welcome texts of `chatAppearance` (the dashboard's published ones first) still win for those three.
    /// `chat.texts` follows a change at once.
    public var textOverrides: [ChatTextKey: String] = [:] {
        didSet { if oldValue != textOverrides { chat?.texts = chatTexts } }
    }

    /// The host's look of the chat: colours, texts, icons, fonts. While `usesRemoteAppearance` is on, the appearance
    /// published in the dashboard is laid over it (spec 7.20). Logout and deletion keep it.
    public var appearance = ChatAppearance() {
        didSet { if oldValue != appearance { resolveAppearance() } }
    }

    /// Whether the appearance published in the dashboard is fetched and merged (default `true`).
    public var usesRemoteAppearance = true {
        didSet { if oldValue != usesRemoteAppearance { remoteAppearanceSwitched() } }
    }

    /// What the chat shows: `appearance` merged with the last published appearance. A newly published appearance
    /// takes effect at the next chat opening; an open chat is not restyled by the network.
    public internal(set) var chatAppearance = ChatAppearance()

    /// Decides whether a registered paywall can be offered now (e.g. the person is not subscribed yet); called on
    /// the main actor with the paywall's ID. Without it every registered paywall is available. Setting it re-checks
    /// the list.
    public var paywallAvailability: (@MainActor (String) async -> Bool)? {
        didSet { refreshPaywalls(invalidate: true) }
    }
    /// The registered paywalls the availability check approved, in registration order; sent to the service.
    public internal(set) var availablePaywalls: [ReceptionPaywall] = []
    /// Presents your purchase screen for a paywall card's ID. An open event is not a purchase.
    public var onPaywall: ((String) -> Void)?

    // MARK: Internals

    var registeredPaywalls: [ReceptionPaywall] = []
    var paywallCheck = 0
    var actionClickFlush: Task<Void, Never>?
    var setupCheckRan = false
    /// The newest published appearance (cached per App ID), and the one the chat shows now.
    var publishedAppearance: RemoteAppearance?
    var shownAppearance: RemoteAppearance?
    var appearanceCache: AppearanceCache?
    /// Readable in the package so tests can wait for the refresh loop's state instead of sleeping.
    package internal(set) var appearanceRefresher: AppearanceRefresher?
    var lifecycleObservation: Task<Void, Never>?

    struct Logging {
        var level: LogLevel = .info
        var handler: (@Sendable (LogLevel, String) -> Void)?
    }

    nonisolated static let logging = Locked(Logging())

    /// Filters by the current global level at the time of each line, then hands it to `logHandler` or, without
    /// one, to standard error.
    struct GlobalLogHandler: LogRecordHandling {
        func log(_ record: LogRecord) {
            let (level, handler) = Reception.logging.withLock { ($0.level, $0.handler) }
            guard record.level <= level else { return }
            if let handler {
                handler(record.level, ConsoleLogHandler.text(of: record))
            } else {
                ConsoleLogHandler().log(record)
            }
        }
    }

    func logger(_ category: String) -> ReceptionLogger {
        ReceptionLogger(handler: GlobalLogHandler(), level: .debug, category: category)
    }

    var configuration = ReceptionConfiguration()
    var appID: String?
    var endpoint: ServiceEndpoint?
    var namespaces: StorageNamespaces?
    var preferences: FilePreferences?
    var stager: IdentityStager?
    var revocations: RevocationQueue?
    var session: ReceptionSession?
    let unreadModel = UnreadCount()
    var unreadMonitor: UnreadMonitor?
    var pushRouter: PushRouter?
    var scopeBox = ScopeBox()
    let preferencesBox = PreferencesBox()
    var appActive = true
    /// Bumped by every configure, logout and reset: a deletion that finishes for an older presentation does not
    /// reset the newer session (seed 000, "Session changes and concurrent work").
    var presentationGeneration = 0

    /// A standalone instance (tests, or a host that wants two); most hosts use `shared`.
    public init() {}

    // MARK: - Configure (spec 7.1)

    /// Configures `Reception.shared` — the call the product documents show: `Reception.configure(appId:)`.
    public static func configure(appId: String, configuration: ReceptionConfiguration = ReceptionConfiguration()) {
        shared.configure(appId: appId, configuration: configuration)
    }

    /// The APNs environment of a push token (`.automatic` reads the build's signing).
    public typealias PushEnvironment = PushEnvironmentChoice

    /// Configures ReceptionKit with your App ID (`app_` + 22 letters and digits) and, optionally, replaced parts.
    /// The same App ID again does nothing; another one replaces the previous configuration.
    public func configure(appId: String, configuration: ReceptionConfiguration = ReceptionConfiguration()) {
        let log = logger("Configuration")
        if ServiceEndpoint.looksLikeIdentitySecret(appId) {
            log.error("refused: that is the identity secret (ids_…), which must stay on your server; pass the App ID")
            return
        }
        guard ServiceEndpoint.isValidAppID(appId) else {
            log.error("refused: an App ID is app_ followed by 22 letters and digits")
            return
        }
        if appId == appID { return }
        guard ReceptionConfiguration.acceptsServiceRoot(configuration.serviceRoot) else {
            log.error("refused: another service root than the hosted one is for debug builds (or this machine) only")
            return
        }
        let endpoint: ServiceEndpoint
        do {
            endpoint = try ServiceEndpoint(appID: appId, root: configuration.serviceRoot)
        } catch {
            log.error("refused: the service root must be an http or https URL (\(error.code))")
            return
        }
        if let old = session { Task { await old.end() } }
        session = nil
        if let oldMonitor = unreadMonitor { Task { await oldMonitor.endSession() } }
        if let oldRefresher = appearanceRefresher { Task { await oldRefresher.end() } }
        lifecycleObservation?.cancel()
        self.configuration = configuration
        self.appID = appId
        self.endpoint = endpoint
        // Issue 15: the data folder is the owner's only (0700); every file in it is created 0600.
        do { try PrivateFiles.createFolder(configuration.dataDirectory) } catch {
            log.error("the data folder could not be created (\(error.code))")
        }
        let preferences = FilePreferences.shared(
            url: configuration.dataDirectory.appendingPathComponent("preferences.json"),
            write: configuration.writePreferencesFile, logger: logger("Preferences"))
        self.preferences = preferences
        let namespaces = StorageNamespaces(
            preferences: preferences, idGenerator: configuration.ids,
            journal: RotationJournal(store: configuration.secureStore, logger: logger("Session")),
            logger: logger("Session"))
        self.namespaces = namespaces
        // One queue per secure store, kept across configures, so its single drain stays the only one.
        if revocations?.keeps(configuration.secureStore) != true {
            revocations?.setActive(false)
            revocations = RevocationQueue(store: configuration.secureStore, logger: logger("Logout"))
        }
        // A logout whose preferences write failed is completed before anything reads the scope (issue 15); the
        // secrets of the scopes it retired are revoked and removed, as the logout would have done.
        var scope = namespaces.current(appID: appId) { [revocations] retired in
            Self.retireSecrets(of: retired, store: configuration.secureStore, revocations: revocations)
        }
        scopeBox.set(scope.key)
        // Spec 7.1 step 5: a chat whose secret is *missing* (a restored backup: secure items are device-bound) is
        // cleared and a new generation rotated in. An unreadable secure store is not "missing".
        if configuration.secureStore.read(.session(scope: scope.key)) == .missing,
           let existing = try? configuration.messageStore(configuration.dataDirectory, scope, logger("MessageCache")),
           ((try? existing.sessionState().hasStartedChat) == true || !((try? existing.loadWindow()) ?? []).isEmpty) {
            scope = namespaces.rotate(appID: appId)
            try? existing.rotate(to: scope)
            log.info("a restored chat without its session secret was cleared")
        }
        scopeBox.set(scope.key)
        // Preferences of older scopes (an earlier version's logout left them) hold a previous user's identity.
        namespaces.removeEarlierScopes(of: scope)
        stager = IdentityStager(
            store: pendingIdentityStore(), verifiedUserId: IdentityStager.verifiedUserIdReader(
                secureStore: configuration.secureStore, scope: { [scopeBox] in scopeBox.value }),
            logger: logger("Identity"))
        isConfigured = true
        presentationGeneration += 1
        // Spec 7.1 step 6: the count restarts at 0 without touching the badge (the service's value follows).
        unreadMonitor = makeUnreadMonitor()
        pushRouter = makePushRouter()
        startSession(scope: scope, inheritingHalt: nil)
        refreshIdentityState()
        // Spec 7.1 step 3: the cached published appearance of this App ID, then the refresh loop.
        startAppearance(appID: appId)
        observeLifecycle()
        drainRevocations()
        log.info("configured")
    }

    /// The pending identity lives in the plain preferences under `<scope>.pending` (spec 7.17).
    private func pendingIdentityStore() -> PendingIdentityStore {
        let preferences = self.preferences
        let scopeBox = self.scopeBox
        return PendingIdentityStore(
            load: {
                guard let text = preferences?["\(scopeBox.value).pending"] else { return nil }
                return try? JSONDecoder().decode(PendingIdentity.self, from: Data(text.utf8))
            },
            save: { pending in
                guard let data = try? JSONEncoder().encode(pending) else { return }
                preferences?["\(scopeBox.value).pending"] = String(decoding: data, as: UTF8.self)
            })
    }

    /// Guards every public call: `nil` (and an error log) before `configure`.
    func configured(_ call: String) -> (ReceptionSession, IdentityStager)? {
        guard isConfigured, let session, let stager else {
            logger("Configuration").error("\(call) ignored: call configure(appId:) first")
            return nil
        }
        return (session, stager)
    }
}

/// The synchronised preferences as the payload hook reads them, from any thread.
final class PreferencesBox: Sendable {
    private let state = Locked(DevicePreferences(
        languageOverride: nil, preferredLocalizations: [], updatesAppBadge: true, paywalls: []))
    var value: DevicePreferences { state.withLock { $0 } }
    func set(_ value: DevicePreferences) { state.withLock { $0 = value } }
}

/// The current session scope, readable from any thread (the secure-store and preference closures need it).
final class ScopeBox: Sendable {
    private let scope = Locked("")
    var value: String { scope.withLock { $0 } }
    func set(_ value: String) { scope.withLock { $0 = value } }
}
