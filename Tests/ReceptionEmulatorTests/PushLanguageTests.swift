import Foundation
import Testing

/// Seed 002 "Notification language": pushes are rendered in the device's last reported app language, matched to a
/// supported language or English; a device without one uses its locale, then English. Per-language template
/// overrides apply to their language only.
@Suite("PushLanguageTests")
struct PushLanguageTests {
    static let languages = [
        "en", "de", "fr", "fr-CA", "es", "es-419", "it", "pt-BR", "pt-PT", "ca", "ro", "nl", "sv", "da", "nb", "fi",
        "pl", "cs", "sk", "hu", "sl", "hr", "el", "uk", "ru", "tr", "ja", "ko", "zh-Hans", "zh-Hant", "zh-HK", "th",
        "vi", "id", "ms", "hi", "bn", "gu", "kn", "ml", "mr", "or", "pa", "ta", "te", "ur", "ar", "he",
    ]

    /// A device reporting `fields` (language, locale) with a push token and a conversation.
    static func device(_ harness: EmulatorHarness, _ fields: [String: Any]) async throws -> Device {
        try await PushOutboxTests.pushDevice(harness, fields: fields)
    }

    /// The alert of the push an agent message with `message` produces for `device`.
    static func alert(_ harness: EmulatorHarness, _ device: Device, _ message: [String: Any]) async throws
        -> [String: String]
    {
        let reply = try await harness.admin("POST", "devices/\(device.id)/messages", json: message)
        try #require(reply.status < 300, "agent message answered \(reply.status)")
        let payload = try #require(try await PushOutboxTests.lastPayload(harness))
        return try #require((payload["aps"] as? [String: Any])?["alert"] as? [String: String])
    }

    static var twoPhotos: [String: Any] { ["photos": [["data": "/9j/4AAQ"], ["data": "/9j/4AAQ"]]] }

    @Test func everyNonEnglishLanguageRendersItsOwnTitleAndPhotoSummary() async throws {
        let harness = try EmulatorHarness()
        let english = try await Self.device(harness, ["language": "en"])
        let englishAlert = try await Self.alert(harness, english, Self.twoPhotos)
        #expect(englishAlert == ["title": "New message", "body": "📷 2 photos"])
        var titles: [String: String] = [:]
        for language in Self.languages.dropFirst() {
            let device = try await Self.device(harness, ["language": language])
            let alert = try await Self.alert(harness, device, Self.twoPhotos)
            #expect(alert["title"] != englishAlert["title"], "\(language) title is English")
            #expect(alert["body"]?.hasPrefix("📷 ") == true, "\(language) body \(alert["body"] ?? "")")
            #expect(alert["body"]?.contains("2") == true, "\(language) photo summary has no count")
            titles[language] = alert["title"]
        }
        #expect(titles["de"] == "Neue Nachricht")
        #expect(titles["ja"] == "新着メッセージ")
        #expect(titles["ar"] == "رسالة جديدة")
        #expect(titles.count == 47)
    }

    @Test func theFallbackChainIsLanguageThenLocaleThenEnglish() async throws {
        let harness = try EmulatorHarness()
        let cases: [([String: Any], String)] = [
            (["language": "de-AT", "locale": "fr_FR"], "Neue Nachricht"),  // base language of the app language
            (["language": "es-MX"], "Nuevo mensaje"),  // es-419
            (["language": "zh-TW"], "新訊息"),  // zh-Hant
            (["language": "xx", "locale": "de_DE"], "New message"),  // a reported language wins, matched or English
            (["language": NSNull(), "locale": "pt_PT"], "Nova mensagem"),  // no app language: the locale
            (["language": NSNull(), "locale": "sv_SE"], "Nytt meddelande"),
            (["language": NSNull(), "locale": "xx_YY"], "New message"),
            (["language": NSNull(), "locale": NSNull()], "New message"),
        ]
        for (fields, title) in cases {
            let device = try await Self.device(harness, fields)
            let alert = try await Self.alert(harness, device, ["text": "Hallo"])
            #expect(alert["title"] == title, "\(fields)")
        }
    }

    @Test func hiddenPromptPhotoMarkerPluralsAndOfferFallbackAreLocalized() async throws {
        let harness = try EmulatorHarness()
        let arabic = try await Self.device(harness, ["language": "ar"])
        #expect(try await Self.alert(harness, arabic, ["photos": [["data": "/9j/4AAQ"]]])["body"] == "📷 صورة")
        #expect(try await Self.alert(harness, arabic, Self.twoPhotos)["body"] == "📷 2 صورتان")
        let three: [String: Any] = ["photos": Array(repeating: ["data": "/9j/4AAQ"], count: 3)]
        #expect(try await Self.alert(harness, arabic, three)["body"] == "📷 3 صور")
        let russian = try await Self.device(harness, ["language": "ru"])
        #expect(try await Self.alert(harness, russian, ["text": "Готово", "photos": [["data": "/9j/4AAQ"]]])["body"] == "📷 Готово")
        _ = try await harness.admin("PATCH", "app", json: ["push": ["offerPushes": true, "senderName": "Mia"]])
        let german = try await Self.device(harness, ["language": "de", "paywalls": [["id": "pro", "title": "Pro"]]])
        let offer = try await Self.alert(harness, german, ["kind": "PAYWALL", "paywallId": "pro", "text": ""])
        #expect(offer == ["title": "Neue Nachricht von Mia", "body": "Zu deinem Rabatt"])
        _ = try await harness.admin("PATCH", "app", json: ["push": ["showMessage": false]])
        #expect(try await Self.alert(harness, german, ["text": "geheim"])["body"] == "Öffne die App, um die Antwort zu lesen.")
        #expect(try await Self.alert(harness, russian, ["text": "секрет"])["body"] == "Откройте приложение, чтобы прочитать ответ.")
    }

