// The three server-defined kinds below are structs, not enums: the standard library's Codable support for
// String-backed RawRepresentable types encodes them as their raw string, and any string decodes.

/// Who wrote a message (spec 4.2). Server-defined: a value the client does not know decodes, round-trips, and is
/// rendered as an incoming message.
public struct MessageSender: RawRepresentable, Codable, Hashable, Sendable, ExpressibleByStringLiteral {
    public let rawValue: String
    @_optimize(size) public init(rawValue: String) { self.rawValue = rawValue }
    @_optimize(size) public init(stringLiteral value: String) { self.rawValue = value }

    /// This device's person.
    public static let user: MessageSender = "USER"
    /// The team.
    public static let agent: MessageSender = "AGENT"

    /// Whether the message is shown on the incoming side (everything that is not `USER`).
    @_optimize(size) public var isIncoming: Bool { self != .user }
}

/// What a message is (spec 4.2); absent on the wire means `TEXT`. Unknown kinds render as ordinary bubbles.
public struct MessageKind: RawRepresentable, Codable, Hashable, Sendable, ExpressibleByStringLiteral {
    public let rawValue: String
    @_optimize(size) public init(rawValue: String) { self.rawValue = rawValue }
    @_optimize(size) public init(stringLiteral value: String) { self.rawValue = value }

    /// A plain message.
    public static let text: MessageKind = "TEXT"
    /// An offer card for a paywall the host registered.
    public static let paywall: MessageKind = "PAYWALL"
    /// A card linking to the App Store review page.
    public static let review: MessageKind = "REVIEW"
}

/// A conversation's status (spec 4.3). The client only distinguishes `OPEN` from everything else; the service may
/// use others (`RESOLVED`, …), which round-trip unchanged.
public struct ConversationStatus: RawRepresentable, Codable, Hashable, Sendable, ExpressibleByStringLiteral {
    public let rawValue: String
    @_optimize(size) public init(rawValue: String) { self.rawValue = rawValue }
    @_optimize(size) public init(stringLiteral value: String) { self.rawValue = value }

    /// The conversation accepts messages and is polled for unread replies.
    public static let open: ConversationStatus = "OPEN"
    /// Resolved by the team; the next customer message reopens it (seed 001).
    public static let resolved: ConversationStatus = "RESOLVED"

    /// Spec 7.11: only `OPEN` enables unread polling.
    @_optimize(size) public var isOpen: Bool { self == .open }
}

/// The APNs environment a push token belongs to (spec 4.1).
public enum PushEnvironment: String, Codable, Hashable, Sendable, CaseIterable, CaseIdentity {
    /// Development builds (`aps-environment` `development`): pushes go through APNs' sandbox.
    case sandbox = "SANDBOX"
    /// App Store, TestFlight and ad-hoc builds.
    case production = "PRODUCTION"
}

/// The cooldown scopes of spec 6.3.1.
public enum RetryScope: String, Codable, Hashable, Sendable, CaseIterable, CaseIdentity {
    /// Message sends.
    case messages
    /// Photo reservations, and sends carrying photos.
    case uploads
    /// The per-device budget for every bearer request.
    case requests
    /// Registration and token renewal.
    case session
    /// Opening the event stream.
    case stream
}
