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
    public var serviceRoot: URL
    /// Where the message store, the photo cache and the plain preferences live.
    public var dataDirectory: URL
    /// The HTTP layer.
    public var transport: any HTTPTransporting
    /// Where session secrets live (Keychain on Apple platforms, files elsewhere).
    public var secureStore: any SecureStoring
    /// Opens the message store for a storage scope in `dataDirectory`.
    public var messageStore: @Sendable (_ directory: URL, _ scope: StorageScope, _ logger: ReceptionLogger)
        throws(ReceptionError) -> any MessageStoring
    /// Opens the photo cache for a storage scope in `dataDirectory`: the bytes of photos downloaded or sent, so each
    /// is fetched once. `FilePhotoCache` (64 MiB, least recently used first, out of backups) by default; set your own
    /// budget with `{ try FilePhotoCache(directory: $0, scope: $1, byteBudget: 16 << 20, logger: $2) }`, or
    /// `{ _, _, _ in NoPhotoCache() }` to keep none. Logout, deletion and a chat reset remove it.
    public var photoCache: @Sendable (_ directory: URL, _ scope: StorageScope, _ logger: ReceptionLogger)
        throws(ReceptionError) -> any PhotoCaching
    /// Turns picked photos into upload-ready JPEGs.
    public var images: any ImagePreparing
    /// The app icon badge (nothing on hosts without one).
    public var badge: any BadgeSink
    /// Delivered notifications, for cleanup when the count reaches zero.
    public var notifications: any NotificationStore
    /// Whether the person allowed notifications (it pauses unread polling when push can deliver).
    public var notificationPermission: any NotificationPermissionReading
    /// Resolves the automatic APNs environment (the embedded provisioning profile on devices).
    public var pushEnvironment: any PushEnvironmentResolving
    /// Network path changes: `NWPathMonitor` on Apple platforms (`SystemNetworkPathMonitor`), `nil` elsewhere,
    /// where the host reports them (`setNetworkAvailable`) or passes its own monitor.
    public var network: (any NetworkPathMonitoring)?
    /// App lifecycle changes: UIKit's application notifications on iOS, AppKit's on macOS
    /// (`NotificationLifecycleMonitor`), `nil` elsewhere, where the host calls `appDidBecomeActive()` and
    /// `appDidEnterBackground()` or passes its own monitor.
    public var lifecycle: (any AppLifecycleMonitoring)?
    /// Opens a review card's link and the links tapped in messages (`http`, `https`, `mailto` and `tel` only): the
    /// system URL action on Apple platforms, the host's choice elsewhere. To show a page inside your app, present it
    /// with `Reception.shared.present(_:)`, which goes over the chat sheet.
    public var openURL: @MainActor @Sendable (URL) -> Void
    /// Time and sleeping.
    public var clock: any ReceptionClock
    /// Identifiers.
    public var ids: any IDGenerating
    /// Jitter.
    public var random: any RandomSource
    /// What the device payload says about this device and app: this device's facts unless you set your own. They
    /// are read when a session starts, not by `init` (the locale, time zone and bundle lookups cost more than the
    /// rest of a configuration at app launch; Docs/Footprint.md).
    @_optimize(size) public var device: DeviceFacts {
        get { deviceOverride ?? Self.currentDevice() }
        set { deviceOverride = newValue }
    }
    /// The facts a host set, if any.
    private var deviceOverride: DeviceFacts?
    /// The host's preferred localisations, most preferred first (the app language, spec 7.19).
    public var preferredLocalizations: [String]
    /// Test knob: how `preferences.json` and `appearance.json` are replaced (tests make it fail, as a full disk
    /// would).
    var writePreferencesFile: FilePreferences.Write
    /// Test knob: how long the setup check waits for the app to become active and the message to be sent (spec
    /// 7.23: 60 s). A loaded test machine that runs hundreds of tests at once can take longer than that.
    var setupCheckBudget: Duration = .seconds(60)

    /// The standard composition: hosted service, SQLite store and file photo cache, URLSession, our JPEG pipeline, the platform's
    /// secure store, badge, notification, lifecycle and network adapters where the platform has them.
    @_optimize(size) public init(
        serviceRoot: URL = ServiceEndpoint.hostedRoot ?? URL(fileURLWithPath: "/"),
        dataDirectory: URL = ReceptionConfiguration.defaultDataDirectory()
    ) {
        self.serviceRoot = serviceRoot
        self.dataDirectory = dataDirectory
        self.transport = URLSessionTransport()
        #if canImport(Security)
        self.secureStore = KeychainSecureStore()
        #else
        self.secureStore = FileSecureStore(directory: dataDirectory.appendingPathComponent("secure", isDirectory: true))
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
        self.network = Self.platformNetwork()
        self.lifecycle = Self.platformLifecycle()
        #if canImport(UIKit)
        self.openURL = { url in UIApplication.shared.open(url) }
        #else
        self.openURL = { _ in }
        #endif
        self.clock = SystemClock()
        self.ids = SystemIDGenerator()
        self.random = SystemRandomSource()
        self.preferredLocalizations = Locale.preferredLanguages
        self.writePreferencesFile = FilePreferences.writeAtomically
    }

    /// This device and app as the device payload describes them, read now.
    @_optimize(size) static func currentDevice() -> DeviceFacts {
        DeviceFacts(
            sdkVersion: Reception.version, osVersion: ProcessInfo.processInfo.operatingSystemVersionString,
            deviceModel: machine(), locale: Locale.current.identifier, timezone: TimeZone.current.identifier,
            bundleId: Bundle.main.bundleIdentifier)
    }

    /// The platform's path monitor (Docs/Apple.md): `NWPathMonitor` where the Network framework exists.
    @_optimize(size) static func platformNetwork() -> (any NetworkPathMonitoring)? {
        #if canImport(Network)
        return SystemNetworkPathMonitor()
        #else
        return nil
        #endif
    }

    /// The platform's lifecycle signal (Docs/Apple.md): UIKit's application notifications, else AppKit's.
    @_optimize(size) static func platformLifecycle() -> (any AppLifecycleMonitoring)? {
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
    @_optimize(size) static func machine() -> String {
        var info = utsname()
        uname(&info)
        return withUnsafeBytes(of: &info.machine) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// `<Application Support>/com.reception.sdk`.
    @_optimize(size) public static func defaultDataDirectory() -> URL {
        let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return base.appendingPathComponent("com.reception.sdk", isDirectory: true)
    }
}
