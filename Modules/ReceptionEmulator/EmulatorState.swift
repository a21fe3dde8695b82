import Foundation

/// Everything mutable about the emulated service: the database, the app settings and the rate-limit windows.
/// One request uses it at a time (it lives in the emulator's `EmulatorLock`), so the handlers in `Routes/` are plain
/// methods on it.
final class EmulatorState {
    let db: SQLiteDatabase
    var settings: AppSettings
    let configuration: EmulatorConfiguration
    let hub: EventHub
    /// `http://host:port`, known once the server listens; the prefix of upload and attachment URLs.
    var baseURL = ""
    /// Open rate-limit windows by `scope|subject`.
    var rateWindows: [String: RateWindow] = [:]
    /// The team members' dashboard sign-in links and sessions (kept in memory: a restart signs every browser out).
    var dashboard: DashboardAccess
    /// Records that event streams handed `changed` lines for these agent messages to their connections; set by
    /// the emulator to take its state lock, since streams write on their own threads.
    var streamReceived: @Sendable ([String]) -> Void = { _ in }
    /// The saved APNs key, read from its own settings row (``apnsKeyRow``); `nil` when none is saved.
    var apnsKey: APNsSigningKey?
    /// Who calls the admin endpoint being answered (``TeamCaller/operator_`` between requests): what an answer may
    /// show depends on it (an Agent never sees the identity secret).
    var currentCaller = TeamCaller.operator_
    /// Hands a push to the APNs provider's worker; set by the emulator (the worker records results under the
    /// state lock, so it runs on a queue of its own).
    var pushQueued: @Sendable (PushJob) -> Void = { _ in }

    init(configuration: EmulatorConfiguration, hub: EventHub) throws {
        self.configuration = configuration
        self.hub = hub
        dashboard = DashboardAccess()
        try FileManager.default.createDirectory(
            atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        db = try SQLiteDatabase(path: configuration.dataDirectory + "/emulator.sqlite")
        try Schema.migrate(db)
        if let stored = try db.row("SELECT value FROM settings WHERE key = 'app'")?.text("value"),
            let settings = try? JSONDecoder().decode(AppSettings.self, from: Data(stored.utf8))
        {
            self.settings = settings
        } else {
            let random = configuration.randomText
            settings = AppSettings(
                appId: "app_" + random(22), adminToken: "adm_" + random(32), identitySecret: "ids_" + random(40),
                signingKey: random(40))
            try saveSettings()
        }
        apnsKey = try loadAPNsKey()
        try ensureOwner()
    }

    /// Writes the settings document.
    func saveSettings() throws {
        let text = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
        try db.query("INSERT OR REPLACE INTO settings (key, value) VALUES ('app', ?)", [.text(text)])
    }

    /// Seconds since 1970.
    var now: Double { configuration.now() }

    /// A new identifier: `prefix` + 22 random letters and digits.
    func newID(_ prefix: String) -> String { prefix + configuration.randomText(22) }

    var credentials: EmulatorCredentials {
        EmulatorCredentials(
            appId: settings.appId, adminToken: settings.adminToken, identitySecret: settings.identitySecret)
    }
}
