/// What the provider needs to sign and address a push: the saved key and identifiers (seed 002 "Configure APNs").
package struct APNsCredentials: Sendable {
    package init(keyId: String, teamId: String, bundleId: String, key: APNsSigningKey) {
        self.keyId = keyId
        self.teamId = teamId
        self.bundleId = bundleId
        self.key = key
    }


    /// The 10-character Key ID Apple shows beside the key; the provider token's `kid`.
    package var keyId: String
    /// The 10-character Team ID; the provider token's `iss`.
    package var teamId: String
    /// The app's bundle ID; every push's `apns-topic`.
    package var bundleId: String
    package var key: APNsSigningKey
}

/// Where pushes go: Apple's two hosts (seed 002: the environment each device reported picks one), or the test
/// server(s) that `--apns-host` and `--apns-sandbox-host` name instead.
struct APNsHosts: Sendable, Equatable {
    /// Apple's production host (distribution-signed builds: TestFlight, App Store).
    static let appleProduction = "api.push.apple.com"
    /// Apple's sandbox host (development-signed builds).
    static let appleSandbox = "api.sandbox.push.apple.com"

    var production = appleProduction
    var sandbox = appleSandbox

    /// `--apns-host` replaces both hosts; `--apns-sandbox-host` then replaces the sandbox one again (a test
    /// server per environment).
    init(replacingBoth: String? = nil, sandbox sandboxOverride: String? = nil) {
        if let replacingBoth {
            production = replacingBoth
            sandbox = replacingBoth
        }
        if let sandboxOverride { sandbox = sandboxOverride }
    }

    /// The host for a device's reported environment (`SANDBOX` or `PRODUCTION`; anything else is production,
    /// where App Store builds are).
    func host(environment: String?) -> String { environment == "SANDBOX" ? sandbox : production }

    /// `host` or `host:port`: a DNS name or IPv4 address of letters, digits, dots and hyphens, and a port
    /// 1…65535. Anything that could reshape the URL (`/`, `@`, `?`, spaces, brackets) is refused.
    static func isValid(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let name = parts.first, (1...253).contains(name.utf8.count),
            name.utf8.allSatisfy({ isNameByte($0) }), name.first != "-", name.first != "."
        else { return false }
        if parts.count == 2 {
            guard let port = Int(parts[1]), (1...65535).contains(port), parts[1].utf8.allSatisfy({ (0x30...0x39).contains($0) })
            else { return false }
        }
        return true
    }

    /// ASCII letters, digits, `.` and `-`.
    static func isNameByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2E
            || byte == 0x2D
    }
}

/// One HTTP/2 POST to APNs (Apple, "Sending notification requests to APNs").
struct APNsRequest: Sendable {
    /// `https://<host>/3/device/<token>`.
    var url: String
    /// `authorization`, `apns-topic`, `apns-push-type`, `apns-priority`, `apns-expiration`, and
    /// `apns-collapse-id` when set.
    var headers: [(name: String, value: String)]
    /// The JSON payload.
    var body: [UInt8]

    /// Pushes keep for a day when the device is offline (`apns-expiration`); a chat reply older than that is better
    /// read in the chat than announced.
    static let lifetime: Double = 86_400
    /// `apns-collapse-id` is at most 64 bytes (Apple).
    static let collapseIdLimit = 64

    /// The request for `job` signed with `token`, sent to `hosts` at `now` (seconds since 1970).
    init(job: PushJob, token: ProviderToken, hosts: APNsHosts, now: Double) {
        url = "https://" + hosts.host(environment: job.environment) + "/3/device/" + job.deviceToken
        let expiration = Int64(max(0, min(now + Self.lifetime, 1e15)).rounded(.down))
        headers = [
            ("authorization", "bearer " + token.text), ("apns-topic", job.credentials.bundleId),
            ("apns-push-type", "alert"), ("apns-priority", "10"), ("apns-expiration", String(expiration)),
        ]
        if let collapseId = job.collapseId, (1...Self.collapseIdLimit).contains(collapseId.utf8.count) {
            headers.append(("apns-collapse-id", collapseId))
        }
        body = job.payload
    }
}

/// What APNs answered one request, or why there was no answer.
package struct APNsAnswer: Sendable, Equatable {
    /// The HTTP status; 0 when no answer arrived (connection refused, TLS failure, timeout).
    package var status: Int
    /// The `apns-id` header APNs sends with every answer.
    package var apnsId: String?
    /// The JSON body's `reason` (`Unregistered`, `BadDeviceToken`, …), or the transfer's error when `status` is 0.
    package var reason: String?

    package init(status: Int, apnsId: String? = nil, reason: String? = nil) {
        self.status = status
        self.apnsId = apnsId
        self.reason = reason
    }

    /// What the provider does next.
    package enum Disposition: Equatable {
        /// 200: APNs accepted the push.
        case delivered
        /// 410 `Unregistered`, or 400 `BadDeviceToken`: the device's token is dead; it is dropped.
        case dropToken
        /// 403 `InvalidProviderToken` or `ExpiredProviderToken`: sign a new provider token and try once more.
        case renewProviderToken
        /// 429, 5xx, or no answer: try again after a backoff, a bounded number of times.
        case retry
        /// Anything else: the push is not delivered and the rejection is shown.
        case reject
    }

    package var disposition: Disposition {
        switch (status, reason) {
        case (200, _): return .delivered
        case (410, _), (400, "BadDeviceToken"): return .dropToken
        case (403, "InvalidProviderToken"), (403, "ExpiredProviderToken"): return .renewProviderToken
        case (429, _), (500...599, _), (0, _): return .retry
        default: return .reject
        }
    }
}

/// The retry rule for 429, 5xx and unanswered requests: at most ``maximumAttempts`` tries of one push, waiting
/// 1, 2, then 4 seconds between them (doubling, never more than ``maximumDelay``).
package enum APNsBackoff {
    package static let maximumAttempts = 4
    static let firstDelay: Double = 1
    static let maximumDelay: Double = 8

    /// The wait after failed try number `attempt` (1-based).
    package static func delay(afterAttempt attempt: Int) -> Double {
        let doublings = max(0, min(attempt - 1, 16))
        return min(maximumDelay, firstDelay * Double(1 << doublings))
    }
}

/// Sends one request to APNs and reports its answer (``CurlAPNsClient`` over HTTP/2).
protocol APNsSending: Sendable {
    func send(_ request: APNsRequest) -> APNsAnswer
}
