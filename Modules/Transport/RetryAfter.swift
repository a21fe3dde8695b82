import Foundation
import ReceptionCore

/// Spec 5.2: `Retry-After` read only as whole non-negative seconds (surrounding spaces allowed), clamped to
/// 1 … 86,400. HTTP dates, negatives, decimals and words count as missing.
public enum RetryAfter {
    /// The usable seconds in `header`, or `nil`.
    @_optimize(size) public static func seconds(_ header: String?) -> Int? {
        guard let text = header?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        // A loop, not an `allSatisfy` closure (Docs/Footprint.md, "Loops for one-off closures").
        for byte in text.utf8 where !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { return nil }
        // More digits than fit are "more than a day".
        guard let value = Int(text) else { return Limits.maximumRetryAfterSeconds }
        return min(max(value, 1), Limits.maximumRetryAfterSeconds)
    }

    /// Spec 3.14: a storage 429's `Retry-After` is only a backoff hint, capped at 300 s.
    @_optimize(size) public static func storageHintSeconds(_ header: String?) -> Int? {
        seconds(header).map { min($0, 300) }
    }
}
