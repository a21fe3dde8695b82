/// JSON number literals at the edges of every integer and floating-point range, each with the value a careful reader
/// must find in it, written out by hand here (not computed by the emulator's parser) so the sweep tests have an
/// independent expectation.
struct NumberLiteral: Sendable, CustomStringConvertible {
    /// The literal exactly as it goes on the wire.
    let text: String
    /// Its exact value when that is a whole number that fits 64 bits (`1e3`, `42.0`, `-0`); `nil` for fractions and
    /// anything beyond ±2^63.
    let whole: Int64?
    /// The nearest Double; `nil` beyond Double's range (`1e309`).
    let double: Double?

    var description: String { text }

    /// Whether the literal is a whole number inside `range`: what an integer field with that range accepts.
    func isWhole(in range: ClosedRange<Int64>) -> Bool { whole.map(range.contains) ?? false }

    static let twoTo53: Int64 = 9_007_199_254_740_992

    static let all: [NumberLiteral] = [
        NumberLiteral(text: "0", whole: 0, double: 0),
        NumberLiteral(text: "-0", whole: 0, double: -0.0),
        NumberLiteral(text: "-0.0", whole: 0, double: -0.0),
        NumberLiteral(text: "1", whole: 1, double: 1),
        NumberLiteral(text: "-1", whole: -1, double: -1),
        NumberLiteral(text: "1e3", whole: 1000, double: 1000),
        NumberLiteral(text: "1200e-2", whole: 12, double: 12),
        NumberLiteral(text: "42.0", whole: 42, double: 42),
        NumberLiteral(text: "0.5", whole: nil, double: 0.5),
        NumberLiteral(text: "5.0000000000000000001", whole: nil, double: 5),
        NumberLiteral(text: "100000000000000000000e-2", whole: 1_000_000_000_000_000_000, double: 1e18),
        // ±2^53 and its neighbours, as integers and as doubles.
        NumberLiteral(text: "9007199254740991", whole: twoTo53 - 1, double: 9_007_199_254_740_991),
        NumberLiteral(text: "9007199254740992", whole: twoTo53, double: 9_007_199_254_740_992),
        NumberLiteral(text: "9007199254740993", whole: twoTo53 + 1, double: 9_007_199_254_740_992),
        NumberLiteral(text: "-9007199254740991", whole: -(twoTo53 - 1), double: -9_007_199_254_740_991),
        NumberLiteral(text: "-9007199254740992", whole: -twoTo53, double: -9_007_199_254_740_992),
        NumberLiteral(text: "-9007199254740993", whole: -(twoTo53 + 1), double: -9_007_199_254_740_992),
        NumberLiteral(text: "9007199254740991.0", whole: twoTo53 - 1, double: 9_007_199_254_740_991),
        NumberLiteral(text: "9007199254740992.0", whole: twoTo53, double: 9_007_199_254_740_992),
        NumberLiteral(text: "9007199254740993.0", whole: twoTo53 + 1, double: 9_007_199_254_740_992),
        NumberLiteral(text: "9007199254740991.5", whole: nil, double: 9_007_199_254_740_992),
        // ±2^63 and its neighbours.
        NumberLiteral(text: "9223372036854775806", whole: Int64.max - 1, double: 9.223372036854775807e18),
        NumberLiteral(text: "9223372036854775807", whole: Int64.max, double: 9.223372036854775807e18),
        NumberLiteral(text: "9223372036854775808", whole: nil, double: 9.223372036854775808e18),
        NumberLiteral(text: "9223372036854775809", whole: nil, double: 9.223372036854775808e18),
        NumberLiteral(text: "-9223372036854775807", whole: Int64.min + 1, double: -9.223372036854775807e18),
        NumberLiteral(text: "-9223372036854775808", whole: Int64.min, double: -9.223372036854775808e18),
        NumberLiteral(text: "-9223372036854775809", whole: nil, double: -9.223372036854775808e18),
        NumberLiteral(text: "9223372036854775808.0", whole: nil, double: 9.223372036854775808e18),
        NumberLiteral(text: "123456789012345678901234567890", whole: nil, double: 1.2345678901234568e29),
        // The ends of Double and past them.
        NumberLiteral(text: "1e308", whole: nil, double: 1e308),
        NumberLiteral(text: "-1e308", whole: nil, double: -1e308),
        NumberLiteral(text: "1e309", whole: nil, double: nil),
        NumberLiteral(text: "-1e309", whole: nil, double: nil),
        NumberLiteral(text: "1e-400", whole: nil, double: 0),
        NumberLiteral(text: "-1e-400", whole: nil, double: -0.0),
        NumberLiteral(text: "1E+99999999999", whole: nil, double: nil),
        NumberLiteral(text: "-1E+99999999999", whole: nil, double: nil),
        NumberLiteral(text: "1E-99999999999", whole: nil, double: 0),
        NumberLiteral(text: "0e99999999999999999999", whole: 0, double: 0),
    ]
}
