import Foundation
import Identity
import ImagePipeline
import MessageCache
import ReceptionCore
import SecureStore
import PushRouting
import Transport
#if canImport(UIKit)
import UIKit
#endif
import Unread

/// Every part ReceptionKit is made of, with the defaults filled in. A host swaps one part (its own storage, its own
/// networking) by setting that property and leaving the rest: `ReceptionConfiguration()` is the standard SDK.
public struct ReceptionConfiguration: Sendable {
    /// The service root. The hosted service by default; point it at a local emulator during development (release
    /// builds accept only the hosted root and roots on this machine, spec 1.1).
    @inline(never) @_optimize(size) public var serviceRoot: URL {
        get { values.serviceRoot }
        set { unique().serviceRoot = newValue }
    }
    /// Where the message store, the photo cache and the plain preferences live.
    @inline(never) @_optimize(size) public var dataDirectory: URL {
        get { values.dataDirectory }
        set { unique().dataDirectory = newValue }
    }
    /// The HTTP layer.
    @inline(never) @_optimize(size) public var transport: any HTTPTransporting {
        get { values.transport }
        set { unique().transport = newValue }
    }
    /// Where session secrets live (Keychain on Apple platforms, files elsewhere).
    @inline(never) @_optimize(size) public var secureStore: any SecureStoring {
        get { values.secureStore }
        set { unique().secureStore = newValue }
    }
    /// Opens the message store for a storage scope in `dataDirectory`.
    public var messageStore: @Sendable (_ directory: URL, _ scope: StorageScope, _ logger: ReceptionLogger)
        throws(ReceptionError) -> any MessageStoring
    {
        get { values.messageStore }
        set { unique().messageStore = newValue }
    }
    /// Opens the photo cache for a storage scope in `dataDirectory`: the bytes of photos downloaded or sent, so each
    /// is fetched once. `FilePhotoCache` (64 MiB, least recently used first, out of backups) by default; set your own
    /// budget with `{ try FilePhotoCache(directory: $0, scope: $1, byteBudget: 16 << 20, logger: $2) }`, or
    /// `{ _, _, _ in NoPhotoCache() }` to keep none. Logout, deletion and a chat reset remove it.
    public var photoCache: @Sendable (_ directory: URL, _ scope: StorageScope, _ logger: ReceptionLogger)
        throws(ReceptionError) -> any PhotoCaching
    {
        get { values.photoCache }
        set { unique().photoCache = newValue }
    }
    /// Turns picked photos into upload-ready JPEGs.
    @inline(never) @_optimize(size) public var images: any ImagePreparing {
        get { values.images }
        set { unique().images = newValue }
    }
    /// The app icon badge (nothing on hosts without one).
    @inline(never) @_optimize(size) public var badge: any BadgeSink {
        get { values.badge }
        set { unique().badge = newValue }
    }
    /// Delivered notifications, for cleanup when the count reaches zero.
    @inline(never) @_optimize(size) public var notifications: any NotificationStore {
        get { values.notifications }
        set { unique().notifications = newValue }
    }
    /// Whether the person allowed notifications (it pauses unread polling when push can deliver).
    @inline(never) @_optimize(size) public var notificationPermission: any NotificationPermissionReading {
        get { values.notificationPermission }
        set { unique().notificationPermission = newValue }
    }
    /// Resolves the automatic APNs environment (the embedded provisioning profile on devices).
    @inline(never) @_optimize(size) public var pushEnvironment: any PushEnvironmentResolving {
        get { values.pushEnvironment }
        set { unique().pushEnvironment = newValue }
    }
    /// Network path changes: `NWPathMonitor` on Apple platforms (`SystemNetworkPathMonitor`), `nil` elsewhere,
    /// where the host reports them (`setNetworkAvailable`) or passes its own monitor.
    @inline(never) @_optimize(size) public var network: (any NetworkPathMonitoring)? {
        get { values.network }
        set { unique().network = newValue }
    }
    /// App lifecycle changes: UIKit's application notifications on iOS, AppKit's on macOS
    /// (`NotificationLifecycleMonitor`), `nil` elsewhere, where the host calls `appDidBecomeActive()` and
    /// `appDidEnterBackground()` or passes its own monitor.
    @inline(never) @_optimize(size) public var lifecycle: (any AppLifecycleMonitoring)? {
        get { values.lifecycle }
        set { unique().lifecycle = newValue }
    }
    /// Opens a review card's link and the links tapped in messages (`http`, `https`, `mailto` and `tel` only): the
    /// system URL action on Apple platforms, the host's choice elsewhere. To show a page inside your app, present it
    /// with `Reception.shared.present(_:)`, which goes over the chat sheet.
    @inline(never) @_optimize(size) public var openURL: @MainActor @Sendable (URL) -> Void {
        get { values.openURL }
        set { unique().openURL = newValue }
    }
    /// Time and sleeping.
    @inline(never) @_optimize(size) public var clock: any ReceptionClock {
        get { values.clock }
        set { unique().clock = newValue }
    }
    /// Identifiers.
    @inline(never) @_optimize(size) public var ids: any IDGenerating {
        get { values.ids }
        set { unique().ids = newValue }
    }
    /// Jitter.
    @inline(never) @_optimize(size) public var random: any RandomSource {
        get { values.random }
        set { unique().random = newValue }
    }
    /// What the device payload says about this device and app: this device's facts unless you set your own. They
    /// are read when a session starts, not by `init` (the locale, time zone and bundle lookups cost more than the
    /// rest of a configuration at app launch; Docs/Footprint.md).
    @inline(never) @_optimize(size) public var device: DeviceFacts {
        get { values.deviceOverride ?? Self.currentDevice() }
        set { unique().deviceOverride = newValue }
    }
    /// The host's preferred localisations, most preferred first (the app language, spec 7.19).
    @inline(never) @_optimize(size) public var preferredLocalizations: [String] {
        get { values.preferredLocalizations }
        set { unique().preferredLocalizations = newValue }
    }
    /// Test knob: how `preferences.json` and `appearance.json` are replaced (tests make it fail, as a full disk
    /// would).
    @inline(never) @_optimize(size) var writePreferencesFile: FilePreferences.Write {
        get { values.writePreferencesFile }
        set { unique().writePreferencesFile = newValue }
    }
    /// Test knob: how long the setup check waits for the app to become active and the message to be sent (spec
    /// 7.23: 60 s). A loaded test machine that runs hundreds of tests at once can take longer than that.
    @inline(never) @_optimize(size) var setupCheckBudget: Duration {
        get { values.setupCheckBudget }
        set { unique().setupCheckBudget = newValue }
    }

