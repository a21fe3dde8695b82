import Observation

/// The observable unread count the host reads (seed 004 "Observe the unread count"): unread agent replies of the
/// current device's latest conversation.
///
/// It starts at zero, is never negative, and keeps its last-known value when a refresh fails. Only the unread
/// monitor sets it; a SwiftUI body that reads `value` is updated when it changes.
@MainActor
@Observable
public final class UnreadCount {
    /// The last-known number of unread replies.
    public private(set) var value: Int = 0

    /// A count at zero: configuration never assumes anything else (seed 004: zero until the first refresh).
    public init() {}

    /// Sets the count; negative values become zero (spec 7.11).
    package func set(_ newValue: Int) {
        let clamped = max(0, newValue)
        if clamped != value { value = clamped }
    }
}
