import Foundation
import ReceptionCore

/// Which way the chat's texts read (spec 7.19: right to left for ar, he and ur).
public enum LayoutDirection: String, Sendable, Hashable, CaseIdentity {
    /// Most languages.
    case leftToRight
    /// Arabic, Hebrew and Urdu.
    case rightToLeft
}

/// A built-in text of the chat. The raw value is its key in `Resources/ChatTexts.xcstrings`.
public enum ChatTextKey: String, Sendable, Hashable, CaseIterable, CaseIdentity {
    /// A message on its way ("Sending").
    case sending = "status.sending"
    /// A confirmed message ("Sent").
    case sent = "status.sent"
    /// A failed message ("Not delivered").
    case notDelivered = "status.notDelivered"
    /// The button that sends a failed message again ("Retry").
    case retry = "action.retry"
    /// The button that stops an automatic resend ("Cancel").
    case cancel = "action.cancel"
    /// The composer's replacement when only verified users can chat.
    case signInRequired = "composer.signInRequired"
    /// The composer's replacement on a blocked device.
    case sendingDisabled = "composer.sendingDisabled"
    /// The composer's replacement when the service no longer serves the app.
    case appUnavailable = "composer.appUnavailable"
    /// Held messages are going out first.
    case resendingHeldMessages = "composer.resendingHeldMessages"
    /// A picked photo could not be read.
    case photoCouldNotLoad = "composer.photoCouldNotLoad"
    /// The device could not store the conversation.
    case storageProblem = "composer.storageProblem"
    /// `%1$lld` the draft's length, `%2$lld` the limit.
    case textTooLong = "composer.textTooLong"
    /// Plural over the limit.
    case tooManyPhotos = "composer.tooManyPhotos"
    /// `%@` a relative time ("in 2 minutes").
    case cooldownMessages = "cooldown.messages"
    /// `%@` a relative time: photos wait, text still goes.
    case cooldownUploads = "cooldown.uploads"
    /// `%@` a relative time: too many attempts.
    case cooldownRequests = "cooldown.requests"
    /// `%@` a relative time: any other wait.
    case cooldownConnection = "cooldown.connection"
    /// Plurals over the count.
    case inSeconds = "time.inSeconds"
    /// "in N minutes", plural over the count.
    case inMinutes = "time.inMinutes"
    /// "in N hours", plural over the count.
    case inHours = "time.inHours"
    /// The banner without a network path ("No connection").
    case offline = "banner.offline"
    /// The banner while reconnecting ("Connecting").
    case connecting = "banner.connecting"
    /// The banner for 3 s after reconnecting ("Connected").
    case connected = "banner.connected"
    /// The banner while a wait pauses the live stream ("Live updates paused").
    case paused = "banner.paused"
    /// A review card's default button.
    case rateOnAppStore = "card.rateOnAppStore"
    /// A paywall card's default button.
    case viewOffer = "card.viewOffer"
    /// A paywall card's disabled button when its offer is no longer available ("No longer available").
    case offerUnavailable = "card.unavailable"
    /// An offer push's text when its card has neither a message nor a button label (seed 002).
    case seeDiscount = "card.seeDiscount"
    /// The chat's default title.
    case title = "chat.title"
    /// The welcome screen's default title.
    case welcomeTitle = "chat.welcomeTitle"
    /// The welcome screen's default text.
    case welcomeText = "chat.welcomeText"
    /// Who wrote the person's own message, as VoiceOver reads it ("You").
    case you = "a11y.you"
    /// Who wrote a team reply whose teammate's name is not shown ("Support").
    case team = "a11y.team"
    /// Plural over the count: how many photos a message holds ("2 photos").
    case photoCount = "photo.count"
    /// A local photo preview the service has not confirmed ("Not sent yet").
    case photoPending = "photo.pending"
    /// A received photo that could not be downloaded; tapping loads it again.
    case photoFailed = "photo.failed"
    /// A confirmed photo; tapping opens the full-screen viewer ("View photo").
    case viewPhoto = "photo.view"
    /// One of several confirmed photos: `%1$lld` its position, `%2$lld` how many ("View photo 2 of 3").
    case viewNumberedPhoto = "photo.viewNumbered"
    /// Under an own message while its photos upload ("Uploading photos").
    case uploading = "status.uploading"
    /// `%@` a relative time: an automatic resend is counting down ("Sending again in 5 seconds").
    case resendCountdown = "status.resendCountdown"
    /// `%@` a relative time: Retry is disabled until then ("Retry in 30 seconds").
    case retryAfter = "status.retryAfter"
    /// The empty text field's placeholder ("Message").
    case placeholder = "composer.placeholder"
    /// The send arrow ("Send").
    case send = "action.send"
    /// The photo button ("Add photo").
    case addPhoto = "action.addPhoto"
    /// The remove control on a picked photo ("Remove photo").
    case removePhoto = "action.removePhoto"
    /// The close control of the chat sheet and of the photo viewer ("Close").
    case close = "action.close"
    /// While a teammate is typing ("Typing…").
    case typing = "typing.indicator"
    /// Plural over the count: the control that shows replies which arrived while the reader was scrolled up
    /// ("3 new messages").
    case newMessages = "transcript.newMessages"
    /// What VoiceOver adds to that control ("Scrolls to the newest message.").
    case newMessagesHint = "a11y.newMessagesHint"
}