    /// Every field above, behind one reference, as `MessageRow` and `ChatAppearance` keep theirs: copying a
    /// configuration is one retain, so the SDK carries no field-by-field copy code for it (Docs/Footprint.md, "One
    /// reference for a wide value"). A setter copies the values first when another configuration shares them, so the
    /// type keeps value semantics; it writes through `unique()` rather than an `update` closure, which would be
    /// compiled at the host's `-O` once per property.
    private var values: Values

    @inline(never) @_optimize(size) private mutating func unique() -> Values {
        if !isKnownUniquelyReferenced(&values) { values = Values(copying: values) }
        return values
    }

    /// The stored fields. Mutated only through `unique()`, by the one configuration that holds them.
    private final class Values: @unchecked Sendable {
        @exclusivity(unchecked) var serviceRoot: URL
        @exclusivity(unchecked) var dataDirectory: URL
        @exclusivity(unchecked) var transport: any HTTPTransporting
        @exclusivity(unchecked) var secureStore: any SecureStoring
        @exclusivity(unchecked) var messageStore: @Sendable (_ directory: URL, _ scope: StorageScope, _ logger: ReceptionLogger)
            throws(ReceptionError) -> any MessageStoring
        @exclusivity(unchecked) var photoCache: @Sendable (_ directory: URL, _ scope: StorageScope, _ logger: ReceptionLogger)
            throws(ReceptionError) -> any PhotoCaching
        @exclusivity(unchecked) var images: any ImagePreparing
        @exclusivity(unchecked) var badge: any BadgeSink
        @exclusivity(unchecked) var notifications: any NotificationStore
        @exclusivity(unchecked) var notificationPermission: any NotificationPermissionReading
        @exclusivity(unchecked) var pushEnvironment: any PushEnvironmentResolving
        @exclusivity(unchecked) var network: (any NetworkPathMonitoring)?
        @exclusivity(unchecked) var lifecycle: (any AppLifecycleMonitoring)?
        @exclusivity(unchecked) var openURL: @MainActor @Sendable (URL) -> Void
        @exclusivity(unchecked) var clock: any ReceptionClock
        @exclusivity(unchecked) var ids: any IDGenerating
        @exclusivity(unchecked) var random: any RandomSource
        @exclusivity(unchecked) var deviceOverride: DeviceFacts?
        @exclusivity(unchecked) var preferredLocalizations: [String]
        @exclusivity(unchecked) var writePreferencesFile: FilePreferences.Write
        @exclusivity(unchecked) var setupCheckBudget: Duration = .seconds(60)

        @inline(never) @_optimize(size) init(copying other: Values) {
            serviceRoot = other.serviceRoot
            dataDirectory = other.dataDirectory
            transport = other.transport
            secureStore = other.secureStore
            messageStore = other.messageStore
            photoCache = other.photoCache
            images = other.images
            badge = other.badge
            notifications = other.notifications
            notificationPermission = other.notificationPermission
            pushEnvironment = other.pushEnvironment
            network = other.network
            lifecycle = other.lifecycle
            openURL = other.openURL
            clock = other.clock
            ids = other.ids
            random = other.random
            deviceOverride = other.deviceOverride
            preferredLocalizations = other.preferredLocalizations
            writePreferencesFile = other.writePreferencesFile
            setupCheckBudget = other.setupCheckBudget
        }

