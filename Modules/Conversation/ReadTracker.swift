import ReceptionCore

/// Reads and the read generation (spec 3.9, 7.11).
///
/// The generation moves on chat close, send success, and every read start and finish; a history or poll answer
/// that returns after it moved is discarded, and a read or unread answer updates the count only when it did not
/// move. A bounded read reports `throughSeq` = max(the previous one for that conversation, the highest `seq` of
/// the GET), so an empty or backwards page never lowers it.
struct ReadTracker: Sendable {
    /// Spec 7.11: compared before an answer is applied.
    private(set) var generation = 0
    /// The unread count the last accepted read answer reported (none outside the chat).
    private(set) var unreadCount: Int?
    /// The last GET said `boundedRead: true`.
    private(set) var bounded = false
    /// Per conversation (a session has one, or a few after chat resets), the highest `throughSeq` reported.
    private var throughSeq = KeyedList<Int64>()

    /// Something happened that makes an answer in flight stale (a send succeeded, a read started or finished).
    @_optimize(size) mutating func move() { generation += 1 }

    /// Spec 3.9: the read mode the last GET announced.
    @_optimize(size) mutating func setBounded(_ value: Bool) { bounded = value }

    /// Spec 3.9 bounded: the `throughSeq` to report for `conversationID` after a GET of `seqs`, remembered as the
    /// new floor; `nil` when there is nothing to read.
    @inline(never) @_optimize(size) mutating func boundedTarget(conversationID: String, seqs: [Int64]) -> Int64? {
        let through = max(throughSeq[conversationID] ?? 0, seqs.max() ?? 0)
        guard through > 0 else { return nil }
        throughSeq[conversationID] = through
        return through
    }

    /// An answer's count, taken when the generation is still `startedAt`; returns whether it was taken.
    @inline(never) @_optimize(size) mutating func accept(unreadCount count: Int, startedAt: Int) -> Bool {
        guard startedAt == generation else { return false }
        unreadCount = count
        return true
    }

    /// The chat closed: answers in flight are stale, and outside the chat the count belongs to the unread monitor,
    /// so the next read after reopening is reported even when it repeats this value.
    @_optimize(size) mutating func chatClosed() {
        generation += 1
        unreadCount = nil
    }

    /// Spec 7.12: a chat reset forgets what was read; the new chat has nothing unread.
    @_optimize(size) mutating func chatReset() {
        throughSeq.removeAll()
        unreadCount = 0
    }
}
