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
    public nonisolated static let version = "0.2.0"

    /// How much the SDK logs: `off` < `error` < `info` < `debug` (spec 7.22). `Reception.LogLevel` and the
    /// module's `LogLevel` are one type.
    public typealias LogLevel = ReceptionCore.LogLevel

    /// How much the SDK logs (default `info`). May be set from any thread.
    @inline(never) @_optimize(size) public nonisolated static var logLevel: LogLevel {
        get { logging.withLock { $0.level } }
        set { logging.withLock { $0.level = newValue } }
    }

    /// Receives every line that passes `logLevel`, with its level, instead of standard error; `nil` (the default)
    /// writes `[Reception] level Category: message` to standard error. The text is `Category: message`, one line
    /// (newlines escaped), never a secret or message content (spec 7.22). May be set from any thread; it is called
    /// on the thread that logs.
    @inline(never) @_optimize(size) public nonisolated static var logHandler: (@Sendable (LogLevel, String) -> Void)? {
        get { logging.withLock { $0.handler } }
        set { logging.withLock { $0.handler = newValue } }
    }

    /// Whether `configure(appId:)` accepted an App ID for `Reception.shared`.
    @_optimize(size) public static var isConfigured: Bool { shared.isConfigured }

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
    @_optimize(size) public var unreadCount: Int { unreadModel.value }

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

    // Each piece of state below has one owner: a part type with its own narrow API (Modules/ReceptionKit/Parts,
    // Appearance/AppearanceSlot.swift), or the one file of the facade that writes it (Docs/ARCHITECTURE.md).

    /// What the accepted configure established (`Reception.swift` replaces it; the rest read it).
    var app: ConfiguredApp?
    /// The current session (`Reception+Session.swift` starts one; `Reception+Account.swift` ends it).
    var session: ReceptionSession?
    /// Logout revocations still to send, one queue per secure store, kept across configures (spec 7.15).
    var revocations: RevocationQueue?
    /// Registered paywalls, the latest availability check, the click flush chain (`Reception+Cards.swift`).
    let cards = CardsState()
    /// The published appearance and its refresh loop (`Reception+Appearance.swift`).
    let appearanceSlot = AppearanceSlot()
    /// Whether the app is active, and the lifecycle monitor's observation (`Reception+Chat.swift`).
    let foreground = ForegroundState()
    /// The configure being prepared off the main actor and the calls kept for it (`Reception+Launch.swift`).
    let launch = LaunchState()
    /// Who keeps the chat on screen: the SDK sheet and embedded chat screens (`Reception+Chat.swift`).
    var presence = ChatPresence()
    /// The host's screens waiting for the sheet to settle before they go over it (`Reception+HostScreens.swift`).
    @ObservationIgnored var hostScreens = HostScreenQueue()
    /// Orders the engine's openings and closings, and drops an opening overtaken by a closing
    /// (`Reception+Chat.swift`).
    @ObservationIgnored var visibility = ChatVisibilityLine()
    /// Presents the SDK sheet: UIKit on iOS, none elsewhere (`openChat()` then only opens the chat); tests set a
    /// recording one.
    @ObservationIgnored var sheetPresenter: (any ChatSheetPresenting)?
    /// `runSetupCheck` runs at most once per `Reception` (spec 7.23).
    var setupCheckRan = false
    /// The count the host observes; the unread monitor writes it.
    let unreadModel = UnreadCount()
    /// The session scope for closures that run off the main actor.
    let scopeBox = ScopeBox()
    /// The synchronised preferences for the payload hook, from any thread.
    let preferencesBox = PreferencesBox()
    /// Bumped by every configure, logout and reset: a deletion that finishes for an older presentation does not
    /// reset the newer session (seed 000, "Session changes and concurrent work").
    var presentationGeneration = 0

    /// Readable in the package so tests can wait for the refresh loop's state instead of sleeping.
    @_optimize(size) var appearanceRefresher: AppearanceRefresher? { appearanceSlot.refresher }

    // Read-only views of the configured app, for the facade's files.
    @_optimize(size) var configuration: ReceptionConfiguration { app?.configuration ?? Self.unconfigured }
    @_optimize(size) var appID: String? { app?.appID }
    @_optimize(size) var endpoint: ServiceEndpoint? { app?.endpoint }
    @_optimize(size) var namespaces: StorageNamespaces? { app?.parts?.namespaces }
    @_optimize(size) var preferences: FilePreferences? { app?.parts?.preferences }
    @_optimize(size) var stager: IdentityStager? { app?.parts?.stager }
    @_optimize(size) var unreadMonitor: UnreadMonitor? { app?.parts?.unreadMonitor }
    @_optimize(size) var pushRouter: PushRouter? { app?.parts?.pushRouter }
    /// What calls before configure read (they do nothing with it).
    private static let unconfigured = ReceptionConfiguration()

    struct Logging {
        var level: LogLevel = .info
        var handler: (@Sendable (LogLevel, String) -> Void)?
    }

    nonisolated static let logging = Locked(Logging())

    /// Filters by the current global level at the time of each line, then hands it to `logHandler` or, without
    /// one, to standard error.
    struct GlobalLogHandler: LogRecordHandling {
        @inline(never) @_optimize(size) func log(_ record: LogRecord) {
            let (level, handler) = Reception.logging.withLock { ($0.level, $0.handler) }
            guard record.level <= level else { return }
            if let handler {
                handler(record.level, ConsoleLogHandler.text(of: record))
            } else {
                ConsoleLogHandler().log(record)
            }
        }
    }

    @_optimize(size) nonisolated func logger(_ category: String) -> ReceptionLogger { Self.logger(category) }

    @inline(never) @_optimize(size) nonisolated static func logger(_ category: String) -> ReceptionLogger {
        ReceptionLogger(handler: GlobalLogHandler(), level: .debug, category: category)
    }

    /// A standalone instance (tests, or a host that wants two); most hosts use `shared`.
    @inline(never) @_optimize(size) public init() {
        sheetPresenter = Self.platformSheetPresenter(host: self)
    }

    // MARK: - Configure (spec 7.1)

    /// Configures `Reception.shared` — the call the product documents show: `Reception.configure(appId:)`.
    @inline(never) @_optimize(size)
    public static func configure(appId: String, configuration: ReceptionConfiguration = ReceptionConfiguration()) {
        shared.configure(appId: appId, configuration: configuration)
    }

    /// The APNs environment of a push token (`.automatic` reads the build's signing).
    public typealias PushEnvironment = PushEnvironmentChoice

    /// Configures ReceptionKit with your App ID (`app_` + 22 letters and digits) and, optionally, replaced parts.
    /// The same App ID again does nothing; another one replaces the previous configuration.
    @inline(never) @_optimize(size)
    public func configure(appId: String, configuration: ReceptionConfiguration = ReceptionConfiguration()) {
        let log = logger("Configuration")
        if ServiceEndpoint.looksLikeIdentitySecret(appId) {
            log.write(
                .error, "refused: that is the identity secret (ids_…), which must stay on your server; pass the App ID")
            return
        }
        guard ServiceEndpoint.isValidAppID(appId) else {
            log.write(.error, "refused: an App ID is app_ followed by 22 letters and digits")
            return
        }
        if appId == appID { return }
        guard ReceptionConfiguration.acceptsServiceRoot(configuration.serviceRoot) else {
            log.write(
                .error, "refused: another service root than the hosted one is for debug builds (or this machine) only")
            return
        }
        let endpoint: ServiceEndpoint
        do {
            endpoint = try ServiceEndpoint(appID: appId, root: configuration.serviceRoot)
        } catch {
            // Seed 000: `invalid_configuration` has status 0 (no HTTP answer); the line says both.
            log.write(
                .error, "refused: the service root must be an http or https URL (\(error.code), status \(error.status))")
            return
        }
        if let old = session { Self.post(.endSession(old)) }
        session = nil
        chat = nil
        if let oldMonitor = unreadMonitor { Self.post(.endUnread(oldMonitor)) }
        // One queue per secure store, kept across configures, so its single drain stays the only one.
        if revocations?.keeps(configuration.secureStore) != true {
            revocations?.setActive(false)
            revocations = RevocationQueue(store: configuration.secureStore, logger: logger("Logout"))
        }
        // Only what must hold when configure returns happens here; the data folder, the preferences, the secure
        // store and the SQLite store are read off the main actor, and the parts built once they are
        // (Reception+Launch.swift). Calls made meanwhile wait for them, in order.
        app = ConfiguredApp(configuration: configuration, appID: appId, endpoint: endpoint)
        isConfigured = true
        presentationGeneration += 1
        prepareLaunch(appID: appId, configuration: configuration)
        // The previous configuration's user is no longer who support sees (the new one's follows when it is ready).
        refreshIdentityState()
        foreground.follow(nil)
        observeLifecycle()
    }

    /// Runs a public call's `body` with the session and stager: now when the configuration is ready; while its
    /// launch is being prepared, once it is, in call order (`LaunchState`); before `configure`, not at all (an
    /// error log).
    /// `logout` marks a sign-out, which a configure replacing the launch still carries out.
    @inline(never) @_optimize(size) func whenConfigured(
        _ call: String, logout: Bool = false, _ body: @escaping @MainActor (ReceptionSession, IdentityStager) -> Void
    ) {
        guard launch.isPreparing else {
            Self.run(body, configured(call))
            return
        }
        launch.keep(LaunchState.Call(run: { [weak self] in Self.run(body, self?.configured(call)) }), logout: logout)
    }

    /// Calls `body` with the configured pair, if there is one. `whenConfigured` hands its closure here rather than
    /// calling it, so the compiler keeps one copy of it, not one per public call that passes a closure
    /// (Docs/Footprint.md, "Size on iOS").
    @inline(never) @_optimize(size) private static func run(
        _ body: @MainActor (ReceptionSession, IdentityStager) -> Void, _ pair: (ReceptionSession, IdentityStager)?
    ) {
        if let (session, stager) = pair { body(session, stager) }
    }

    /// Guards a public call that answers at once: `nil` (and an error log) before `configure`.
    @inline(never) @_optimize(size) func configured(_ call: String) -> (ReceptionSession, IdentityStager)? {
        guard isConfigured, let session, let stager else {
            logger("Configuration").write(.error, "\(call) ignored: call configure(appId:) first")
            return nil
        }
        return (session, stager)
    }
}

/// The synchronised preferences as the payload hook reads them, from any thread.
final class PreferencesBox: Sendable {
    private let state = Locked(DevicePreferences(
        languageOverride: nil, preferredLocalizations: [], updatesAppBadge: true, paywalls: []))
    @_optimize(size) var value: DevicePreferences { state.withLock { $0 } }
    @_optimize(size) func set(_ value: DevicePreferences) { state.withLock { $0 = value } }
}

/// The current session scope, readable from any thread (the secure-store and preference closures need it).
final class ScopeBox: Sendable {
    private let scope = Locked("")
    @_optimize(size) var value: String { scope.withLock { $0 } }
    @_optimize(size) func set(_ value: String) { scope.withLock { $0 = value } }
}
