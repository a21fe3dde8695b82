import ReceptionCore

/// The connection status shown above the composer (spec 7.18, seed 001 "Connection status").
public enum ConnectionBanner: String, Sendable, Hashable, CaseIdentity {
    /// Nothing shown (an unused chat, a halted session, a healthy connection).
    case hidden
    /// "No connection": the device reports no network path.
    case offline
    /// "Connecting": a path exists and the chat is reconnecting.
    case connecting
    /// "Connected": the connection recovered; shown for 3 s.
    case connected
    /// "Live updates paused": a stream-relevant wait is active.
    case paused
}
