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
    @_optimize(size) public init() {}

    /// The sequence number of the last value set, so a value that arrives late never replaces a newer one.
    private var sequence = 0

    /// Sets the count; negative values become zero (spec 7.11). A value whose `sequence` is older than the last one
    /// applied is ignored.
    @_optimize(size) func set(_ newValue: Int, sequence: Int) {
        guard sequence > self.sequence else { return }
        self.sequence = sequence
        let clamped = max(0, newValue)
        if clamped != value { value = clamped }
    }
}
