import ReceptionCore

/// Whole numbers a JSON number can carry exactly: within ±(2^53 − 1), the range every JSON reader agrees on.
enum SafeInteger {
    /// 2^53 − 1.
    static let maximum: UInt64 = 9_007_199_254_740_991

    /// The decimal form of a JSON number literal when its exact value is a whole number within ±(2^53 − 1)
    /// (spec 7.14.3 step 3: `42.0` → `"42"`, `1e3` → `"1000"`, `-0` → `"0"`); `nil` for fractions, overflow and
    /// malformed literals.
    ///
    /// The literal is evaluated exactly in decimal rather than through `Double`: `9007199254740993` and
    /// `42.0000000000000000001` round to safe whole doubles but are not safe whole numbers.
    @_optimize(size) static func decimal(fromJSONNumber lexeme: String) -> String? {
        var rest = Substring(lexeme)
        let negative = rest.first == "-"
        if negative { rest = rest.dropFirst() }
        let mantissa = rest.prefix { $0 != "e" && $0 != "E" }
        let exponentText = rest.dropFirst(mantissa.count).dropFirst()
        let pieces = TextPieces.split(mantissa, at: ".", maxSplits: 1)
        guard let integerPart = pieces.first, !integerPart.isEmpty else { return nil }
        let fractionPart = pieces.count == 2 ? pieces[1] : ""
        guard (integerPart + fractionPart).allSatisfy(\.isASCIIDigit) else { return nil }
        guard var exponent = exponent(exponentText, present: mantissa.count < rest.count) else { return nil }

        // value = digits × 10^exponent, with the digits stripped of leading and trailing zeros.
        var digits = Array((integerPart + fractionPart).drop { $0 == "0" })
        exponent -= fractionPart.count
        guard !digits.isEmpty else { return "0" }
        while digits.last == "0" {
            digits.removeLast()
            exponent += 1
        }
        guard exponent >= 0, digits.count + exponent <= String(maximum).count else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            guard let d = digit.wholeNumberValue else { return nil }
            value = value * 10 + UInt64(d)
        }
        for _ in 0..<exponent { value *= 10 }
        guard value <= maximum else { return nil }
        return negative ? "-\(value)" : "\(value)"
    }

    /// The exponent, saturated far beyond any safe value so a huge exponent cannot overflow.
    @_optimize(size) private static func exponent(_ text: Substring, present: Bool) -> Int? {
        guard present else { return 0 }
        var rest = text
        var sign = 1
        if rest.first == "+" || rest.first == "-" {
            if rest.first == "-" { sign = -1 }
            rest = rest.dropFirst()
        }
        guard !rest.isEmpty, rest.allSatisfy(\.isASCIIDigit) else { return nil }
        var magnitude = 0
        for digit in rest {
            magnitude = min(magnitude * 10 + (digit.wholeNumberValue ?? 0), 1_000_000)
        }
        return sign * magnitude
    }
}

extension Character {
    @_optimize(size) fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
