import Foundation

/// The built-in push texts of one language (seed 002 "Customize notification content", "Notification language"):
/// the default titles, the sender's default name, the hidden-message prompt, the empty-body placeholder, the photo
/// marker and summary, and the test message. The table of all 48 is in `PushTexts+Table.swift`.
struct PushTexts: Sendable, Equatable {
    var newMessage: String
    /// With `{agent}`: the default title once a sender name is set.
    var newMessageFrom: String
    /// The `{agent}` of a push without a sender name.
    var sender: String
    /// The body when "Show message" is off.
    var hiddenMessage: String
    /// The body when the rendered one is empty.
    var placeholder: String
    /// A one-photo reply without text reads "📷 " + this.
    var photo: String
    /// A reply of several photos without text: "📷 " + the form for the count's CLDR category, `{count}` filled.
    var photos: [String: String]
    /// An offer push without text or button label ("See your discount").
    var offerFallback: String
    /// The message of the dashboard's "Send test".
    var testMessage: String

    /// The supported language these texts are in.
    var language = "en"

    /// English, used for any language the table lacks.
    static let english: PushTexts = table["en"].map { var texts = $0; texts.language = "en"; return texts }
        ?? PushTexts(
            newMessage: "New message", newMessageFrom: "New message from {agent}", sender: "Support",
            hiddenMessage: "Open the app to read the reply.", placeholder: "You have a new message.", photo: "Photo",
            photos: ["one": "{count} photo", "other": "{count} photos"], offerFallback: "See your discount",
            testMessage: "This is a test notification.")

    /// The texts of a supported language (`PushLanguage.supported`), English for anything else.
    static func texts(for language: String) -> PushTexts {
        guard var texts = table[language] else { return english }
        texts.language = language
        return texts
    }

    /// The photo summary of `count` photos, without the marker.
    func photoSummary(count: Int) -> String {
        let form = photos[PushLanguage.pluralCategory(language: language, count: count)] ?? photos["other"]
            ?? "{count}"
        return form.replacingOccurrences(of: "{count}", with: String(count))
    }
}

/// The language a push is rendered in (seed 002): the device's last reported app language, matched to a supported
/// language or English; a device that never reported one uses its locale the same way.
enum PushLanguage {
    /// Spec 7.19's 48 languages.
    static let supported = [
        "en", "de", "fr", "fr-CA", "es", "es-419", "it", "pt-BR", "pt-PT", "ca", "ro", "nl", "sv", "da", "nb", "fi",
        "pl", "cs", "sk", "hu", "sl", "hr", "el", "uk", "ru", "tr", "ja", "ko", "zh-Hans", "zh-Hant", "zh-HK", "th",
        "vi", "id", "ms", "hi", "bn", "gu", "kn", "ml", "mr", "or", "pa", "ta", "te", "ur", "ar", "he",
    ]

    /// The device's language if it reported one (blank counts as none), else its locale, matched; else English.
    static func resolve(language: String?, locale: String?) -> String {
        if let language, !language.isBlank { return match(language) ?? "en" }
        if let locale, !locale.isBlank { return match(locale) ?? "en" }
        return "en"
    }

    /// Spec 7.19's matching of a tag (or a locale such as `pt_PT` or `zh_Hant_TW`): exact, then the Chinese,
    /// Spanish, Portuguese, French and Norwegian rules, then the base language; `nil` when none is supported.
    static func match(_ raw: String) -> String? {
        let tag = raw.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "-")
        if let exact = supported.first(where: { $0.caseInsensitiveCompare(tag) == .orderedSame }) { return exact }
        let parts = tag.split(separator: "-").map(String.init)
        guard var language = parts.first?.lowercased(), !language.isEmpty else { return nil }
        language = ["iw": "he", "in": "id", "mo": "ro"][language] ?? language
        let script = parts.dropFirst().first { $0.count == 4 }?.lowercased()
        let region = parts.dropFirst().first { $0.count == 2 || ($0.count == 3 && $0.allSatisfy(\.isNumber)) }?
            .uppercased()
        switch language {
        case "zh":
            if script == "hans" { return "zh-Hans" }
            if region == "HK" || region == "MO" { return "zh-HK" }
            return script == "hant" || region == "TW" ? "zh-Hant" : "zh-Hans"
        case "es": return region == nil || region == "ES" ? "es" : "es-419"
        case "pt": return region == "PT" ? "pt-PT" : "pt-BR"
        case "fr": return region == "CA" ? "fr-CA" : "fr"
        case "no", "nn", "nb": return "nb"
        default: return supported.contains(language) ? language : nil
        }
    }

    /// The CLDR cardinal category of a whole `count` in `language` (only the photo summary needs it).
    static func pluralCategory(language: String, count: Int) -> String {
        let n = count.magnitude, tens = n % 100, units = n % 10
        let base = String(language.prefix { $0 != "-" })
        let slavicFew = (2...4).contains(units) && !(12...14).contains(tens)
        switch base {
        case "ja", "ko", "zh", "th", "vi", "id", "ms": return "other"
        case "ar": return n == 0 ? "zero" : n == 1 ? "one" : n == 2 ? "two" : (3...10).contains(tens) ? "few"
            : (11...99).contains(tens) ? "many" : "other"
        case "he": return n == 1 ? "one" : n == 2 ? "two" : "other"
        case "sl": return tens == 1 ? "one" : tens == 2 ? "two" : (3...4).contains(tens) ? "few" : "other"
        case "ru", "uk": return units == 1 && tens != 11 ? "one" : slavicFew ? "few" : "many"
        case "pl": return n == 1 ? "one" : slavicFew ? "few" : "many"
        case "hr": return units == 1 && tens != 11 ? "one" : slavicFew ? "few" : "other"
        case "cs", "sk": return n == 1 ? "one" : (2...4).contains(n) ? "few" : "other"
        case "ro": return n == 1 ? "one" : n == 0 || (1...19).contains(tens) ? "few" : "other"
        case "hi", "bn", "gu", "kn", "pa": return n <= 1 ? "one" : "other"
        case "fr": return n <= 1 ? "one" : n % 1_000_000 == 0 ? "many" : "other"
        case "pt" where language != "pt-PT": return n <= 1 ? "one" : n % 1_000_000 == 0 ? "many" : "other"
        case "es", "it", "ca", "pt": return n == 1 ? "one" : n % 1_000_000 == 0 ? "many" : "other"
        default: return n == 1 ? "one" : "other"
        }
    }
}

/// Per-language title and message overrides of the notification content (seed 002): each applies to its language
/// only and is never translated; "Reset text to default" clears a language's pair.
struct PushTemplate: Codable, Sendable, Equatable {
    var title: String?
    var body: String?
}