/// Every built-in text of the chat in one language, with its layout direction: what a chat screen shows for
/// statuses, composer notices, the banner, card buttons and the empty chat. The texts come from the String
/// Catalog `Resources/ChatTexts.xcstrings` (48 languages); `overrides` come first (the facade puts the
/// dashboard's published title and welcome texts there, and a host may put any text there). A language or key the
/// catalog lacks falls back to English.
public struct ChatTexts: Sendable, Hashable {
    /// The catalog language the texts are in (one of `ChatTexts.languages`; an unknown tag gives `"en"`).
    public let language: String
    /// Right to left for ar, he and ur.
    public var layoutDirection: LayoutDirection
    /// Texts shown instead of the built-in ones.
    public var overrides: [ChatTextKey: String]

    /// The texts in `language`, which must be one of the catalog's languages (a resolved UI language, spec
    /// 7.19); anything else gives English.
    @inline(never) @_optimize(size) public init(language: String, overrides: [ChatTextKey: String] = [:]) {
        // The fixed list, not the catalog: building texts (the facade does at configure) must not parse the
        // 321 kB String Catalog; it is read on the first lookup.
        self.language = UILanguages.builtIn(language) ?? "en"
        self.layoutDirection = Self.rightToLeftLanguages.contains(self.language) ? .rightToLeft : .leftToRight
        self.overrides = overrides
    }

    /// English, left to right.
    public static let english = ChatTexts(language: "en")

    /// The languages the catalog holds.
    @_optimize(size) public static var languages: [String] { TextCatalog.shared.languages }

    /// Spec 7.19: the languages laid out right to left.
    public static let rightToLeftLanguages: Set<String> = UILanguages.rightToLeft

    /// Whether the texts read right to left.
    @_optimize(size) public var isRightToLeft: Bool { layoutDirection == .rightToLeft }

    // MARK: Lookup

    /// The text for `key` (the override if set). Plural keys give their `other` form with `%lld` unfilled;
    /// use `text(_:count:)` for them.
    @inline(never) @_optimize(size) public func text(_ key: ChatTextKey) -> String {
        if let override = overrides[key], !override.isEmpty { return override }
        return TextCatalog.shared.text(key.rawValue, language: language)
    }

    /// A plural text for `count`, in the CLDR category of the language, with the count filled in.
    @inline(never) @_optimize(size) public func text(_ key: ChatTextKey, count: Int) -> String {
        if let override = overrides[key], !override.isEmpty { return TextFormat.fill(override, [String(count)]) }
        return TextFormat.fill(TextCatalog.shared.text(key.rawValue, language: language, count: count), [String(count)])
    }

    /// `key`'s text with its `%lld`/`%@` placeholders (positional or not) filled in order.
    @inline(never) @_optimize(size)
    public func text(_ key: ChatTextKey, _ arguments: String...) -> String { TextFormat.fill(text(key), arguments) }

    // MARK: What the chat shows

