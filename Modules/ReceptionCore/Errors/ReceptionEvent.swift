/// Something the SDK reports to the host's `onEvent` callback (spec 7.0, 7.22).
///
/// Events are notifications, not confirmations: `reviewOpened` does not mean a review was written, and
/// `paywallOpened` does not mean a purchase happened.
public indirect enum ReceptionEvent: Sendable, Hashable {
    /// The chat became visible.
    case chatOpened
    /// The service accepted a message the person sent.
    case messageSent
    /// The service accepted a message that carried photos (follows `messageSent`).
    case imageSent
    /// The person tapped a review card's button.
    case reviewOpened
    /// The person tapped an available paywall card's button; the host's `onPaywall` handler receives the ID.
    case paywallOpened
    /// `deleteData()` completed; the session was reset.
    case dataDeleted
    /// The service rejected the staged identity token (spec 7.14.3, step 9).
    case identityRejected(ReceptionError)
}
