import Foundation
import ReceptionCore
import ReceptionKit
import Testing

/// Spec 7.19 through the facade: the app language, the chat language, and the language the service receives.
@Suite("LanguageTests", .serialized)
@MainActor
struct LanguageTests {
    @Test(arguments: [
        ("es_mx", "es-MX", "es-419"), ("iw-IL", "he-IL", "he"), ("pt", "pt", "pt-BR"), ("zh_hant_tw", "zh-Hant-TW", "zh-Hant"),
        ("en-US-u-ca-gregory", "en-US", "en"), ("not a tag!", "en", "en"),
    ])
    func theOverrideIsCanonicalisedAndResolved(override: String, app: String, chat: String) {
        let reception = Reception()
        reception.languageOverride = override
        #expect(reception.appLanguage == app)
        #expect(reception.chatLanguage == chat)
    }

    @Test func theServiceReceivesTheLanguageAndItsChanges() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        app.reception.languageOverride = "de_DE"
        try await app.send("hallo")
        #expect(try await service.devices().first?["language"] as? String == "de-DE")
        app.reception.languageOverride = "fr_CA"
        let synced = await until { (try? await service.devices().first?["language"] as? String) == "fr-CA" }
        #expect(synced, "a changed language is synchronised to a used chat")
        #expect(app.reception.chatLanguage == "fr-CA")
    }
}