        /// The standard composition (`ReceptionConfiguration.init`).
        @inline(never) @_optimize(size) init(serviceRoot: URL, dataDirectory: URL) {
            self.serviceRoot = serviceRoot
            self.dataDirectory = dataDirectory
            self.transport = URLSessionTransport()
            #if canImport(Security)
            self.secureStore = KeychainSecureStore()
            #else
            self.secureStore = FileSecureStore(
                directory: dataDirectory.appendingPathComponent("secure", isDirectory: true))
            #endif
            self.messageStore = { directory, scope, logger throws(ReceptionError) in
                try SQLiteMessageStore(directory: directory, scope: scope, logger: logger)
            }
            self.photoCache = { directory, scope, logger throws(ReceptionError) in
                try FilePhotoCache(directory: directory, scope: scope, logger: logger)
            }
            self.images = PhotoPreparer(logger: Reception.logger("ImagePipeline"))
            #if canImport(UIKit) && canImport(UserNotifications)
            self.badge = ApplicationBadgeSink()
            self.notifications = UserNotificationCenterStore()
            self.notificationPermission = UserNotificationPermission()
            #else
            self.badge = NoBadge()
            self.notifications = NoNotifications()
            self.notificationPermission = NoNotificationPermission()
            #endif
            self.pushEnvironment = ProvisioningProfileResolver.embedded
            self.network = ReceptionConfiguration.platformNetwork()
            self.lifecycle = ReceptionConfiguration.platformLifecycle()
            #if canImport(UIKit)
            self.openURL = ReceptionConfiguration.openInApplication
            #else
            self.openURL = { _ in }
            #endif
            self.clock = SystemClock()
            self.ids = SystemIDGenerator()
            self.random = SystemRandomSource()
            self.preferredLocalizations = Locale.preferredLanguages
            self.writePreferencesFile = FilePreferences.writeAtomically
        }
    }

    /// The standard composition: hosted service, SQLite store and file photo cache, URLSession, our JPEG pipeline, the platform's
    /// secure store, badge, notification, lifecycle and network adapters where the platform has them.
    @inline(never) @_optimize(size) public init(
        serviceRoot: URL = ServiceEndpoint.hostedRoot ?? URL(fileURLWithPath: "/"),
        dataDirectory: URL = ReceptionConfiguration.defaultDataDirectory()
    ) {
        values = Values(serviceRoot: serviceRoot, dataDirectory: dataDirectory)
    }

    /// This device and app as the device payload describes them, read now.
    @inline(never) @_optimize(size) static func currentDevice() -> DeviceFacts {
        DeviceFacts(
            sdkVersion: Reception.version, osVersion: ProcessInfo.processInfo.operatingSystemVersionString,
            deviceModel: machine(), locale: Locale.current.identifier, timezone: TimeZone.current.identifier,
            bundleId: Bundle.main.bundleIdentifier)
    }

    /// The platform's path monitor (Docs/Apple.md): `NWPathMonitor` where the Network framework exists.
    @inline(never) @_optimize(size) static func platformNetwork() -> (any NetworkPathMonitoring)? {
        #if canImport(Network)
        return SystemNetworkPathMonitor()
        #else
        return nil
        #endif
    }

    #if canImport(UIKit)
    /// The default `openURL`: `UIApplication.open(_:)`. A function rather than a closure literal, which would be
    /// compiled at the host's `-O` (Docs/Footprint.md).
    @MainActor @inline(never) @_optimize(size) static func openInApplication(_ url: URL) {
        UIApplication.shared.open(url)
    }
    #endif

    /// The platform's lifecycle signal (Docs/Apple.md): UIKit's application notifications, else AppKit's.
    @inline(never) @_optimize(size) static func platformLifecycle() -> (any AppLifecycleMonitoring)? {
        #if canImport(UIKit) && !os(watchOS)
        return NotificationLifecycleMonitor.uiApplication()
        #elseif canImport(AppKit) && !targetEnvironment(macCatalyst)
        return NotificationLifecycleMonitor.nsApplication()
        #else
        return nil
        #endif
    }

    /// Spec 1.1: substituting another service root is a debug-only hook. A release build accepts the hosted root and
    /// roots on this machine (a local emulator, benchmarks); a debug build accepts any (the scheme is checked later).
    @inline(never)
    @_optimize(size) static func acceptsServiceRoot(_ root: URL, debugBuild: Bool = isDebugBuild) -> Bool {
        if debugBuild { return true }
        if let hosted = ServiceEndpoint.hostedRoot, root.scheme == hosted.scheme, root.host == hosted.host,
           root.port == nil { return true }
        guard let host = root.host?.lowercased() else { return false }
        return ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host)
    }

    #if DEBUG
    static let isDebugBuild = true
    #else
    static let isDebugBuild = false
    #endif

    /// The hardware identifier (`uname -m`: `x86_64`, `arm64`, or `iPhone17,1` on a device).
    @inline(never) @_optimize(size) static func machine() -> String {
        var info = utsname()
        uname(&info)
        return withUnsafeBytes(of: &info.machine) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// `<Application Support>/com.reception.sdk`.
    @inline(never) @_optimize(size) public static func defaultDataDirectory() -> URL {
        let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return base.appendingPathComponent("com.reception.sdk", isDirectory: true)
    }
}
