import Foundation
import ReceptionCore

/// Where a message stands, as its bubble shows it (seed 001 "Sending status", spec 7.8.3, 7.24).
public enum DeliveryStatus: String, Sendable, Hashable, CaseIdentity {
    /// An own message whose attempt is running (or that was found sending and not yet rescued).
    case sending
    /// The service accepted the own message. It does not mean an agent read it.
    case sent
    /// The last attempt failed ("Not delivered").
    case notDelivered
    /// A message from the team (or any sender other than this person).
    case received
}

/// What a failed message offers the person (spec 7.24, 6.3.5, 7.8.6).
public enum RetryOption: Sendable, Hashable {
    /// Nothing to offer (the message is sent, sending, or not the person's).
    case none
    /// "Retry" is available; tapping the bubble also retries.
    case available
    /// A short wait is being waited out automatically: a countdown with "Cancel".
    case automaticResend(secondsLeft: Int)
    /// A wait holds the message; "Retry" is disabled until it ends.
    case disabledFor(secondsLeft: Int)
    /// Sending is not allowed right now (blocked device, sign-in required).
    case notAllowed

    /// Hashes the case only; `==` compares the values too, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
        switch self {
        case .none: hasher.combine(0)
        case .available: hasher.combine(1)
        case .automaticResend: hasher.combine(2)
        case .disabledFor: hasher.combine(3)
        case .notAllowed: hasher.combine(4)
        }
    }
}

/// One bubble of the transcript, as a chat screen shows it.
public struct ChatMessage: Sendable, Hashable, Identifiable {
    /// The local ID (for own messages also the client ID sent to the service); stable across confirmation.
    public var id: String
    /// The service's sequence number once confirmed.
    public var seq: Int64?
    /// Who wrote it.
    public var sender: MessageSender
    /// The text (possibly empty for photo-only messages and cards).
    public var text: String
    /// `TEXT`, `REVIEW`, `PAYWALL`, or a kind added later.
    public var kind: MessageKind
    /// For review cards: the link of the button.
    public var reviewUrl: String?
    /// For paywall cards: the host's paywall ID.
    public var paywallId: String?
    /// The agent's button text for cards.
    public var buttonLabel: String?

    /// What a card's button says (seed 001), in English: the agent's label, else "Rate on the App Store" for a
    /// review card with a link and "View offer" for a paywall card; `nil` for a review without a link (its text
    /// shows without a button) and for other messages. `ChatTexts.buttonTitle(for:)` gives it in the chat language.
    @_optimize(size) public var buttonTitle: String? { ChatTexts.english.buttonTitle(for: self) }
    /// The team member who wrote an agent reply.
    public var authorId: String?
    /// Confirmed photos.
    public var attachments: [Attachment]
    /// Local JPEG previews of photos not yet confirmed (pending previews, not confirmed attachments).
    public var localPhotos: [Data]
    /// When it was written.
    public var createdAt: Date
    /// Sending, sent, not delivered or received.
    public var status: DeliveryStatus
    /// Spec 7.8.3: still sending 400 ms after the attempt started; the bubble shows "sending…" and is dimmed.
    public var showsPendingIndicator: Bool
    /// Spec 7.9: `(completed photos + fraction of the current one) / photo count` while photos upload.
    public var uploadProgress: Double?
    /// What a failed message offers.
    public var retry: RetryOption

    /// Hashes the ID only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
