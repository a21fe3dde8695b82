import Foundation

/// A `RandomNumberGenerator` that gives the same values for the same seed (SplitMix64), so a test with random inputs
/// can be repeated exactly. `fromEnvironment()` takes the seed from `RECEPTION_TEST_SEED` when it is set, and picks a
/// fresh one otherwise; a test puts `reproduction` into its failure messages so a failed run says how to repeat it.
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
    /// The environment variable that fixes the seed of every seeded test (decimal, or hexadecimal after `0x`).
    public static let environmentVariable = "RECEPTION_TEST_SEED"

    /// The seed this generator started from.
    public let seed: UInt64
    private var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// A generator seeded from `RECEPTION_TEST_SEED` in `environment` when it holds a number, otherwise from the
    /// system's random source.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> SeededRandomNumberGenerator {
        if let text = environment[environmentVariable], let seed = parse(text) { return Self(seed: seed) }
        var system = SystemRandomNumberGenerator()
        return Self(seed: system.next())
    }

    /// For a failure message: the seed and how to run the test again with it.
    public var reproduction: String { "random seed \(seed); repeat with \(Self.environmentVariable)=\(seed)" }

    public mutating func next() -> UInt64 {
        // SplitMix64: a Weyl sequence step, then a bijective mix of the state.
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    private static func parse(_ text: String) -> UInt64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased().hasPrefix("0x") { return UInt64(trimmed.dropFirst(2), radix: 16) }
        return UInt64(trimmed)
    }
}
