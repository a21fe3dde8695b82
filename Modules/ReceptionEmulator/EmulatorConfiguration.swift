import Foundation

/// Everything that shapes one emulator instance: where it listens, where it stores, and the clock and random source
/// it uses (injected so tests and benchmarks control them).
public struct EmulatorConfiguration: Sendable {
    /// Numeric IPv4 address to listen on (`--host`, default loopback only).
    public var host: String
    /// Port to listen on (`--port`); 0 picks a free one (read it back from ``ReceptionEmulator/port``).
    public var port: Int
    /// Folder of the SQLite database (`--data`); created if missing.
    public var dataDirectory: String
    /// Seconds between `: ping` comments on an idle event stream; must stay well under the client's 45 s timeout.
    public var pingInterval: Double
    /// Lifetime of an access token in seconds; its event streams end with `data: reconnect` when it expires.
    public var accessTokenLifetime: Double
    /// Lifetime of a signed attachment URL in seconds; a later download answers 403 (spec 3.18).
    public var attachmentURLLifetime: Double
    /// Lifetime of a signed team photo URL (`team[].photoUrl`) in seconds; a later download answers 403 (spec 3.18).
    public var teamPhotoURLLifetime: Double
    /// Seed of the fault plan's random draws (probability, jitter); `nil` seeds from the system's random source.
    /// The same seed and the same requests fire the same faults (`--chaos-seed`).
    public var chaosSeed: UInt64? = nil
    /// Folder of the dashboard's files (`index.html`, `dashboard.css`, the scripts); `nil` reads them from the
    /// emulator's resource bundle. A folder that lacks one makes the dashboard's pages answer 503.
    public var dashboardFiles: String? = nil
    /// `host[:port]` that replaces both of Apple's APNs hosts (`--apns-host`): a test server such as
    /// `scripts/fake-apns`. `nil` sends to `api.push.apple.com` and `api.sandbox.push.apple.com`.
    public var apnsHost: String? = nil
    /// `host[:port]` that replaces the sandbox host only (`--apns-sandbox-host`), after ``apnsHost``: a test server
    /// per environment.
    public var apnsSandboxHost: String? = nil
    /// PEM certificates that the APNs server's certificate must chain to (`--apns-ca-file`), instead of the
    /// system's trust store; a test server's self-signed certificate is trusted this way. Verification is never off.
    public var apnsCAFile: String? = nil
    /// Waits this many seconds (the APNs provider's backoff between retries); tests pass one that returns at once.
    public var sleep: @Sendable (_ seconds: Double) -> Void = { Thread.sleep(forTimeInterval: $0) }
    /// Seconds since 1970, now.
    public var now: @Sendable () -> Double
    /// Random credentials and IDs: `count` characters from `A–Z a–z 0–9`.
    public var randomText: @Sendable (_ count: Int) -> String

    /// A configuration with the documented defaults (Docs/Emulator.md).
    public init(
        host: String = "127.0.0.1", port: Int = 8080, dataDirectory: String, pingInterval: Double = 20,
        accessTokenLifetime: Double = 3600, attachmentURLLifetime: Double = 3600, teamPhotoURLLifetime: Double = 3600,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        randomText: @escaping @Sendable (_ count: Int) -> String = EmulatorConfiguration.systemRandomText
    ) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.pingInterval = pingInterval
        self.accessTokenLifetime = accessTokenLifetime
        self.attachmentURLLifetime = attachmentURLLifetime
        self.teamPhotoURLLifetime = teamPhotoURLLifetime
        self.now = now
        self.randomText = randomText
    }

    /// `localhost` or an IPv4 address in 127.0.0.0/8: the listening host that needs no exposure warning, and the APNs
    /// test server that may go unverified (`APNsTrust`).
    package static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && UInt8(part) != nil
        }
    }

    /// `count` characters of `A–Z a–z 0–9` from the system's secure random source.
    public static func systemRandomText(_ count: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<max(0, count)).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }
}

/// The three credentials printed at first start and kept in the database (issue 6).
public struct EmulatorCredentials: Sendable, Equatable {
    /// `app_` + 22 letters and digits (spec 1.4): the `X-App-Id` clients send.
    public var appId: String
    /// Bearer token of the admin API (`/admin/…`).
    public var adminToken: String
    /// The identity secret (`ids_…`) that signs identity tokens; `nil` after the admin API removed it.
    public var identitySecret: String?
}
