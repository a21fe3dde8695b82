/// Why a body is not JSON; the request answers 400 `invalid_json` (stable code, Docs/Emulator.md).
package struct JSONParseError: Error, Equatable {
    /// Byte offset where reading stopped.
    package var offset: Int
}

extension JSONValue {
    /// Nesting deeper than this is refused, so a hostile body cannot exhaust the stack.
    static let maximumDepth = 64

    /// Parses UTF-8 JSON text (RFC 8259): one value, optional surrounding whitespace, nothing after it.
    package static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw JSONParseError(offset: parser.index) }
        return value
    }

    /// Parses a string's UTF-8 bytes.
    package static func parse(_ text: String) throws(JSONParseError) -> JSONValue { try parse(Array(text.utf8)) }
}

private struct JSONParser {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    private func failure() -> JSONParseError { JSONParseError(offset: index) }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < JSONValue.maximumDepth else { throw failure() }
        skipWhitespace()
        guard index < bytes.count else { throw failure() }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return try number()
        }
    }

    private mutating func literal(_ word: String) throws(JSONParseError) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw failure()
        }
        index += expected.count
    }

    private mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure() }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure() }
            index += 1
            members[key] = try value(depth: depth + 1)
            skipWhitespace()
            guard index < bytes.count else { throw failure() }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw failure()
        }
    }

    private mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw failure() }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw failure()
        }
    }

    private mutating func string() throws(JSONParseError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun(_ end: Int, into scalars: inout String.UnicodeScalarView) throws(JSONParseError) {
            guard end > runStart else { return }
            // Unescaped bytes must be valid UTF-8 on their own.
            guard let text = String(validating: bytes[runStart..<end], as: UTF8.self) else { throw failure() }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flushRun(index, into: &scalars)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw failure() }
            if byte == UInt8(ascii: "\\") {
                try flushRun(index, into: &scalars)
                index += 1
                scalars.append(try escape())
                runStart = index
                continue
            }
            index += 1
        }
        throw failure()
    }

    private mutating func escape() throws(JSONParseError) -> Unicode.Scalar {
        guard index < bytes.count else { throw failure() }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hexQuad()
            if (0xD800..<0xDC00).contains(high) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw failure() }
                index += 2
                let low = try hexQuad()
                guard (0xDC00..<0xE000).contains(low),
                    let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                else { throw failure() }
                return scalar
            }
            guard let scalar = Unicode.Scalar(high) else { throw failure() }
            return scalar
        default: throw failure()
        }
    }

    private mutating func hexQuad() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure() }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure()
            }
            value = value << 4 | digit
        }
        index += 4
        return value
    }

    /// RFC 8259 number grammar. A literal whose exact value is a whole number that fits 64 bits (`42`, `1e3`,
    /// `42.0`, `-0`) is `.int`; any other is the nearest `Double`, or ``JSONValue/outOfRangeNumber(_:)`` beyond
    /// Double's range (`1e309`). Reading it never loops on the exponent and never traps.
    private mutating func number() throws(JSONParseError) -> JSONValue {
        let start = index
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure() }
        let integerDigits = index
        if bytes[index] == UInt8(ascii: "0") { index += 1 } else { skipDigits() }
        let integerEnd = index
        let continues =
            index < bytes.count && (bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e"))
        if !continues, integerEnd - integerDigits <= 18 {
            // The common case, a plain integer of at most 18 digits, needs no exact arithmetic (nor can it overflow).
            var magnitude: Int64 = 0
            for digit in bytes[integerDigits..<integerEnd] {
                magnitude = magnitude * 10 + Int64(digit - UInt8(ascii: "0"))
            }
            return .int(negative ? -magnitude : magnitude)
        }
        var digits = Array(bytes[integerDigits..<integerEnd])
        var fractionCount = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fraction = index
            skipDigits()
            guard index > fraction else { throw failure() }
            digits += bytes[fraction..<index]
            fractionCount = index - fraction
        }
        var exponent = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var exponentSign = 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                if bytes[index] == UInt8(ascii: "-") { exponentSign = -1 }
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure() }
            while index < bytes.count, isDigit(bytes[index]) {
                // Saturated: any exponent past a billion already means zero or out of range, and the counter
                // cannot overflow however many digits follow.
                exponent = min(exponent * 10 + Int(bytes[index] - UInt8(ascii: "0")), JSONNumber.exponentCeiling)
                index += 1
            }
            exponent *= exponentSign
        }
        if let whole = JSONNumber.exactInteger(negative: negative, digits: digits, scale: exponent - fractionCount) {
            return .int(whole)
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return .outOfRangeNumber(text) }
        return .double(value)
    }

    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

/// Exact arithmetic on number literals, so that "is this a whole number" is decided on the text the client sent and
/// not on its rounding to a `Double` (`9007199254740993.0` is not 2^53, `5.0000000000000000001` is not 5, `1e-400` is
/// not 0).
enum JSONNumber {
    /// Exponents saturate here while they are read.
    static let exponentCeiling = 1_000_000_000

    /// The value of `digits` (ASCII, without a decimal point) × 10^`scale`, negated when `negative`, when it is a
    /// whole number within `Int64`; `nil` otherwise.
    static func exactInteger(negative: Bool, digits: [UInt8], scale: Int) -> Int64? {
        guard let first = digits.firstIndex(where: { $0 != UInt8(ascii: "0") }) else { return 0 }
        guard let last = digits.lastIndex(where: { $0 != UInt8(ascii: "0") }) else { return 0 }
        // Trailing zeros of the significant digits move into the scale: 1200e-2 is 12.
        let power = scale + (digits.count - 1 - last)
        let significant = digits[first...last]
        // Int64 has 19 decimal digits; anything longer (or any negative power left) is not a whole Int64.
        guard power >= 0, power <= 19, significant.count + power <= 19 else { return nil }
        var magnitude: UInt64 = 0
        for digit in significant { magnitude = magnitude * 10 + UInt64(digit - UInt8(ascii: "0")) }
        for _ in 0..<power {
            let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            magnitude = product
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }
}
