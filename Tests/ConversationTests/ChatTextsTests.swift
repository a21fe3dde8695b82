import Foundation
import ReceptionCore
import Testing

@testable import Conversation

/// The String Catalog `Modules/Conversation/Resources/ChatTexts.xcstrings`: every key in all 48 languages, the
/// placeholders of English, the CLDR plural categories of each language; and the texts `ChatTexts` gives.
@Suite("ChatTextsTests")
struct ChatTextsTests {
    static let languages = [
        "en", "de", "fr", "fr-CA", "es", "es-419", "it", "pt-BR", "pt-PT", "ca", "ro", "nl", "sv", "da", "nb", "fi",
        "pl", "cs", "sk", "hu", "sl", "hr", "el", "uk", "ru", "tr", "ja", "ko", "zh-Hans", "zh-Hant", "zh-HK", "th",
        "vi", "id", "ms", "hi", "bn", "gu", "kn", "ml", "mr", "or", "pa", "ta", "te", "ur", "ar", "he",
    ]

    /// CLDR cardinal categories, written out here independently of `PluralRules`.
    static func cldrCategories(_ language: String) -> Set<String> {
        switch language {
        case "ja", "ko", "zh-Hans", "zh-Hant", "zh-HK", "th", "vi", "id", "ms": ["other"]
        case "fr", "fr-CA", "es", "es-419", "it", "pt-BR", "pt-PT", "ca": ["one", "many", "other"]
        case "pl", "cs", "sk", "uk", "ru": ["one", "few", "many", "other"]
        case "ro", "hr": ["one", "few", "other"]
        case "sl": ["one", "two", "few", "other"]
        case "he": ["one", "two", "other"]
        case "ar": ["zero", "one", "two", "few", "many", "other"]
        default: ["one", "other"]
        }
    }

    static let catalogURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Modules/Conversation/Resources/ChatTexts.xcstrings").standardized

