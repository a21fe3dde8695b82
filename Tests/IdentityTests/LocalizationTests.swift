import Identity
import Testing

/// Spec 7.19 and §9 `LocalizationTests`: canonical app-language tags and the built-in UI language they resolve to.
@Suite struct LocalizationTests {
    @Test(arguments: [
        ("es_mx", "es-MX"), ("zh_hans_hk", "zh-Hans-HK"), ("iw-IL", "he-IL"), ("en-US-u-ca-gregory", "en-US"),
        ("  de  ", "de"), ("DE", "de"), ("en-us", "en-US"), ("ZH-HANT-tw", "zh-Hant-TW"), ("mo", "ro"),
        ("mol", "ro"), ("in", "id"), ("es-419", "es-419"), ("sl-rozaj-biske", "sl-rozaj-biske"),
        ("de-CH-1996", "de-CH-1996"), ("en-x-private", "en"), ("en-a-bbb-x-a-ccc", "en"), ("fr-CA", "fr-CA"),
        ("\tpt_PT\n", "pt-PT"),
        // Invalid → "en".
        ("", "en"), ("e", "en"), ("engl", "en"), ("123", "en"), ("en--US", "en"), ("en-", "en"), ("-en", "en"),
        ("en-US-u", "en"), ("en-u-ca-x", "en"), ("en-x", "en"), ("x-private", "en"), ("i-klingon", "en"),
        ("sl-rozaj-rozaj", "en"), ("en-u-ca-gregory-u-nu-latn", "en"), ("en US", "en"), ("ünï", "en"),
        ("en-US-abcd", "en"), ("de-a-123456789", "en"),
        // Longer than 35 units after stripping → "en".
        ("en-Latn-US-variant1-variant2-variant3-variant4", "en"),
    ])
    func canonicalisation(raw: String, canonical: String) {
        #expect(LanguageTag.canonical(raw) == canonical)
    }

    @Test func appLanguagePrefersTheOverrideThenTheFirstLocalisationThenEnglish() {
        #expect(LanguageTag.appLanguage(override: "fr_ca", preferredLocalizations: ["de"]) == "fr-CA")
        #expect(LanguageTag.appLanguage(override: nil, preferredLocalizations: ["de_AT", "fr"]) == "de-AT")
        #expect(LanguageTag.appLanguage(override: nil, preferredLocalizations: []) == "en")
    }

    @Test(arguments: LanguageTag.supportedUILanguages)
    func everySupportedTagResolvesToItself(tag: String) {
        #expect(LanguageTag.uiLanguage(for: tag) == tag)
    }

    @Test func thereAre48SupportedLanguages() {
        #expect(LanguageTag.supportedUILanguages.count == 48)
        #expect(Set(LanguageTag.supportedUILanguages).count == 48)
    }

    @Test(arguments: [
        ("de_DE", "de"), ("es-MX", "es-419"), ("es", "es"), ("es-ES", "es"), ("es-AR", "es-419"), ("pt", "pt-BR"),
        ("pt-AO", "pt-BR"), ("pt_PT", "pt-PT"), ("fr-BE", "fr"), ("fr_ca", "fr-CA"), ("no", "nb"), ("nn", "nb"),
        ("nb-NO", "nb"), ("iw-IL", "he"), ("mo", "ro"), ("zh", "zh-Hans"), ("zh-CN", "zh-Hans"),
        ("zh-Hans-HK", "zh-Hans"), ("zh-HK", "zh-HK"), ("zh-MO", "zh-HK"), ("zh-Hant-HK", "zh-HK"),
        ("zh-Hant", "zh-Hant"), ("zh-TW", "zh-Hant"), ("zh-Hant-SG", "zh-Hant"), ("zh-SG", "zh-Hans"),
        ("EN-gb", "en"), ("ja-JP", "ja"), ("sr", "en"), ("xx", "en"), ("not valid", "en"), ("", "en"),
    ])
    func uiLanguageResolution(tag: String, ui: String) {
        #expect(LanguageTag.uiLanguage(for: tag) == ui)
    }

    @Test func rightToLeftLanguages() {
        #expect(LanguageTag.isRightToLeft("ar-EG"))
        #expect(LanguageTag.isRightToLeft("iw"))
        #expect(LanguageTag.isRightToLeft("ur"))
        #expect(!LanguageTag.isRightToLeft("fa"), "unsupported, so English")
        #expect(!LanguageTag.isRightToLeft("de"))
    }
}
