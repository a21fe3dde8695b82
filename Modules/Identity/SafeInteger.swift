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
    @inline(never) @_optimize(size) static func decimal(fromJSONNumber lexeme: String) -> String? {
        // Read as UTF-8 bytes: a lexeme with anything but ASCII digits, one point, an `e` and a sign is no number,
        // and bytes need none of the generic `Character` code a `Substring` walk brings (Docs/Footprint.md).
        var bytes: [UInt8] = []
        for byte in lexeme.utf8 { bytes.append(byte) }
        var at = 0
        let negative = at < bytes.count && bytes[at] == UInt8(ascii: "-")
        if negative { at += 1 }
        // The mantissa runs to the first `e` or `E`: digits, cut once at a point; the integer part not empty.
        var end = at
        while end < bytes.count && bytes[end] != UInt8(ascii: "e") && bytes[end] != UInt8(ascii: "E") { end += 1 }
        var digits: [UInt8] = [], integerCount = 0, fractionCount = 0, afterPoint = false
        for index in at..<end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "."), !afterPoint {
                afterPoint = true
                continue
            }
            guard byte.isASCIIDigit else { return nil }
            digits.append(byte)
            if afterPoint { fractionCount += 1 } else { integerCount += 1 }
        }
        guard integerCount > 0, var exponent = exponent(bytes, from: end) else { return nil }

        // value = digits × 10^exponent, with the digits stripped of leading and trailing zeros.
        var first = 0
        while first < digits.count && digits[first] == UInt8(ascii: "0") { first += 1 }
        exponent -= fractionCount
        guard first < digits.count else { return "0" }
        var last = digits.count
        while digits[last - 1] == UInt8(ascii: "0") {
            last -= 1
            exponent += 1
        }
        guard exponent >= 0, last - first + exponent <= maximumDigits else { return nil }
        var value: UInt64 = 0
        for digit in digits[first..<last] { value = value * 10 + UInt64(digit - UInt8(ascii: "0")) }
        for _ in 0..<exponent { value *= 10 }
        guard value <= maximum else { return nil }
        return negative ? "-\(value)" : "\(value)"
    }

    /// The digits of `maximum`.
    private static let maximumDigits = 16

    /// The exponent after the `e` at `end` (0 when the lexeme has none): an optional sign and at least one digit,
    /// saturated far beyond any safe value so a huge exponent cannot overflow; nil when malformed.
    @inline(never) @_optimize(size) private static func exponent(_ bytes: [UInt8], from end: Int) -> Int? {
        guard end < bytes.count else { return 0 }
        var index = end + 1, sign = 1
        if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
            if bytes[index] == UInt8(ascii: "-") { sign = -1 }
            index += 1
        }
        guard index < bytes.count else { return nil }
        var magnitude = 0
        while index < bytes.count {
            guard bytes[index].isASCIIDigit else { return nil }
            magnitude = min(magnitude * 10 + Int(bytes[index] - UInt8(ascii: "0")), 1_000_000)
            index += 1
        }
        return sign * magnitude
    }

}