    @Test func templateOverridesApplyToTheirLanguageOnlyAndResetClearsThem() async throws {
        let harness = try EmulatorHarness()
        let german = try await Self.device(harness, ["language": "de"])
        let french = try await Self.device(harness, ["language": "fr"])
        let english = try await Self.device(harness, ["language": "en"])
        let saved = try await harness.admin(
            "PATCH", "app", json: ["push": ["templates": ["de": ["title": "{app}: Antwort", "body": "Neu: {message}"]]]])
        #expect(saved.status == 200)
        let templates = (saved.json["push"] as? [String: Any])?["templates"] as? [String: [String: String]]
        #expect(templates == ["de": ["title": "{app}: Antwort", "body": "Neu: {message}"]])
        #expect(try await Self.alert(harness, german, ["text": "Hallo"]) == ["title": "Reception Emulator: Antwort", "body": "Neu: Hallo"])
        // Not translated: the French and English devices keep their built-in texts.
        #expect(try await Self.alert(harness, french, ["text": "Salut"]) == ["title": "Nouveau message", "body": "Salut"])
        #expect(try await Self.alert(harness, english, ["text": "Hi"]) == ["title": "New message", "body": "Hi"])
        // A field left out keeps its value; a blank one is the built-in text.
        _ = try await harness.admin("PATCH", "app", json: ["push": ["templates": ["de": ["title": "  "]]]])
        #expect(try await Self.alert(harness, german, ["text": "Hallo"]) == ["title": "Neue Nachricht", "body": "Neu: Hallo"])
        let tooLong = try await harness.admin(
            "PATCH", "app", json: ["push": ["templates": ["de": ["body": String(repeating: "x", count: 121)]]]])
        #expect(tooLong.status == 400)
        let unknown = try await harness.admin("PATCH", "app", json: ["push": ["templates": ["xx": ["title": "x"]]]])
        #expect(unknown.status == 400)
        // "Reset text to default": null clears that language's overrides only.
        _ = try await harness.admin("PATCH", "app", json: ["push": ["templates": ["fr": ["title": "Réponse"]]]])
        let reset = try await harness.admin("PATCH", "app", json: ["push": ["templates": ["de": NSNull()]]])
        #expect((reset.json["push"] as? [String: Any])?["templates"] as? [String: [String: String]] == ["fr": ["title": "Réponse"]])
        #expect(try await Self.alert(harness, german, ["text": "Hallo"]) == ["title": "Neue Nachricht", "body": "Hallo"])
        #expect(try await Self.alert(harness, french, ["text": "Salut"])["title"] == "Réponse")
        // The preview renders a chosen language with the unsaved settings.
        let preview = try await harness.admin(
            "POST", "push-preview", json: ["language": "ja", "push": ["templates": ["ja": ["body": "{message}!"]]]])
        #expect(preview.json["title"] as? String == "新着メッセージ")
        #expect(preview.json["body"] as? String == "📷 Your order has shipped.!")
    }
    /// Seed 002 "Blank or default-equivalent fields use built-in text": a template that only repeats the built-in
    /// text (its language's or English's, spaces around it aside) is the built-in text, so it still follows the
    /// sender name; one that differs is used as written.
    @Test func aTemplateEqualToTheBuiltInTextIsTheBuiltInText() async throws {
        let harness = try EmulatorHarness()
        let german = try await Self.device(harness, ["language": "de"])
        let english = try await Self.device(harness, ["language": "en"])
        let saved = try await harness.admin("PATCH", "app", json: ["push": [
            "senderName": "Sam", "titleTemplate": " New message ", "bodyTemplate": "{message}",
            "templates": ["de": ["title": "New message"]]]])
        #expect(saved.status == 200)
        #expect(try await Self.alert(harness, english, ["text": "Hi"]) == ["title": "New message from Sam", "body": "Hi"])
        #expect(try await Self.alert(harness, german, ["text": "Hallo"]) == ["title": "Neue Nachricht von Sam", "body": "Hallo"])
        _ = try await harness.admin("PATCH", "app", json: ["push": ["templates": ["de": ["title": "Neue Nachricht"]]]])
        #expect(try await Self.alert(harness, german, ["text": "Hallo"])["title"] == "Neue Nachricht von Sam")
        // A different text is the team's own and is kept as written.
        _ = try await harness.admin("PATCH", "app", json: ["push": ["titleTemplate": "New message!"]])
        #expect(try await Self.alert(harness, english, ["text": "Hi"])["title"] == "New message!")
    }
}
