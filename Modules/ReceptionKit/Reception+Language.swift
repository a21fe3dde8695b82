import Identity
import ReceptionCore

extension Reception {
    /// The app language (spec 7.19): the canonical BCP 47 form of `languageOverride`, else the host's first preferred
    /// localisation, else `en`. It is what the device payload's `language` carries.
    public var appLanguage: String {
        LanguageTag.appLanguage(override: languageOverride, preferredLocalizations: configuration.preferredLocalizations)
    }

    /// The language of the chat's built-in texts: `appLanguage` resolved over the supported languages with the
    /// fallbacks of spec 7.19 (`es-MX` → `es-419`, `pt` → `pt-BR`, `zh-TW` → `zh-Hant`, `no` → `nb`, unknown → `en`).
    public var chatLanguage: String { LanguageTag.uiLanguage(for: appLanguage) }

    /// Whether the chat's built-in texts read right to left.
    public var chatIsRightToLeft: Bool { LanguageTag.isRightToLeft(appLanguage) }
}
