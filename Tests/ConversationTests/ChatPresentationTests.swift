import Foundation
import ReceptionCore
import Testing
@testable import Conversation

/// What the chat screen shows, rule by rule (seed 001, spec 7.8.3, 7.18, 7.20, 7.24), through the presentation
/// types that the SwiftUI chat lays out and `reception-chat` prints.
@Suite("ChatPresentationTests")
struct ChatPresentationTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func message(
        _ id: String, _ sender: MessageSender = .user, text: String = "hi", status: DeliveryStatus? = nil,
        at seconds: Double = 0, author: String? = nil, kind: MessageKind = .text, attachments: [ReceptionCore.Attachment] = [],
        localPhotos: [Data] = [], pending: Bool = false, progress: Double? = nil, retry: RetryOption = .none,
        reviewUrl: String? = nil, paywallId: String? = nil, buttonLabel: String? = nil
    ) -> ChatMessage {
        ChatMessage(
            id: id, seq: nil, sender: sender, text: text, kind: kind, reviewUrl: reviewUrl, paywallId: paywallId,
            buttonLabel: buttonLabel, authorId: author, attachments: attachments, localPhotos: localPhotos,
            createdAt: start.addingTimeInterval(seconds),
            status: status ?? (sender == .user ? .sent : .received), showsPendingIndicator: pending,
            uploadProgress: progress, retry: retry)
    }

    static func composer(
        _ availability: ComposerAvailability = .open, text: String = "", photos: Int = 0, loading: Int = 0,
        canSend: Bool = false, notices: [ComposerNotice] = []
    ) -> ComposerState {
        ComposerState(
            availability: availability, text: text,
            pickedPhotos: (0..<photos).map { id in
                ComposerState.PickedPhoto(
                    id: id, photo: PreparedPhoto(jpeg: jpeg(width: 300, height: 200), width: 300, height: 200, checksum: "c"))
            },
            loadingPhotoCount: loading, canSend: canSend, canAddPhotos: photos + loading < 5, notices: notices)
    }

    static func screen(
        _ messages: [ChatMessage], composer: ComposerState = composer(), banner: ConnectionBanner = .hidden,
        typing: Bool = false, team: [TeamProfile] = [], texts: ChatTexts = .english,
        appearance: ChatAppearance = ChatAppearance(), now: Date = start.addingTimeInterval(600)
    ) -> ChatPresentation {
        ChatPresentation(
            messages: messages, composer: composer, banner: banner, agentTyping: typing, team: team, texts: texts,
            appearance: appearance, now: now, timeZone: TimeZone(identifier: "UTC") ?? .current)
    }

    /// The start of a JPEG whose frame header says `width` × `height`.
    static func jpeg(width: Int, height: Int) -> Data {
        Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF),
              UInt8(width >> 8), UInt8(width & 0xFF), 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    }

    // MARK: Text messages

    @Test("own messages sit on the own side, team replies on the team side")
    func sides() {
        let rows = Self.screen([Self.message("a"), Self.message("b", .agent)]).rows
        #expect(rows.map(\.side) == [.own, .team])
    }

    @Test("seed 001: text is selectable once sent, not while sending or after a failure")
    func selectableOnceSent() {
        let rows = Self.screen([
            Self.message("sent"), Self.message("reply", .agent), Self.message("failed", status: .notDelivered),
            Self.message("sending", status: .sending),
        ]).rows
        #expect(rows.map(\.isTextSelectable) == [true, true, false, false])
    }

    @Test("seed 001: a photo-only message or a card without text has no text line")
    func noTextLine() {
        let rows = Self.screen([
            Self.message("p", text: "  \n", localPhotos: [Self.jpeg(width: 10, height: 10)], retry: .none),
            Self.message("plain", text: "Hello\nthere"),
        ]).rows
        #expect(rows[0].text == nil)
        #expect(rows[1].text == "Hello\nthere")
    }

    // MARK: Sending status (seed 001, spec 7.24)

    @Test("spec 7.24: only the last own message shows Sent; earlier sent messages show no status")
    func sentOnlyOnLastOwnMessage() {
        let rows = Self.screen([
            Self.message("a"), Self.message("b"), Self.message("reply", .agent), Self.message("c"),
            Self.message("reply2", .agent),
        ]).rows
        #expect(rows.map { $0.status?.text } == [nil, nil, nil, "Sent", nil])
    }

    @Test("spec 7.8.3: Sending… shows on the last own message once the pending indicator does, and dims it")
    func sendingAfterPendingIndicator() {
        let early = Self.screen([Self.message("a", status: .sending)]).rows[0]
        #expect(early.status == nil)
        #expect(!early.isPending)
        let late = Self.screen([Self.message("a", status: .sending, pending: true)]).rows[0]
        #expect(late.status?.text == "Sending…")
        #expect(late.isPending)
        // An earlier sending message is dimmed but carries no label.
        let two = Self.screen([
            Self.message("a", status: .sending, pending: true), Self.message("b", status: .sending, pending: true),
        ]).rows
        #expect(two.map { $0.status?.text } == [nil, "Sending…"])
        #expect(two.map(\.isPending) == [true, true])
    }

    @Test("seed 001: Not delivered with Retry shows on every failed message; tapping the bubble retries")
    func notDeliveredWithRetry() throws {
        let rows = Self.screen([
            Self.message("a", status: .notDelivered, retry: .available), Self.message("b"),
        ]).rows
        let status = try #require(rows[0].status)
        #expect(status.text == "Not delivered")
        #expect(status.action == .retry)
        #expect(status.actionTitle == "Retry")
        #expect(status.isActionEnabled)
        #expect(status.isFailure)
        #expect(status.accessibilityLabel == "Not delivered. Retry")
        #expect(rows[0].tapRetries)
        #expect(rows[1].status?.text == "Sent")
    }

    @Test("seed 001: an automatic resend shows its countdown with Cancel")
    func automaticResendCountdown() throws {
        let row = Self.screen([Self.message("a", status: .notDelivered, retry: .automaticResend(secondsLeft: 5))]).rows[0]
        let status = try #require(row.status)
        #expect(status.detail == "Sending again in 5 seconds")
        #expect(status.action == .cancelAutomaticResend)
        #expect(status.actionTitle == "Cancel")
        #expect(status.isActionEnabled)
        #expect(!row.tapRetries)
        #expect(status.accessibilityLabel == "Not delivered. Sending again in 5 seconds. Cancel")
    }

    @Test("spec 7.24: Retry is disabled while a wait holds the message, and says how long")
    func retryDisabledDuringWait() throws {
        let row = Self.screen([Self.message("a", status: .notDelivered, retry: .disabledFor(secondsLeft: 90))]).rows[0]
        let status = try #require(row.status)
        #expect(status.action == .retry)
        #expect(status.actionTitle == "Retry in 2 minutes")
        #expect(!status.isActionEnabled)
        #expect(!row.tapRetries)
    }

    @Test("a failure that may not be retried (blocked, sign-in) offers no control")
    func notAllowedOffersNothing() {
        let row = Self.screen([Self.message("a", status: .notDelivered, retry: .notAllowed)]).rows[0]
        #expect(row.status?.text == "Not delivered")
        #expect(row.status?.action == nil)
        #expect(!row.tapRetries)
    }

    // MARK: Photos

    @Test("seed 001: confirmed attachments show as photos that open the viewer, with the attachment's ratio")
    func confirmedPhotos() {
        let attachment = ReceptionCore.Attachment(id: "att1", url: "https://x/1", contentType: "image/jpeg", width: 400, height: 200)
        let row = Self.screen([Self.message("a", .agent, text: "", attachments: [attachment])]).rows[0]
        #expect(row.photos.count == 1)
        #expect(row.photos[0].isConfirmed)
        #expect(row.photos[0].id == "photo-0")
        #expect(row.photos[0].source == .confirmed(attachment))
        #expect(row.photos[0].aspectRatio == 2)
        #expect(row.photos[0].accessibilityLabel == "View photo")
    }

    @Test("several confirmed photos of one message are told apart by their position")
    func numberedPhotos() {
        let attachments = (1...3).map { ReceptionCore.Attachment(id: "p\($0)", url: "https://x/\($0)", contentType: "image/jpeg") }
        let row = Self.screen([Self.message("a", .agent, text: "", attachments: attachments)]).rows[0]
        #expect(row.photos.map(\.accessibilityLabel) == ["View photo 1 of 3", "View photo 2 of 3", "View photo 3 of 3"])
        let german = Self.screen([Self.message("a", .agent, text: "", attachments: attachments)], texts: ChatTexts(language: "de"))
        #expect(german.rows[0].photos[1].accessibilityLabel == "Foto 2 von 3 ansehen")
    }

    @Test("seed 001: pending local previews are marked pending, with the local image's ratio, else square")
    func pendingPreviews() {
        let row = Self.screen([Self.message(
            "a", status: .sending, localPhotos: [Self.jpeg(width: 100, height: 200), Data([1, 2, 3])])]).rows[0]
        #expect(row.photos.map(\.isConfirmed) == [false, false])
        #expect(row.photos.map(\.aspectRatio) == [0.5, 1])
        #expect(row.photos.map(\.accessibilityLabel) == ["Not sent yet", "Not sent yet"])
    }

    @Test("issue 39: a sent photo keeps its place's identity when confirmed, so its tile keeps the preview")
    func confirmationKeepsThePhotoIdentity() {
        let previews = [Self.jpeg(width: 100, height: 200), Self.jpeg(width: 300, height: 100)]
        let pending = Self.screen([Self.message("a", status: .sending, localPhotos: previews)]).rows[0]
        let attachments = [
            ReceptionCore.Attachment(id: "att_9", url: "https://x/9", contentType: "image/jpeg", width: 100, height: 200),
            ReceptionCore.Attachment(id: "att_3", url: "https://x/3", contentType: "image/jpeg", width: 300, height: 100),
        ]
        let confirmed = Self.screen([Self.message("a", status: .sent, attachments: attachments)]).rows[0]
        #expect(pending.id == confirmed.id)
        #expect(pending.photos.map(\.id) == ["photo-0", "photo-1"])
        #expect(confirmed.photos.map(\.id) == pending.photos.map(\.id))
        #expect(confirmed.photos.map(\.isConfirmed) == [true, true])
        #expect(Set(confirmed.photos.map(\.id)).count == 2, "two photos of a row share an identity")
    }

    @Test("spec 7.24: a hostile ratio is clamped so a bubble never becomes a hairline")
    func ratioClamped() {
        #expect(ChatPresentation.aspectRatio(width: 10_000, height: 1) == 4)
        #expect(ChatPresentation.aspectRatio(width: 1, height: 10_000) == 0.25)
        #expect(ChatPresentation.aspectRatio(width: 0, height: 5) == 1)
    }

    @Test("spec 7.9: upload progress shows while the photos of a sending message upload")
    func uploadProgress() {
        let rows = Self.screen([
            Self.message("done", localPhotos: [Self.jpeg(width: 1, height: 1)], progress: 1),
            Self.message("up", status: .sending, localPhotos: [Self.jpeg(width: 1, height: 1)], pending: true, progress: 1.7),
        ]).rows
        #expect(rows[0].uploadProgress == nil)
        #expect(rows[1].uploadProgress == 1)
        #expect(rows[1].status?.detail == "Uploading photos")
    }

    @Test("seed 001: tapping a failed photo retries its message when Retry is available")
    func failedPhotoRetries() {
        let row = Self.screen([Self.message(
            "a", status: .notDelivered, localPhotos: [Self.jpeg(width: 1, height: 1)], retry: .available)]).rows[0]
        #expect(row.photos.first?.isConfirmed == false)
        #expect(row.tapRetries)
    }

    // MARK: Cards

    @Test("seed 001: a review card's button says the agent's label, else Rate on the App Store")
    func reviewCardTitles() {
        let rows = Self.screen([
            Self.message("r1", .agent, text: "Enjoying it?", kind: .review, reviewUrl: "https://apps.apple.com/x"),
            Self.message("r2", .agent, kind: .review, reviewUrl: "https://apps.apple.com/x", buttonLabel: "Leave a review"),
        ]).rows
        #expect(rows[0].card == MessageRow.Card(buttonTitle: "Rate on the App Store", action: .review, isEnabled: true))
        #expect(rows[1].card?.buttonTitle == "Leave a review")
    }

    @Test("seed 001: a card without text shows its button alone; a review without a link shows its text alone")
    func cardWithoutTextOrLink() {
        let rows = Self.screen([
            Self.message("r", .agent, text: "", kind: .review, reviewUrl: "https://apps.apple.com/x"),
            Self.message("n", .agent, text: "Rate us", kind: .review, reviewUrl: nil),
        ]).rows
        #expect(rows[0].text == nil)
        #expect(rows[0].card != nil)
        #expect(rows[1].text == "Rate us")
        #expect(rows[1].card == nil)
    }

    @Test("seed 001: a paywall card's button says View offer and names the paywall")
    func paywallCard() {
        let row = Self.screen([Self.message("p", .agent, text: "", kind: .paywall, paywallId: "pro")]).rows[0]
        #expect(row.card == MessageRow.Card(buttonTitle: "View offer", action: .paywall(id: "pro"), isEnabled: true))
        #expect(row.accessibilityLabel == "Support. View offer")
    }

    @Test("spec 4.2: an offer whose paywall is not available (or without a handler) is disabled: No longer available")
    func unavailableOffer() {
        let offer = [Self.message("p", .agent, text: "50% off", kind: .paywall, paywallId: "pro")]
        let available = ChatPresentation(
            messages: offer, composer: Self.composer(), banner: .hidden, agentTyping: false, team: [], texts: .english,
            appearance: ChatAppearance(), now: Self.start, availablePaywalls: ["pro"])
        #expect(available.rows[0].card?.isEnabled == true)
        #expect(available.rows[0].card?.buttonTitle == "View offer")
        let gone = ChatPresentation(
            messages: offer, composer: Self.composer(), banner: .hidden, agentTyping: false, team: [], texts: .english,
            appearance: ChatAppearance(), now: Self.start, availablePaywalls: ["basic"])
        #expect(gone.rows[0].card == MessageRow.Card(buttonTitle: "No longer available", action: .paywall(id: "pro"), isEnabled: false))
        #expect(gone.rows[0].text == "50% off", "the offer's text stays")
        #expect(gone.rows[0].accessibilityLabel == "Support: 50% off. No longer available")
    }

    // MARK: Team photos and names

    @Test("seed 001: team names and photos are off by default")
    func teamOffByDefault() {
        let team = [TeamProfile(id: "mia", name: "Mia", photo: Data([1]))]
        let row = Self.screen([Self.message("a", .agent, author: "mia")], team: team).rows[0]
        #expect(row.author == nil)
        #expect(!row.reservesAvatarColumn)
        #expect(row.accessibilityLabel == "Support: hi")
    }

    @Test("spec 7.24: with names and photos on, the name heads a group and the avatar ends it")
    func teamGroups() {
        var look = ChatAppearance()
        look.showsTeamNames = true
        look.showsTeamPhotos = true
        let team = [TeamProfile(id: "mia", name: "Mia", photo: Data([1]))]
        let rows = Self.screen([
            Self.message("a", .agent, at: 0, author: "mia"), Self.message("b", .agent, at: 10, author: "mia"),
            Self.message("c", .agent, at: 20, author: "ghost"),
        ], team: team, appearance: look).rows
        #expect(rows[0].author?.name == "Mia")
        #expect(rows[0].author?.showsAvatar == false)
        #expect(rows[1].author?.name == nil)
        #expect(rows[1].author?.showsAvatar == true)
        #expect(rows[1].author?.photo == Data([1]))
        #expect(rows[1].author?.photoKey == "mia", "the member's ID when the photo has no key of its own")
        // An unknown author gets no avatar, but the column stays.
        #expect(rows[2].author == nil)
        #expect(rows.map(\.reservesAvatarColumn) == [true, true, true])
        #expect(rows[0].accessibilityLabel == "Mia: hi")
    }

    // MARK: Timestamps, typing, empty chat, banner

    @Test("spec 7.24: a timestamp row precedes a group that starts more than 5 minutes after the message before")
    func timestamps() {
        let rows = Self.screen([
            Self.message("a", at: 0), Self.message("b", at: 30), Self.message("c", at: 30 + 301),
            Self.message("d", .agent, at: 30 + 302),
        ]).rows
        #expect(rows.map(\.timestamp) == [
            Self.start, nil, Self.start.addingTimeInterval(331), nil,
        ])
    }

    @Test("spec 7.24: a timestamp reads the time alone today, with the day before, with the year in another year")
    func timestampWording() {
        // 1_800_000_000 is Friday 15 January 2027, 08:00 UTC. The exact punctuation is the platform's (ICU's).
        let message = [Self.message("a", at: 0)]
        let today = Self.screen(message, now: Self.start.addingTimeInterval(3600)).rows[0].timestampText ?? ""
        #expect(today.contains("8:00") && today.contains("AM") && !today.contains("Jan"), "\(today)")
        let tomorrow = Self.screen(message, now: Self.start.addingTimeInterval(86_400)).rows[0].timestampText ?? ""
        #expect(["Fri", "Jan", "15", "8:00"].allSatisfy(tomorrow.contains) && !tomorrow.contains("2027"), "\(tomorrow)")
        let nextYear = Self.screen(message, now: Self.start.addingTimeInterval(400 * 86_400)).rows[0].timestampText
        #expect(nextYear?.contains("2027") == true)
        let german = Self.screen(message, texts: ChatTexts(language: "de"), now: Self.start.addingTimeInterval(86_400))
        let text = german.rows[0].timestampText ?? ""
        #expect(text.contains("Fr") && text.contains("Jan") && !text.contains("AM"), "\(text)")
    }

    @Test("spec 7.24: rows say where their group starts and ends, for the spacing between groups")
    func groupEdges() {
        let rows = Self.screen([
            Self.message("a", at: 0), Self.message("b", at: 1), Self.message("c", .agent, at: 2),
        ]).rows
        #expect(rows.map(\.startsGroup) == [true, false, true])
        #expect(rows.map(\.endsGroup) == [false, true, true])
    }

    @Test("seed 001: the typing indicator shows while a teammate types")
    func typing() {
        #expect(Self.screen([], typing: true).typingText == "Typing…")
        #expect(Self.screen([], typing: false).typingText == nil)
        var look = ChatAppearance()
        look.showsTeamPhotos = true
        #expect(Self.screen([], typing: true, appearance: look).typingReservesAvatarColumn)
        #expect(!Self.screen([], typing: true).typingReservesAvatarColumn)
    }

    @Test("the empty chat shows the welcome title and text, unless the appearance hides them")
    func emptyState() {
        let shown = Self.screen([])
        #expect(shown.emptyState == .init(title: "How can we help?", text: "Send us a message and we'll reply here.", showsIcon: true))
        #expect(shown.title == "Support")
        let look = ChatAppearance(hiddenElements: [.welcomeText, .welcomeIcon, .title])
        let hidden = Self.screen([], appearance: look)
        #expect(hidden.emptyState == .init(title: "How can we help?", text: nil, showsIcon: false))
        #expect(hidden.title == nil)
        #expect(Self.screen([Self.message("a")]).emptyState == nil)
        let unconfigured = ChatModel.unconfiguredPresentation(appearance: look)
        #expect(unconfigured.emptyState == .init(title: "How can we help?", text: nil, showsIcon: false))
    }

    @Test("the title and welcome texts follow the appearance's texts (through the chat texts' overrides)")
    func titleFromAppearanceTexts() {
        let texts = ChatTexts(language: "en", overrides: [.title: "Orbit Help", .welcomeTitle: "Hi!"])
        let screen = Self.screen([], texts: texts)
        #expect(screen.title == "Orbit Help")
        #expect(screen.emptyState?.title == "Hi!")
    }

    @Test("seed 001: the connection banner shows its four statuses and is hidden otherwise")
    func banner() {
        #expect(Self.screen([], banner: .hidden).banner == nil)
        let texts = [ConnectionBanner.offline, .connecting, .connected, .paused].map { Self.screen([], banner: $0).banner?.text }
        #expect(texts == ["No connection", "Connecting", "Connected", "Live updates paused"])
    }

    @Test("opening scrolls to the newest row")
    func newestRow() {
        #expect(Self.screen([Self.message("a"), Self.message("b", .agent)]).newestRowID == "b")
        #expect(Self.screen([]).newestRowID == nil)
    }

    @Test("spec 7.20: older own bubbles lighten per newer text message when fading is on")
    func fading() {
        let look = ChatAppearance(fadesOlderMessages: true)
        let rows = Self.screen([
            Self.message("a"), Self.message("b", .agent), Self.message("c"), Self.message("d"),
        ], appearance: look).rows
        #expect(rows.map(\.fade) == [0.18, 0, 0.06, 0])
        #expect(Self.screen([Self.message("a"), Self.message("b")]).rows.map(\.fade) == [0, 0])
    }

    // MARK: Composer

    @Test("seed 001: an over-limit draft is explained and cannot be sent")
    func overLimit() {
        let notice = ComposerNotice.textTooLong(length: 4001, limit: 4000)
        let composer = Self.screen([], composer: Self.composer(text: "x", canSend: false, notices: [notice])).composer
        #expect(composer.isOverLimit)
        #expect(!composer.canSend)
        #expect(composer.notices == ["This message is too long (4001 of 4000 characters). Shorten it to send."])
    }

    @Test("seed 001: blocked, sign-in-required and unavailable replace the composer with their notice")
    func replacements() {
        let cases: [(ComposerAvailability, String?)] = [
            (.open, nil), (.sendingDisabled, "You can't send messages from this device."),
            (.signInRequired, "Sign in to send messages."), (.appUnavailable, "Chat is not available right now."),
        ]
        for (availability, text) in cases {
            let composer = Self.screen([], composer: Self.composer(availability, canSend: true)).composer
            #expect(composer.replacement == text)
            #expect(composer.isShown == (text == nil))
            #expect(composer.canSend == (text == nil))
        }
    }

    @Test("seed 001: five photos per message: the picker may add five, less those picked or loading")
    func pickerLimit() {
        #expect(Self.screen([], composer: Self.composer()).composer.photoSelectionLimit == 5)
        #expect(Self.screen([], composer: Self.composer(photos: 2, loading: 1)).composer.photoSelectionLimit == 2)
        let full = Self.screen([], composer: Self.composer(photos: 5)).composer
        #expect(full.photoSelectionLimit == 0)
        #expect(!full.canAddPhotos)
        #expect(full.photos.map(\.id) == [0, 1, 2, 3, 4])
        #expect(full.photos.first?.removeLabel == "Remove photo")
        #expect(full.photos.first?.aspectRatio == 1.5)
    }

    @Test("seed 001: a selection still loading disables Send; an unreadable one says Could not load this photo.")
    func loadingAndUnreadable() {
        let loading = Self.screen([], composer: Self.composer(text: "hi", loading: 1, canSend: false)).composer
        #expect(loading.loadingPhotoCount == 1)
        #expect(!loading.canSend)
        let failed = Self.screen([], composer: Self.composer(notices: [.photoCouldNotLoad])).composer
        #expect(failed.notices == ["Could not load this photo."])
    }

    @Test("spec 6.3.5: a cooldown notice shows above the field")
    func cooldownNotice() {
        let notice = ComposerNotice.cooldown(CooldownNotice(scope: .messages, secondsLeft: 120))
        let composer = Self.screen([], composer: Self.composer(notices: [notice])).composer
        #expect(composer.notices == ["Message limit reached, send again in 2 minutes."])
    }

    @Test("the composer's labels: placeholder, Send, Add photo")
    func composerLabels() {
        let composer = Self.screen([]).composer
        #expect([composer.placeholder, composer.sendLabel, composer.addPhotoLabel] == ["Message", "Send", "Add photo"])
    }

    // MARK: Languages and accessibility

    @Test("the screen speaks the chat language, and Arabic reads right to left")
    func languages() {
        let german = Self.screen([Self.message("a", status: .notDelivered, retry: .available)], texts: ChatTexts(language: "de"))
        #expect(german.rows[0].status?.text == "Nicht zugestellt")
        #expect(german.layoutDirection == .leftToRight)
        let arabic = Self.screen([], texts: ChatTexts(language: "ar"))
        #expect(arabic.layoutDirection == .rightToLeft)
        #expect(arabic.composer.sendLabel != "Send")
    }

    @Test("VoiceOver reads who wrote a row, its text, photos, card and status")
    func rowAccessibility() {
        let rows = Self.screen([
            Self.message("a", text: "Hello", status: .notDelivered,
                         localPhotos: [Self.jpeg(width: 1, height: 1), Self.jpeg(width: 1, height: 1)], retry: .available),
            Self.message("b", .agent, text: "Hi"),
        ]).rows
        #expect(rows[0].accessibilityLabel == "You: Hello. 2 photos. Not delivered. Retry")
        #expect(rows[1].accessibilityLabel == "Support: Hi")
    }
}