    /// The status line under an own message: "Sending…", "Sent", "Not delivered"; `nil` for received messages.
    @inline(never) @_optimize(size) public func status(_ status: DeliveryStatus) -> String? {
        switch status {
        case .sending: text(.sending)
        case .sent: text(.sent)
        case .notDelivered: text(.notDelivered)
        case .received: nil
        }
    }

    /// "Retry".
    @_optimize(size) public var retry: String { text(.retry) }
    /// "Cancel" (of an automatic resend countdown).
    @_optimize(size) public var cancel: String { text(.cancel) }
    /// The chat's title.
    @_optimize(size) public var title: String { text(.title) }
    /// The heading of the empty chat.
    @_optimize(size) public var welcomeTitle: String { text(.welcomeTitle) }
    /// The text under it.
    @_optimize(size) public var welcomeText: String { text(.welcomeText) }

    /// The notice that replaces the composer, if any.
    @inline(never) @_optimize(size) public func replacement(_ availability: ComposerAvailability) -> String? {
        switch availability {
        case .open: nil
        case .sendingDisabled: text(.sendingDisabled)
        case .signInRequired: text(.signInRequired)
        case .appUnavailable: text(.appUnavailable)
        }
    }

    /// A composer notice.
    @inline(never) @_optimize(size) public func notice(_ notice: ComposerNotice) -> String {
        switch notice {
        case .textTooLong(let length, let limit): text(.textTooLong, String(length), String(limit))
        case .cooldown(let cooldown): self.cooldown(cooldown)
        case .resendingHeldMessages: text(.resendingHeldMessages)
        case .photoCouldNotLoad: text(.photoCouldNotLoad)
        case .tooManyPhotos(let limit): text(.tooManyPhotos, count: limit)
        case .storageProblem: text(.storageProblem)
        }
    }

    /// The wait notice of spec 6.3.5, worded by scope, e.g. "Message limit reached, send again in 2 minutes."
    @inline(never) @_optimize(size) public func cooldown(_ notice: CooldownNotice) -> String {
        let time = relativeTime(seconds: Double(notice.secondsLeft))
        switch notice.scope {
        case .messages: return text(.cooldownMessages, time)
        case .uploads: return text(.cooldownUploads, time)
        case .requests: return text(.cooldownRequests, time)
        default: return text(.cooldownConnection, time)
        }
    }

    /// Spec 6.3.5: "in N unit", rounded up in the largest unit: under 60 s seconds, under an hour minutes, else
    /// hours; never less than "in 1 second". Whole seconds are rounded up first, so 59.5 s reads "in 1 minute".
    @inline(never) @_optimize(size) public func relativeTime(seconds: Double) -> String {
        let whole = seconds.isFinite ? max(1, Int(min(seconds, 1e12).rounded(.up))) : 1
        if whole < 60 { return text(.inSeconds, count: whole) }
        if whole < 3600 { return text(.inMinutes, count: (whole + 59) / 60) }
        return text(.inHours, count: (whole + 3599) / 3600)
    }

    /// The connection banner's text; `nil` when hidden.
    @inline(never) @_optimize(size) public func banner(_ banner: ConnectionBanner) -> String? {
        switch banner {
        case .hidden: nil
        case .offline: text(.offline)
        case .connecting: text(.connecting)
        case .connected: text(.connected)
        case .paused: text(.paused)
        }
    }

    /// What a card's button says (seed 001): the agent's label, else "Rate on the App Store" for a review card
    /// with a link and "View offer" for an offer card; `nil` for a review without a link and other messages.
    @inline(never) @_optimize(size) public func buttonTitle(for message: ChatMessage) -> String? {
        let label = message.buttonLabel?.trimmingCharacters(in: .whitespacesAndNewlines)
        let agentLabel = label.flatMap { $0.isEmpty ? nil : $0 }
        switch message.kind {
        case .review:
            guard let url = message.reviewUrl, !url.isEmpty else { return nil }
            return agentLabel ?? text(.rateOnAppStore)
        case .paywall:
            return agentLabel ?? text(.viewOffer)
        default:
            return nil
        }
    }

    /// Hashes the language only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(language) }
}
