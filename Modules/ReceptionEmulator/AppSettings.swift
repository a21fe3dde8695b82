/// A request budget for one cooldown scope (spec 6.3.1): `limit` requests per `windowSeconds` per device.
struct RateLimit: Codable, Sendable, Equatable {
    var limit: Int
    var windowSeconds: Int
}

/// One unread polling stage (spec 4.7).
struct PollingStage: Codable, Sendable, Equatable {
    var forMinutes: Int
    var everySeconds: Int
}

/// Notification content settings (seed 002 "Customize notification content").
struct PushSettings: Codable, Sendable, Equatable {
    /// Simulated credentials: without a saved key, pushes are still written to the push outbox (never sent) and
    /// `push` in unread answers is true for devices with a token. A saved key (``AppSettings/apns``) makes pushes
    /// real whatever this says.
    var configured = true
    /// The app name: the fallback for an empty rendered title.
    var appName = "Reception Emulator"
    /// Custom English title template (≤ 120 characters), `nil` for the built-in text.
    var titleTemplate: String?
    /// Custom English body template (≤ 120 characters), `nil` for the built-in text.
    var bodyTemplate: String?
    /// Custom templates of the other languages by supported tag (seed 002: an override applies to its language
    /// only and is not translated); optional so a settings document written before it decodes.
    var templates: [String: PushTemplate]?
    /// Sender name shared by all languages (trimmed, ≤ 60), `nil` for the localized default.
    var senderName: String?
    /// "Show message": the reply text is the preview; off → a generic prompt.
    var showMessage = true
    /// `aps.sound: "default"` when on.
    var sound = true
    /// Paywall (offer) cards also push (off by default).
    var offerPushes = false
}

extension PushSettings {
    /// The overrides of `language` (`en`: `titleTemplate` and `bodyTemplate`).
    func template(for language: String) -> PushTemplate {
        language == "en" ? PushTemplate(title: titleTemplate, body: bodyTemplate) : templates?[language] ?? PushTemplate()
    }

    /// Sets `language`'s overrides; an empty pair removes the language's entry.
    mutating func setTemplate(_ template: PushTemplate, for language: String) {
        if language == "en" {
            titleTemplate = template.title
            bodyTemplate = template.body
            return
        }
        var all = templates ?? [:]
        all[language] = template.title == nil && template.body == nil ? nil : template
        templates = all.isEmpty ? nil : all
    }

    /// Every language's overrides as the admin API shows them: `{tag: {title, body}}`, English included when set.
    var templatesJSON: JSONValue {
        var result: [String: JSONValue] = [:]
        for language in PushLanguage.supported {
            let template = template(for: language)
            guard template.title != nil || template.body != nil else { continue }
            var fields: [String: JSONValue] = [:]
            if let title = template.title { fields["title"] = .string(title) }
            if let body = template.body { fields["body"] = .string(body) }
            result[language] = .object(fields)
        }
        return .object(result)
    }
}

/// The app's persistent settings: credentials, switches and the team's configuration. Kept as one JSON document in
/// the `settings` table.
struct AppSettings: Codable, Sendable {
    var appId: String
    var adminToken: String
    var identitySecret: String?
    /// Key of the storage and attachment URL signatures (never shown).
    var signingKey: String
    var disabled = false
    var onlyVerifiedUsers = false
    var rateLimits: [String: RateLimit] = [:]
    var unreadPolling: [PollingStage]?
    var push = PushSettings()
    /// The published appearance object as JSON text, with its revision (spec 3.16).
    var appearance = "{}"
    var appearanceRevision = 0
    /// The App Store ID review cards link to by default (dashboard, seed 001 "Review cards"); optional so a
    /// settings document written before it decodes.
    var appStoreId: String?
    /// The APNs connection's identifiers (seed 002 "Configure APNs"); kept when the key is removed (Disconnect).
    /// The key itself is stored apart (``EmulatorState/apnsKeyRow``), never in this document.
    var apns: APNsIdentifiers?
}

/// The identifiers of an APNs connection: what Apple shows beside the key, and the app's bundle ID.
struct APNsIdentifiers: Codable, Sendable, Equatable {
    var keyId: String
    var teamId: String
    var bundleId: String
    /// When the current key was saved (seconds since 1970); `nil` once it was removed.
    var keySavedAt: Double?
}