    /// The file's `strings` as JSON.
    static func strings() throws -> [String: [String: Any]] {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: catalogURL)) as? [String: Any])
        #expect(root["sourceLanguage"] as? String == "en")
        #expect(root["version"] as? String == "1.0")
        return try #require(root["strings"] as? [String: [String: Any]])
    }

    static func placeholders(_ text: String) -> [String] {
        let regex = try? NSRegularExpression(pattern: "%(?:[0-9]\\$)?(?:lld|@)")
        let range = NSRange(text.startIndex..., in: text)
        return (regex?.matches(in: text, range: range) ?? []).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
            .sorted()
    }

    /// `language`'s texts of one key: one plain text, or the forms by category.
    static func forms(_ entry: [String: Any], _ language: String) -> [String: String]? {
        guard let localization = (entry["localizations"] as? [String: Any])?[language] as? [String: Any] else { return nil }
        if let value = (localization["stringUnit"] as? [String: Any])?["value"] as? String { return ["": value] }
        guard let plural = (localization["variations"] as? [String: Any])?["plural"] as? [String: Any] else { return nil }
        return plural.compactMapValues { (($0 as? [String: Any])?["stringUnit"] as? [String: Any])?["value"] as? String }
    }

    @Test func everyKeyExistsInEveryLanguageWithEnglishPlaceholdersAndCLDRPlurals() throws {
        let strings = try Self.strings()
        #expect(Set(strings.keys) == Set(ChatTextKey.allCases.map(\.rawValue)))
        for (key, entry) in strings {
            let english = try #require(Self.forms(entry, "en"), "\(key) has no English")
            let englishPlaceholders = Self.placeholders(english.values.first ?? "")
            let isPlural = english[""] == nil
            let localizations = try #require(entry["localizations"] as? [String: Any])
            #expect(Set(localizations.keys) == Set(Self.languages), "\(key) languages")
            for language in Self.languages {
                guard let forms = Self.forms(entry, language) else {
                    Issue.record("\(key) has no \(language)")
                    continue
                }
                if isPlural {
                    #expect(Set(forms.keys) == Self.cldrCategories(language), "\(key) \(language) categories")
                } else {
                    #expect(forms.keys.first == "", "\(key) \(language) should be a plain text")
                }
                for (category, text) in forms {
                    #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty, "\(key) \(language) \(category) empty")
                    #expect(Self.placeholders(text) == englishPlaceholders, "\(key) \(language) \(category): \(text)")
                }
            }
        }
    }

    @Test func theLoaderReadsTheCatalogAndItsEnglishIsTheBuiltInFallback() throws {
        #expect(Set(ChatTexts.languages) == Set(Self.languages))
        let fromFile = try #require(TextCatalog.parse(Data(contentsOf: Self.catalogURL)))
        #expect(fromFile["en"] == TextCatalog.builtInEnglish)
        // A damaged or missing file leaves English for every language, never a crash.
        let empty = TextCatalog(data: Data("not json".utf8))
        #expect(empty.languages == ["en"])
        #expect(empty.text("banner.offline", language: "de") == "No connection")
        #expect(empty.text("no.such.key", language: "de") == "no.such.key")
        #expect(ChatTexts(language: "xx").language == "en")
        #expect(ChatTexts(language: "DE").language == "de")
    }

    @Test func everyNonEnglishLanguageTranslatesTheStatusesAndBanner() {
        let english = ChatTexts.english
        for language in Self.languages.dropFirst() {
            let texts = ChatTexts(language: language)
            #expect(texts.status(.notDelivered) != english.status(.notDelivered), "\(language)")
            #expect(texts.banner(.offline) != english.banner(.offline), "\(language)")
            #expect(texts.relativeTime(seconds: 180) != english.relativeTime(seconds: 180), "\(language)")
        }
    }

    @Test func everyNonEnglishLanguageTranslatesTheNewMessagesControl() {
        let english = ChatTexts.english
        for language in Self.languages.dropFirst() {
            let texts = ChatTexts(language: language)
            #expect(texts.text(.newMessages, count: 3) != english.text(.newMessages, count: 3), "\(language)")
            #expect(texts.text(.newMessagesHint) != english.text(.newMessagesHint), "\(language)")
            #expect(texts.text(.newMessages, count: 3).contains("3"), "\(language)")
        }
    }

    @Test(arguments: [
        ("en", 1, "1 new message"), ("en", 3, "3 new messages"), ("de", 1, "1 neue Nachricht"), ("fr", 2, "2 nouveaux messages"),
        ("ru", 1, "1 новое сообщение"), ("ru", 3, "3 новых сообщения"), ("ru", 5, "5 новых сообщений"), ("ru", 21, "21 новое сообщение"),
        ("pl", 1, "1 nowa wiadomość"), ("pl", 3, "3 nowe wiadomości"), ("pl", 5, "5 nowych wiadomości"), ("cs", 4, "4 nové zprávy"),
        ("sl", 2, "2 novi sporočili"), ("ar", 2, "2 رسالتان جديدتان"), ("ar", 3, "3 رسائل جديدة"), ("he", 2, "2 הודעות חדשות"),
        ("ja", 4, "新着メッセージ4件"), ("ro", 20, "20 de mesaje noi"),
    ])
    func newMessagesTakeTheLanguagesPluralForm(language: String, count: Int, text: String) {
        #expect(ChatTexts(language: language).text(.newMessages, count: count) == text)
    }

    @Test(arguments: [
        ("ru", 1, "через 1 минуту"), ("ru", 3, "через 3 минуты"), ("ru", 5, "через 5 минут"), ("ru", 11, "через 11 минут"),
        ("ru", 21, "через 21 минуту"), ("ru", 22, "через 22 минуты"), ("pl", 2, "za 2 minuty"), ("pl", 5, "za 5 minut"),
        ("pl", 22, "za 22 minuty"), ("ar", 1, "خلال 1 دقيقة"), ("ar", 2, "خلال 2 دقيقتين"), ("ar", 3, "خلال 3 دقائق"),
        ("ar", 11, "خلال 11 دقيقة"), ("sl", 2, "čez 2 minuti"), ("sl", 3, "čez 3 minute"), ("sl", 5, "čez 5 minut"),
        ("cs", 2, "za 2 minuty"), ("cs", 5, "za 5 minut"), ("ro", 1, "peste 1 minut"), ("ro", 5, "peste 5 minute"),
        ("ro", 20, "peste 20 de minute"), ("he", 2, "בעוד 2 דקות"), ("ja", 3, "3分後"), ("en", 1, "in 1 minute"),
        ("en", 3, "in 3 minutes"), ("fr", 1, "dans 1 minute"), ("hr", 5, "za 5 minuta"), ("hr", 21, "za 21 minutu"),
    ])
    func minutesTakeTheLanguagesPluralForm(language: String, minutes: Int, text: String) {
        #expect(ChatTexts(language: language).relativeTime(seconds: Double(minutes * 60)) == text)
    }

    @Test func placeholdersFillPositionallyAndOverridesComeFirst() {
        let hindi = ChatTexts(language: "hi")
        #expect(hindi.notice(.textTooLong(length: 4100, limit: 4000)).hasPrefix("यह संदेश बहुत लंबा है (4000 में से 4100 वर्ण)"))
        #expect(TextFormat.fill("%2$@ %1$lld %% %lld", ["7", "x"]) == "x 7 % 7")
        #expect(TextFormat.fill("%lld and %lld", ["1"]) == "1 and %lld")
        let custom = ChatTexts(language: "de", overrides: [.title: "Hilfe", .offline: "Offline"])
        #expect(custom.title == "Hilfe")
        #expect(custom.banner(.offline) == "Offline")
        #expect(custom.welcomeTitle == "Wie können wir helfen?")
    }

    /// Everything a chat screen shows, one line each, for the snapshots.
    static func snapshot(_ texts: ChatTexts) -> String {
        let review = ChatMessage.card(kind: .review, url: "https://apps.apple.com/app/id1")
        let offer = ChatMessage.card(kind: .paywall, url: nil)
        let lines: [String?] = [
            "direction: \(texts.layoutDirection.rawValue)", texts.title, texts.welcomeTitle, texts.welcomeText,
            texts.status(.sending), texts.status(.sent), texts.status(.notDelivered), texts.retry, texts.cancel,
            texts.replacement(.signInRequired), texts.replacement(.sendingDisabled), texts.replacement(.appUnavailable),
            texts.notice(.textTooLong(length: 4012, limit: 4000)), texts.notice(.resendingHeldMessages),
            texts.notice(.photoCouldNotLoad), texts.notice(.tooManyPhotos(limit: 5)), texts.notice(.storageProblem),
            texts.cooldown(CooldownNotice(scope: .messages, secondsLeft: 1)),
            texts.cooldown(CooldownNotice(scope: .uploads, secondsLeft: 180)),
            texts.cooldown(CooldownNotice(scope: .requests, secondsLeft: 7200)),
            texts.cooldown(CooldownNotice(scope: .session, secondsLeft: 30)),
            texts.banner(.offline), texts.banner(.connecting), texts.banner(.connected), texts.banner(.paused),
            texts.buttonTitle(for: review), texts.buttonTitle(for: offer), texts.text(.seeDiscount),
        ]
        return lines.map { $0 ?? "nil" }.joined(separator: "\n")
    }

    @Test func germanSnapshot() {
        #expect(Self.snapshot(ChatTexts(language: "de")) == """
            direction: leftToRight
            Kundensupport
            Wie können wir helfen?
            Schreib uns eine Nachricht, wir antworten hier.
            Wird gesendet…
            Gesendet
            Nicht zugestellt
            Erneut versuchen
            Abbrechen
            Melde dich an, um Nachrichten zu senden.
            Von diesem Gerät kannst du keine Nachrichten senden.
            Der Chat ist gerade nicht verfügbar.
            Diese Nachricht ist zu lang (4012 von 4000 Zeichen). Kürze sie, um sie zu senden.
            Frühere Nachrichten werden zuerst gesendet…
            Dieses Foto konnte nicht geladen werden.
            Du kannst bis zu 5 Fotos anhängen.
            Nachrichten konnten auf diesem Gerät nicht gespeichert werden.
            Nachrichtenlimit erreicht, sende wieder in 1 Sekunde.
            Fotos können in 3 Minuten wieder gesendet werden, Text funktioniert weiterhin.
            Zu viele Versuche, versuche es in 2 Stunden erneut.
            Gerade keine Verbindung möglich, versuche es in 30 Sekunden erneut.
            Keine Verbindung
            Verbindung wird hergestellt
            Verbunden
            Live-Updates pausiert
            Im App Store bewerten
            Angebot ansehen
            Zu deinem Rabatt
            """)
    }

    @Test func arabicSnapshot() {
        #expect(Self.snapshot(ChatTexts(language: "ar")) == """
            direction: rightToLeft
            الدعم
            كيف يمكننا مساعدتك؟
            أرسل لنا رسالة وسنرد عليك هنا.
            جارٍ الإرسال…
            تم الإرسال
            لم يتم التسليم
            إعادة المحاولة
            إلغاء
            سجّل الدخول لإرسال الرسائل.
            لا يمكنك إرسال رسائل من هذا الجهاز.
            الدردشة غير متاحة الآن.
            هذه الرسالة طويلة جدًا (4012 من 4000 حرفًا). اختصرها لإرسالها.
            جارٍ إرسال الرسائل السابقة أولاً…
            تعذّر تحميل هذه الصورة.
            يمكنك إرفاق 5 صور كحد أقصى.
            تعذّر حفظ الرسائل على هذا الجهاز.
            تم بلوغ حد الرسائل، أعد الإرسال خلال 1 ثانية.
            يمكن إرسال الصور مجددًا خلال 3 دقائق، ولا يزال إرسال النص ممكنًا.
            محاولات كثيرة جدًا، حاول مجددًا خلال 2 ساعتين.
            يتعذّر الاتصال الآن، حاول مجددًا خلال 30 ثانية.
            لا يوجد اتصال
            جارٍ الاتصال
            متصل
            التحديثات المباشرة متوقفة مؤقتًا
            قيّم في App Store
            اطّلع على العرض
            اطّلع على خصمك
            """)
    }
}

extension ChatMessage {
    /// A card from the team without a button label.
    static func card(kind: MessageKind, url: String?) -> ChatMessage {
        ChatMessage(
            id: "c", seq: 1, sender: .agent, text: "", kind: kind, reviewUrl: url, paywallId: kind == .paywall ? "pro" : nil,
            buttonLabel: nil, authorId: nil, attachments: [], localPhotos: [], createdAt: Date(timeIntervalSince1970: 0),
            status: .received, showsPendingIndicator: false, uploadProgress: nil, retry: .none)
    }
}
