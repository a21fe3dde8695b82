/// The exponential backoff of spec 6.2.
///
/// `base(n) = min(2 × 2^(min(n − 1, 6)), 60)` seconds, so 2, 4, 8, 16, 32, 60, 60 …; the delay is the base times a
/// uniform jitter in 0.75 … 1.25, applied after the cap (at most 75 s).
public enum Backoff {
    /// The un-jittered delay for attempt `attempt` (1-based; values below 1 count as 1).
    @inline(never) @_optimize(size) public static func baseSeconds(attempt: Int) -> Double {
        let exponent = min(max(attempt, 1) - 1, 6)
        return min(2 * Double(1 << exponent), 60)
    }

    /// The jittered delay for attempt `attempt`.
    @inline(never) @_optimize(size) public static func delay(attempt: Int, random: any RandomSource) -> Duration {
        let seconds = baseSeconds(attempt: attempt) * random.uniform(in: 0.75...1.25)
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
