import Foundation
import ReceptionCore

/// Spec 5.2: `Retry-After` read only as whole non-negative seconds (surrounding spaces allowed), clamped to
/// 1 … 86,400. HTTP dates, negatives, decimals and words count as missing.
public enum RetryAfter {
    /// The usable seconds in `header`, or `nil`.
    @inline(never) @_optimize(size) public static func seconds(_ header: String?) -> Int? {
        guard let text = header?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        // Loops, not an `allSatisfy` closure or `Int(_:)`, whose generic parser the app would keep for this alone
        // (Docs/Footprint.md). Past the cap the value no longer matters, so the sum stops growing there.
        var value = 0
        for byte in text.utf8 {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = min(value * 10 + Int(byte - UInt8(ascii: "0")), Limits.maximumRetryAfterSeconds)
        }
        return min(max(value, 1), Limits.maximumRetryAfterSeconds)
    }

    /// Spec 3.14: a storage 429's `Retry-After` is only a backoff hint, capped at 300 s.
    @inline(never) @_optimize(size) public static func storageHintSeconds(_ header: String?) -> Int? {
        seconds(header).map { min($0, 300) }
    }
}
