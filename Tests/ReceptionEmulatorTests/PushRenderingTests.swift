import Foundation
import Testing

/// Seed 002 "Customize notification content" and "Offer pushes", one test per rule, read back from the push outbox
/// over loopback HTTP (issue 23). The app name is set to "Acme" so a fallback to it cannot be mistaken for a
/// built-in text. Rules covered elsewhere: the 100/500 caps and an empty `{agent}` (PushOutboxTests), the languages
/// (PushLanguageTests).
@Suite("PushRenderingTests")
struct PushRenderingTests {
    /// An emulator whose app is called "Acme" (App Store ID 123456789), with one push-enabled English device that
    /// has a conversation.
    static func acme(_ push: [String: Any] = [:]) async throws -> (EmulatorHarness, Device) {
        let harness = try EmulatorHarness()
        let device = try await PushOutboxTests.pushDevice(harness)
        // An App Store ID, so review cards can be sent (seed 001).
        let saved = try await harness.admin(
            "PATCH", "app", json: ["push": push.merging(["appName": "Acme"]) { old, _ in old }, "appStoreId": "123456789"])
        try #require(saved.status == 200, "the push settings were refused: \(String(decoding: saved.body, as: UTF8.self))")
        return (harness, device)
    }

    /// The alert of the push the agent message `message` wrote; `nil` when it wrote none.
    static func alert(_ harness: EmulatorHarness, _ device: Device, _ message: [String: Any]) async throws -> [String: String]? {
        let before = try await harness.admin("GET", "push-outbox").json["pushes"] as? [Any] ?? []
        let posted = try await harness.admin("POST", "devices/\(device.id)/messages", json: message)
        try #require(posted.status == 201, "the reply was refused: \(String(decoding: posted.body, as: UTF8.self))")
        let pushes = try await harness.admin("GET", "push-outbox").json["pushes"] as? [[String: Any]] ?? []
        guard pushes.count > before.count else { return nil }
        return (pushes.last?["payload"] as? [String: Any]).flatMap { ($0["aps"] as? [String: Any])?["alert"] as? [String: String] }
    }

    static var photo: [String: Any] { ["data": "/9j/4AAQ"] }
    static let reviewUrl = "https://apps.apple.com/app/id123456789?action=write-review"

    @Test func theAppPlaceholderIsReplacedInTitleAndBodyTemplates() async throws {
        let (harness, device) = try await Self.acme(["titleTemplate": "{app} support", "bodyTemplate": "{app}: {message}"])
        #expect(try await Self.alert(harness, device, ["text": "Hi"]) == ["title": "Acme support", "body": "Acme: Hi"])
        // The app name is read when the push is written: a rename shows in the next push.
        _ = try await harness.admin("PATCH", "app", json: ["push": ["appName": "Acme Pro"]])
        #expect(try await Self.alert(harness, device, ["text": "Hi"]) == ["title": "Acme Pro support", "body": "Acme Pro: Hi"])
    }

    @Test func anEmptyRenderedTitleFallsBackToTheAppName() async throws {
        // The title template is only the message; a review card without text has an empty preview.
        let (harness, device) = try await Self.acme(["titleTemplate": "{message}"])
        let alert = try #require(try await Self.alert(harness, device, ["kind": "REVIEW", "reviewUrl": Self.reviewUrl]))
        #expect(alert["title"] == "Acme")
        // A title that renders to spaces only is empty too (rendered texts are trimmed).
        _ = try await harness.admin("PATCH", "app", json: ["push": ["titleTemplate": "  {message}  "]])
        #expect(try await Self.alert(harness, device, ["kind": "REVIEW", "reviewUrl": Self.reviewUrl])?["title"] == "Acme")
        // A non-empty rendering is kept.
        #expect(try await Self.alert(harness, device, ["text": "Hello"])?["title"] == "Hello")
    }

    @Test func anEmptyRenderedBodyFallsBackToTheMessagePlaceholder() async throws {
        let (harness, device) = try await Self.acme()
        let alert = try #require(try await Self.alert(harness, device, ["kind": "REVIEW", "reviewUrl": Self.reviewUrl]))
        #expect(alert == ["title": "New message", "body": "You have a new message."])
        // A custom body that renders empty falls back the same way.
        _ = try await harness.admin("PATCH", "app", json: ["push": ["bodyTemplate": " {message} "]])
        #expect(try await Self.alert(harness, device, ["kind": "REVIEW", "reviewUrl": Self.reviewUrl])?["body"] == "You have a new message.")
    }

