/// The body of `POST devices` and `PATCH devices/me` (spec 4.1). Every update sends the whole current state;
/// optional fields without a value are omitted, never sent as `null` (spec 1.6).
public struct DevicePayload: Codable, Hashable, Sendable {
    /// Always `"ios"`: the service knows one client platform.
    public var platform: String
    /// The SDK version.
    public var sdkVersion: String
    /// The host's short version string (`"1.0"` when missing).
    public var appVersion: String
    /// The host's build number (`"1"` when missing).
    public var appBuild: String
    /// The OS version.
    public var osVersion: String
    /// The hardware model identifier.
    public var deviceModel: String
    /// The platform locale identifier, underscore form (`en_US`).
    public var locale: String
    /// The IANA time zone.
    public var timezone: String
    /// The canonical BCP 47 app language (spec 7.19).
    public var language: String
    /// The host's bundle identifier, when known.
    public var bundleId: String?
    /// The unverified user ID from `identify(userId:)`, at most 255 UTF-16 units.
    public var externalUserId: String?
    /// At most 200 UTF-16 units.
    public var name: String?
    /// At most 254 UTF-16 units.
    public var email: String?
    /// Lower-case hex of the APNs token; update only, and only together with `pushEnvironment`.
    public var pushToken: String?
    /// The token's APNs environment.
    public var pushEnvironment: PushEnvironment?
    /// The currently available paywalls (may be empty).
    public var paywalls: [ReceptionPaywall]
    /// Customer details, already sanitised by `Limits.sanitizedMetadata` (may be empty).
    public var metadata: [String: String]
    /// Whether the SDK manages the app icon badge; `false` makes pushes omit `aps.badge`.
    public var updatesAppBadge: Bool
    /// A staged identity JWT (spec 7.14.3).
    public var identityToken: String?

    /// Makes a payload.
    @inline(never) @_optimize(size) public init(
        platform: String = "ios", sdkVersion: String, appVersion: String, appBuild: String, osVersion: String,
        deviceModel: String, locale: String, timezone: String, language: String, bundleId: String? = nil,
        externalUserId: String? = nil, name: String? = nil, email: String? = nil, pushToken: String? = nil,
        pushEnvironment: PushEnvironment? = nil, paywalls: [ReceptionPaywall] = [], metadata: [String: String] = [:],
        updatesAppBadge: Bool = true, identityToken: String? = nil
    ) {
        self.platform = platform
        self.sdkVersion = sdkVersion
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.osVersion = osVersion
        self.deviceModel = deviceModel
        self.locale = locale
        self.timezone = timezone
        self.language = language
        self.bundleId = bundleId
        self.externalUserId = externalUserId
        self.name = name
        self.email = email
        self.pushToken = pushToken
        self.pushEnvironment = pushEnvironment
        self.paywalls = paywalls
        self.metadata = metadata
        self.updatesAppBadge = updatesAppBadge
        self.identityToken = identityToken
    }

    /// Spec 3.1: a registration never carries push fields (they follow in the update right after).
    @inline(never) @_optimize(size) public var forRegistration: DevicePayload {
        var copy = self
        copy.pushToken = nil
        copy.pushEnvironment = nil
        return copy
    }

    @inline(never) @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(platform, forKey: "platform")
        try c.encode(sdkVersion, forKey: "sdkVersion")
        try c.encode(appVersion, forKey: "appVersion")
        try c.encode(appBuild, forKey: "appBuild")
        try c.encode(osVersion, forKey: "osVersion")
        try c.encode(deviceModel, forKey: "deviceModel")
        try c.encode(locale, forKey: "locale")
        try c.encode(timezone, forKey: "timezone")
        try c.encode(language, forKey: "language")
        try c.encodeIfPresent(bundleId, forKey: "bundleId")
        try c.encodeIfPresent(externalUserId, forKey: "externalUserId")
        try c.encodeIfPresent(name, forKey: "name")
        try c.encodeIfPresent(email, forKey: "email")
        // Spec 4.1: the push pair travels together or not at all.
        if let pushToken, let pushEnvironment {
            try c.encode(pushToken, forKey: "pushToken")
            try c.encode(pushEnvironment, forKey: "pushEnvironment")
        }
        try c.encode(paywalls, forKey: "paywalls")
        try c.encode(metadata, forKey: "metadata")
        try c.encode(updatesAppBadge, forKey: "updatesAppBadge")
        try c.encodeIfPresent(identityToken, forKey: "identityToken")
    }

    /// Hashes the user ID only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(externalUserId) }
}

/// A paywall the host offers (spec 7.21): `Reception.shared.paywalls = [ReceptionPaywall(id: "pro", title: "Pro")]`.
/// Only `id` and `title` travel.
public struct ReceptionPaywall: Codable, Hashable, Sendable {
    /// 1–64 UTF-16 units of `[A-Za-z0-9_.-]`.
    public var id: String
    /// 1–60 UTF-16 units.
    public var title: String

    /// Makes a paywall entry.
    @inline(never) @_optimize(size) public init(id: String, title: String) {
        self.id = id
        self.title = title
    }

    /// Hashes the ID only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// The earlier name of `ReceptionPaywall`.
@available(*, deprecated, renamed: "ReceptionPaywall")
public typealias Paywall = ReceptionPaywall

extension DevicePayload {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        platform = try c.decode(String.self, forKey: "platform")
        sdkVersion = try c.decode(String.self, forKey: "sdkVersion")
        appVersion = try c.decode(String.self, forKey: "appVersion")
        appBuild = try c.decode(String.self, forKey: "appBuild")
        osVersion = try c.decode(String.self, forKey: "osVersion")
        deviceModel = try c.decode(String.self, forKey: "deviceModel")
        locale = try c.decode(String.self, forKey: "locale")
        timezone = try c.decode(String.self, forKey: "timezone")
        language = try c.decode(String.self, forKey: "language")
        bundleId = try c.decodeIfPresent(String.self, forKey: "bundleId")
        externalUserId = try c.decodeIfPresent(String.self, forKey: "externalUserId")
        name = try c.decodeIfPresent(String.self, forKey: "name")
        email = try c.decodeIfPresent(String.self, forKey: "email")
        pushToken = try c.decodeIfPresent(String.self, forKey: "pushToken")
        pushEnvironment = try c.decodeIfPresent(PushEnvironment.self, forKey: "pushEnvironment")
        paywalls = try c.decode([ReceptionPaywall].self, forKey: "paywalls")
        metadata = try c.decode([String: String].self, forKey: "metadata")
        updatesAppBadge = try c.decode(Bool.self, forKey: "updatesAppBadge")
        identityToken = try c.decodeIfPresent(String.self, forKey: "identityToken")
    }
}

extension ReceptionPaywall {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        id = try c.decode(String.self, forKey: "id")
        title = try c.decode(String.self, forKey: "title")
    }

    @inline(never) @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(id, forKey: "id")
        try c.encode(title, forKey: "title")
    }
}
