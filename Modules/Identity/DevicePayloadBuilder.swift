import ReceptionCore

/// The facts about the host app and the device that every device payload carries (spec 4.1). The facade reads them
/// from the platform; tests write them out.
public struct DeviceFacts: Hashable, Sendable {
    /// The SDK version, e.g. `"1.1.0"`.
    public var sdkVersion: String
    /// The host's short version string; `nil` or empty becomes `"1.0"`.
    public var appVersion: String?
    /// The host's build number; `nil` or empty becomes `"1"`.
    public var appBuild: String?
    /// The OS version, e.g. `"18.2"`.
    public var osVersion: String
    /// The hardware machine identifier, e.g. `"iPhone17,1"`.
    public var deviceModel: String
    /// The platform locale identifier in underscore form, e.g. `"en_US"`.
    public var locale: String
    /// The IANA time zone, e.g. `"Europe/Berlin"`.
    public var timezone: String
    /// The host's bundle identifier, when known.
    public var bundleId: String?

    /// Makes the facts.
    @inline(never) @_optimize(size) public init(
        sdkVersion: String, appVersion: String? = nil, appBuild: String? = nil, osVersion: String,
        deviceModel: String, locale: String, timezone: String, bundleId: String? = nil
    ) {
        self.sdkVersion = sdkVersion
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.osVersion = osVersion
        self.deviceModel = deviceModel
        self.locale = locale
        self.timezone = timezone
        self.bundleId = bundleId
    }

    /// Hashes the app version only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(appVersion) }
}

/// The synchronised preferences of spec 7.6 as the payload needs them.
public struct DevicePreferences: Hashable, Sendable {
    /// The host's `languageOverride`, if set.
    public var languageOverride: String?
    /// The host's preferred localisations, most preferred first.
    public var preferredLocalizations: [String]
    /// Whether the SDK manages the app icon badge.
    public var updatesAppBadge: Bool
    /// The currently available paywalls (spec 7.21), already validated.
    public var paywalls: [ReceptionPaywall]

    /// Makes preferences; the defaults are those of a host that set nothing.
    @inline(never) @_optimize(size) public init(
        languageOverride: String? = nil, preferredLocalizations: [String] = [], updatesAppBadge: Bool = true,
        paywalls: [ReceptionPaywall] = []
    ) {
        self.languageOverride = languageOverride
        self.preferredLocalizations = preferredLocalizations
        self.updatesAppBadge = updatesAppBadge
        self.paywalls = paywalls
    }

    /// Spec 7.19: the canonical app language the payload carries.
    @_optimize(size) public var language: String {
        LanguageTag.appLanguage(override: languageOverride, preferredLocalizations: preferredLocalizations)
    }

    /// Hashes the language override only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(languageOverride) }
}

/// Which request a payload is for: they differ in the push fields (spec 3.1, 3.2).
public enum DevicePayloadPurpose: Sendable, Hashable {
    /// `POST devices`: never push fields; a staged token always.
    case registration
    /// `PATCH devices/me`: push fields when both are known; the token only until the service accepted it.
    case update
}

/// Builds the device payload of spec 4.1 from the device facts, the pending identity, the preferences and the
/// identity token to carry. Pure: it decides nothing about tokens (the stager does).
public struct DevicePayloadBuilder: Hashable, Sendable {
    /// The device facts every payload repeats.
    public var facts: DeviceFacts

    /// A builder for one device.
    @_optimize(size) public init(facts: DeviceFacts) { self.facts = facts }

    /// The complete payload. Identity labels and metadata are checked against their limits again, so a value that
    /// reached the stored pending identity some other way can never be sent over its limit.
    @inline(never) @_optimize(size) public func payload(
        _ purpose: DevicePayloadPurpose, identity: PendingIdentity, preferences: DevicePreferences,
        identityToken: String?
    ) -> DevicePayload {
        let pushKnown = purpose == .update && identity.pushToken != nil && identity.pushEnvironment != nil
        return DevicePayload(
            sdkVersion: facts.sdkVersion,
            appVersion: Self.nonEmpty(facts.appVersion) ?? "1.0",
            appBuild: Self.nonEmpty(facts.appBuild) ?? "1",
            osVersion: facts.osVersion,
            deviceModel: facts.deviceModel,
            locale: facts.locale,
            timezone: facts.timezone,
            language: preferences.language,
            bundleId: Self.nonEmpty(facts.bundleId),
            externalUserId: Limits.externalUserId.admitted(identity.externalUserId),
            name: Limits.name.admitted(identity.name),
            email: Limits.email.admitted(identity.email),
            pushToken: pushKnown ? identity.pushToken : nil,
            pushEnvironment: pushKnown ? identity.pushEnvironment : nil,
            paywalls: preferences.paywalls,
            metadata: Limits.sanitizedMetadata(identity.metadata).kept,
            updatesAppBadge: preferences.updatesAppBadge,
            identityToken: identityToken)
    }

    @_optimize(size) private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
