import Foundation

/// The APNs payload of an agent reply (seed 002 "Payload shape", "Customize notification content"), written to the
/// push outbox instead of being sent to Apple.
enum PushPayload {
    /// Templates hold at most 120 characters; rendered titles 100, bodies 500; the sender name 60 (seed 002).
    static let templateLimit = 120
    static let titleLimit = 100
    static let bodyLimit = 500
    static let senderNameLimit = 60

    /// The built-in body template; the other built-in texts are per language in `PushTexts`.
    static let defaultBody = "{message}"
    /// The photo marker before a reply's text or photo summary.
    static let photoMarker = "📷 "

    /// The preview of a reply in `texts`' language: its text, with a photo marker; photos alone get a summary;
    /// "Show message" off → a prompt to read it; offer cards fall back to the button label, then to "See your
    /// discount".
    static func preview(
        text: String, photoCount: Int, kind: String, buttonLabel: String?, showMessage: Bool,
        texts: PushTexts = .english
    ) -> String {
        guard showMessage else { return texts.hiddenMessage }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if kind == "PAYWALL" {
            if !trimmed.isEmpty { return trimmed }
            if let label = buttonLabel?.trimmingCharacters(in: .whitespacesAndNewlines), !label.isEmpty { return label }
            return texts.offerFallback
        }
        if photoCount > 0 {
            if !trimmed.isEmpty { return photoMarker + trimmed }
            return photoMarker + (photoCount == 1 ? texts.photo : texts.photoSummary(count: photoCount))
        }
        return trimmed
    }

    /// Renders title and body in `texts`' language from that language's templates (or the built-in ones).
    static func render(_ settings: PushSettings, preview: String, texts: PushTexts = .english)
        -> (title: String, body: String)
    {
        let sender = settings.senderName.flatMap { $0.isEmpty ? nil : $0 }
        let template = settings.template(for: texts.language)
        let english = PushTexts.english
        let builtInTitles = [texts.newMessage, texts.newMessageFrom, english.newMessage, english.newMessageFrom]
        let titleTemplate = custom(template.title, builtIns: builtInTitles)
            ?? (sender == nil ? texts.newMessage : texts.newMessageFrom)
        let bodyTemplate = custom(template.body, builtIns: [defaultBody]) ?? defaultBody
        func substitute(_ template: String) -> String {
            template.replacingOccurrences(of: "{agent}", with: sender ?? texts.sender)
                .replacingOccurrences(of: "{app}", with: settings.appName)
                .replacingOccurrences(of: "{message}", with: preview)
        }
        var title = truncated(substitute(titleTemplate).trimmingCharacters(in: .whitespacesAndNewlines), titleLimit)
        var body = truncated(substitute(bodyTemplate).trimmingCharacters(in: .whitespacesAndNewlines), bodyLimit)
        if title.isEmpty { title = truncated(settings.appName, titleLimit) }
        if body.isEmpty { body = texts.placeholder }
        return (title, body)
    }

    /// A template as it counts (seed 002 "Blank or default-equivalent fields use built-in text"): `nil` — the
    /// built-in text — when it is blank or, spaces around it aside, equal to one of `builtIns` (the built-in texts
    /// of its language and English's, what the editor starts from). So a template that only repeats the default
    /// follows the device's language and the sender name like the built-in text does.
    static func custom(_ template: String?, builtIns: [String]) -> String? {
        guard let template else { return nil }
        let trimmed = template.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty || builtIns.contains(trimmed) ? nil : template
    }

    /// `{aps: {alert, badge?, sound?, thread-id}, reception: {conversationId}}`; `badge` is omitted when the
    /// device saved `updatesAppBadge: false`.
    static func payload(
        title: String, body: String, badge: Int64?, sound: Bool, conversationId: String
    ) -> JSONValue {
        var aps: [String: JSONValue] = [
            "alert": ["title": .string(title), "body": .string(body)], "thread-id": .string(conversationId),
        ]
        if let badge { aps["badge"] = .int(badge) }
        if sound { aps["sound"] = "default" }
        return ["aps": .object(aps), "reception": ["conversationId": .string(conversationId)]]
    }

    /// The longest prefix of whole characters within `limit` UTF-16 units (never splits an emoji).
    static func truncated(_ text: String, _ limit: Int) -> String {
        guard text.utf16.count > limit else { return text }
        var result = ""
        var units = 0
        for character in text {
            let count = character.utf16.count
            if units + count > limit { break }
            result.append(character)
            units += count
        }
        return result
    }
}

extension String {
    var isBlank: Bool { allSatisfy { $0.isWhitespace } }
}
