import Foundation

/// The APNs payload of an agent reply (seed 002 "Payload shape", "Customize notification content"), written to the
/// push outbox instead of being sent to Apple.
enum PushPayload {
    /// Templates hold at most 120 characters; rendered titles 100, bodies 500; the sender name 60 (seed 002).
    static let templateLimit = 120
    static let titleLimit = 100
    static let bodyLimit = 500
    static let senderNameLimit = 60

    /// Built-in English texts (the emulator has one language; the service matches the device's language).
    static let defaultSenderName = "Support"
    static let defaultTitle = "New message"
    static let defaultTitleWithSender = "New message from {agent}"
    static let defaultBody = "{message}"
    static let hiddenMessagePrompt = "Open the app to read the reply."
    static let messagePlaceholder = "You have a new message."
    static let offerFallback = "See your discount"
    /// The message of a dashboard "Send test" push, rendered through the saved templates like a reply (seed 002).
    static let testMessage = "This is a test notification."

    /// The preview of a reply: its text, with a photo marker; photos alone get a summary; "Show message" off →
    /// a prompt to read it; offer cards fall back to the button label, then to "See your discount".
    static func preview(
        text: String, photoCount: Int, kind: String, buttonLabel: String?, showMessage: Bool
    ) -> String {
        guard showMessage else { return hiddenMessagePrompt }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if kind == "PAYWALL" {
            if !trimmed.isEmpty { return trimmed }
            if let label = buttonLabel?.trimmingCharacters(in: .whitespacesAndNewlines), !label.isEmpty { return label }
            return offerFallback
        }
        if photoCount > 0 {
            if !trimmed.isEmpty { return "📷 " + trimmed }
            return photoCount == 1 ? "📷 Photo" : "📷 \(photoCount) photos"
        }
        return trimmed
    }

    /// Renders title and body from the settings' templates (or the built-in ones) for a preview.
    static func render(_ settings: PushSettings, preview: String) -> (title: String, body: String) {
        let sender = settings.senderName.flatMap { $0.isEmpty ? nil : $0 }
        let titleTemplate = settings.titleTemplate.flatMap { $0.isBlank ? nil : $0 }
            ?? (sender == nil ? defaultTitle : defaultTitleWithSender)
        let bodyTemplate = settings.bodyTemplate.flatMap { $0.isBlank ? nil : $0 } ?? defaultBody
        func substitute(_ template: String) -> String {
            template.replacingOccurrences(of: "{agent}", with: sender ?? defaultSenderName)
                .replacingOccurrences(of: "{app}", with: settings.appName)
                .replacingOccurrences(of: "{message}", with: preview)
        }
        var title = truncated(substitute(titleTemplate).trimmingCharacters(in: .whitespacesAndNewlines), titleLimit)
        var body = truncated(substitute(bodyTemplate).trimmingCharacters(in: .whitespacesAndNewlines), bodyLimit)
        if title.isEmpty { title = truncated(settings.appName, titleLimit) }
        if body.isEmpty { body = messagePlaceholder }
        return (title, body)
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
