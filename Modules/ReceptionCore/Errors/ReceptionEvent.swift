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

    /// Hashes the case only; `==` compares the values too, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
        switch self {
        case .chatOpened: hasher.combine(0)
        case .messageSent: hasher.combine(1)
        case .imageSent: hasher.combine(2)
        case .reviewOpened: hasher.combine(3)
        case .paywallOpened: hasher.combine(4)
        case .dataDeleted: hasher.combine(5)
        case .identityRejected: hasher.combine(6)
        }
    }
}
