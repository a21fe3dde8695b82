import Conversation
import Identity
import ReceptionCore

extension Reception {
    /// The app language (spec 7.19): the canonical BCP 47 form of `languageOverride`, else the host's first preferred
    /// localisation, else `en`. It is what the device payload's `language` carries.
    @inline(never) @_optimize(size) public var appLanguage: String {
        LanguageTag.appLanguage(override: languageOverride, preferredLocalizations: configuration.preferredLocalizations)
    }

    /// The language of the chat's built-in texts: `appLanguage` resolved over the supported languages with the
    /// fallbacks of spec 7.19 (`es-MX` → `es-419`, `pt` → `pt-BR`, `zh-TW` → `zh-Hant`, `no` → `nb`, unknown → `en`).
    @_optimize(size) public var chatLanguage: String { LanguageTag.uiLanguage(for: appLanguage) }

    /// Whether the chat's built-in texts read right to left.
    @_optimize(size) public var chatIsRightToLeft: Bool { LanguageTag.isRightToLeft(appLanguage) }

    /// The chat's built-in texts in `chatLanguage`, with its layout direction; the title and welcome texts of
    /// `chatAppearance` (the host's, or the dashboard's published ones for this language) come first where set,
    /// then `textOverrides`. `chat.texts` follows it at once when the language override, the appearance or the
    /// overrides change.
    @inline(never) @_optimize(size) public var chatTexts: ChatTexts {
        // A loop, not a `filter` closure (Docs/Footprint.md, "Loops for one-off closures").
        var overrides: [ChatTextKey: String] = [:]
        for (key, text) in textOverrides where !text.isEmpty { overrides[key] = text }
        let texts = chatAppearance.texts
        if let title = texts.title, !title.isEmpty { overrides[.title] = title }
        if let welcomeTitle = texts.welcomeTitle, !welcomeTitle.isEmpty { overrides[.welcomeTitle] = welcomeTitle }
        if let welcomeText = texts.welcomeText, !welcomeText.isEmpty { overrides[.welcomeText] = welcomeText }
        return ChatTexts(language: chatLanguage, overrides: overrides)
    }
}
