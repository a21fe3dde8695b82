import Conversation
import Foundation
import Identity
import ReceptionCore
import ReceptionKit
import Testing

/// Issue 20 through the facade: `Reception.chatTexts` and `chat.texts` follow spec 7.19's language resolution at
/// once, the dashboard's published texts come first, and the catalog covers exactly `LanguageTag`'s languages.
@Suite("ChatTextsFacadeTests", .serialized)
@MainActor
struct ChatTextsFacadeTests {
    @Test func theCatalogCoversTheSupportedLanguagesWithTheirDirection() {
        #expect(Set(ChatTexts.languages) == Set(LanguageTag.supportedUILanguages))
        #expect(ChatTexts.rightToLeftLanguages == LanguageTag.rightToLeftUILanguages)
        for language in LanguageTag.supportedUILanguages {
            #expect(ChatTexts(language: language).isRightToLeft == LanguageTag.isRightToLeft(language), "\(language)")
        }
    }

    @Test(arguments: [
        ("de_AT", "de", "Keine Verbindung"), ("es-MX", "es-419", "Sin conexión"), ("zh-TW", "zh-Hant", "沒有網路連線"),
        ("nn", "nb", "Ingen tilkobling"), ("iw", "he", "אין חיבור"), ("xx", "en", "No connection"),
    ])
    func theOverrideResolvesAsSpec719Says(override: String, language: String, offline: String) {
        let reception = Reception()
        reception.languageOverride = override
        #expect(reception.chatTexts.language == language)
        #expect(reception.chatTexts.banner(.offline) == offline)
    }

    @Test func preferredLanguagesApplyWithoutAnOverride() async throws {
        let service = try Service()
        let app = App(service)
        var configuration = app.configuration
        configuration.preferredLocalizations = ["pt-PT", "en"]
        app.reception.configure(appId: service.appID, configuration: configuration)
        await app.reception.waitUntilReady()
        #expect(app.reception.chatTexts.language == "pt-PT")
        #expect(await until { app.reception.chat != nil })
        #expect(app.reception.chat?.texts.language == "pt-PT")
        #expect(app.reception.chat?.texts.status(.sent) == "Enviada")
    }

    @Test func theChatModelSwitchesLanguageAndDirectionAtOnce() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        app.reception.languageOverride = "de"
        #expect(await until { app.reception.chat != nil })
        let chat = try #require(app.reception.chat)
        #expect(chat.texts.language == "de")
        #expect(chat.texts.layoutDirection == .leftToRight)
        #expect(chat.texts.title == "Kundensupport")
        app.reception.languageOverride = "ar"
        #expect(chat.texts.language == "ar")
        #expect(chat.texts.layoutDirection == .rightToLeft)
        #expect(chat.texts.welcomeTitle == "كيف يمكننا مساعدتك؟")
        // The host's texts (and the dashboard's, merged into chatAppearance) come first.
        app.reception.appearance.texts.title = "Hilfe & Kontakt"
        #expect(chat.texts.title == "Hilfe & Kontakt")
        #expect(chat.texts.welcomeTitle == "كيف يمكننا مساعدتك؟")
        // The host's overrides of any other text, in every language; the appearance's title still wins.
        app.reception.textOverrides = [.offline: "Offline!", .title: "Ignored"]
        #expect(chat.texts.banner(.offline) == "Offline!")
        #expect(chat.texts.title == "Hilfe & Kontakt")
        #expect(chat.texts.banner(.connecting) == "جارٍ الاتصال")
        app.reception.textOverrides = [:]
        #expect(chat.texts.banner(.offline) == "لا يوجد اتصال")
        app.reception.languageOverride = nil
        app.reception.appearance.texts.title = nil
        #expect(chat.texts.language == LanguageTag.uiLanguage(for: app.reception.appLanguage))
    }

    @Test func theDashboardsPublishedTextsComeFirstInTheirLanguage() async throws {
        let service = try Service()
        _ = try await service.admin(
            "PUT", "appearance",
            ["appearance": ["text": ["title": ["de": "Hilfe", "en": "Help"], "welcomeTitle": ["en": "Hi there"]]]])
        let app = App(service)
        await app.launch()
        app.reception.languageOverride = "de"
        let fetched = await until { app.reception.chat?.texts.title == "Hilfe" }
        #expect(fetched, "the published German title never reached the chat model")
        #expect(app.reception.chat?.texts.welcomeTitle == "Wie können wir helfen?", "no German entry: built-in German")
    }
}