    @Test func aReplyWithTextAndPhotosReadsPhotoMarkerAndText() async throws {
        let (harness, device) = try await Self.acme()
        #expect(try await Self.alert(harness, device, ["text": "Here is the receipt", "photos": [Self.photo]])?["body"]
            == "📷 Here is the receipt")
        #expect(try await Self.alert(harness, device, ["text": "  Two views  ", "photos": [Self.photo, Self.photo]])?["body"]
            == "📷 Two views", "the text is trimmed and the marker is the same for several photos")
        #expect(try await Self.alert(harness, device, ["text": "no photo"])?["body"] == "no photo", "text alone has no marker")
    }

    @Test func photosWithoutTextReadAsAPhotoSummary() async throws {
        let (harness, device) = try await Self.acme()
        #expect(try await Self.alert(harness, device, ["photos": [Self.photo, Self.photo]])?["body"] == "📷 2 photos")
        #expect(try await Self.alert(harness, device, ["photos": Array(repeating: Self.photo, count: 5)])?["body"] == "📷 5 photos")
        #expect(try await Self.alert(harness, device, ["photos": [Self.photo]])?["body"] == "📷 Photo")
    }

    @Test func anOfferPushPreviewsTheMessageThenTheButtonLabelThenSeeYourDiscount() async throws {
        let harness = try EmulatorHarness()
        let paywalls = [["id": "pro", "title": "Pro"]]
        let device = try await harness.register(["paywalls": paywalls])
        _ = try await harness.api(
            "PATCH", "devices/me", token: device.token,
            json: EmulatorHarness.payload(["paywalls": paywalls, "pushToken": "ab", "pushEnvironment": "SANDBOX"]))
        _ = try await harness.admin("PATCH", "app", json: ["push": ["offerPushes": true, "appName": "Acme"]])
        let card: [String: Any] = ["kind": "PAYWALL", "paywallId": "pro"]
        func body(_ fields: [String: Any]) async throws -> String? {
            try await Self.alert(harness, device, card.merging(fields) { _, new in new })?["body"]
        }
        #expect(try await body(["text": "50% off this week", "buttonLabel": "Claim"]) == "50% off this week", "message first")
        #expect(try await body(["buttonLabel": "Claim"]) == "Claim", "then the custom button label")
        #expect(try await body(["text": "   ", "buttonLabel": "  Claim it  "]) == "Claim it", "a blank message counts as none")
        #expect(try await body(["buttonLabel": "   "]) == "See your discount", "then the built-in fallback")
        #expect(try await body([:]) == "See your discount")
        // Templates apply to offer pushes too.
        _ = try await harness.admin("PATCH", "app", json: ["push": ["bodyTemplate": "{app} offer: {message}"]])
        #expect(try await body(["buttonLabel": "Claim"]) == "Acme offer: Claim")
    }

    @Test func aReviewCardWritesAPushWithoutOfferPushes() async throws {
        let (harness, device) = try await Self.acme(["offerPushes": false])
        let alert = try await Self.alert(
            harness, device, ["kind": "REVIEW", "reviewUrl": Self.reviewUrl, "text": "Enjoying Acme?", "buttonLabel": "Rate us"])
        #expect(alert == ["title": "New message", "body": "Enjoying Acme?"], "a review card pushes like a reply")
        // Its button label is not an offer preview: without text the body is the placeholder.
        let bare = try await Self.alert(harness, device, ["kind": "REVIEW", "reviewUrl": Self.reviewUrl, "buttonLabel": "Rate us"])
        #expect(bare?["body"] == "You have a new message.")
        // "Show message" off hides the card's text like any reply's.
        _ = try await harness.admin("PATCH", "app", json: ["push": ["showMessage": false]])
        let hidden = try await Self.alert(harness, device, ["kind": "REVIEW", "reviewUrl": Self.reviewUrl, "text": "Enjoying Acme?"])
        #expect(hidden?["body"] == "Open the app to read the reply.")
    }

    @Test func aSenderNameOverSixtyCharactersIsRefusedWith400() async throws {
        let (harness, device) = try await Self.acme()
        let sixty = String(repeating: "M", count: 60)
        let refused = try await harness.admin("PATCH", "app", json: ["push": ["senderName": sixty + "x"]])
        #expect(refused.status == 400)
        #expect(refused.errorCode == "invalid_request")
        // Nothing of the refused request was saved.
        let push = try await harness.admin("GET", "app").json["push"] as? [String: Any]
        #expect(push?["senderName"] is NSNull)
        #expect(try await Self.alert(harness, device, ["text": "Hi"])?["title"] == "New message")
        // Sixty characters are accepted, and the limit is checked after trimming.
        let trimmed = try await harness.admin("PATCH", "app", json: ["push": ["senderName": "   " + sixty + "   "]])
        #expect(trimmed.status == 200)
        #expect((trimmed.json["push"] as? [String: Any])?["senderName"] as? String == sixty)
        #expect(try await Self.alert(harness, device, ["text": "Hi"])?["title"] == "New message from \(sixty)")
    }
}
