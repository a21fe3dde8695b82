import ReceptionCore

/// A strict reader of one JWT payload (RFC 8259 JSON) that keeps exactly what the `user_id` rule of spec 7.14.3
/// needs: the kind of each top-level member, a string's decoded text and a number's literal lexeme.
///
/// Why not `JSONSerialization`: it turns numbers into `NSNumber`, which on Linux cannot reliably tell `true` from
/// `1`, and it rounds `9007199254740993` before we can see it. Reading the lexeme keeps both decisions exact.
struct ClaimScanner {
    /// A top-level member's value, as far as the `user_id` rule cares.
    indirect enum Claim {
        case string(String)
        /// The number exactly as written (`-0`, `4.2e1`, `1E400`).
        case number(lexeme: String)
        case boolean
        case null
        case array
        case object
    }

    /// Nesting deeper than this is refused, so a hostile payload cannot exhaust the stack (a 4,096-unit token
    /// could otherwise nest about 1,500 levels).
    static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index = 0

    @_optimize(size) private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The members of `bytes` when it is exactly one JSON object (surrounding whitespace allowed), else `nil`.
    /// A repeated key keeps its last value, as most JSON readers do. A payload has a few members (a token is at
    /// most 4,096 units), so they are a `KeyedList`, whose code the SDK shares (Docs/Footprint.md).
    @inline(never) @_optimize(size) static func members(of bytes: [UInt8]) -> KeyedList<Claim>? {
        var scanner = ClaimScanner(bytes)
        scanner.skipWhitespace()
        guard scanner.peek == UInt8(ascii: "{"), let members = scanner.object(depth: 1) else { return nil }
        scanner.skipWhitespace()
        return scanner.index == bytes.count ? members : nil
    }

    // MARK: - Values

    @_optimize(size) private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    @inline(never) @_optimize(size) private mutating func value(depth: Int) -> Claim? {
        guard depth <= Self.maximumDepth, let byte = peek else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return object(depth: depth + 1).map { _ in .object }
        case UInt8(ascii: "["): return array(depth: depth + 1) ? .array : nil
        case UInt8(ascii: "\""): return string().map(Claim.string)
        case UInt8(ascii: "t"): return literal("true") ? .boolean : nil
        case UInt8(ascii: "f"): return literal("false") ? .boolean : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        default: return number().map { .number(lexeme: $0) }
        }
    }

    @inline(never) @_optimize(size) private mutating func object(depth: Int) -> KeyedList<Claim>? {
        guard depth <= Self.maximumDepth, consume(UInt8(ascii: "{")) else { return nil }
        var members = KeyedList<Claim>()
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return members }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\""), let key = string() else { return nil }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            guard let claim = value(depth: depth) else { return nil }
            members[key] = claim
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            return consume(UInt8(ascii: "}")) ? members : nil
        }
    }

    @inline(never) @_optimize(size) private mutating func array(depth: Int) -> Bool {
        guard depth <= Self.maximumDepth, consume(UInt8(ascii: "[")) else { return false }
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return true }
        while true {
            skipWhitespace()
            guard value(depth: depth) != nil else { return false }
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            return consume(UInt8(ascii: "]"))
        }
    }

    @inline(never) @_optimize(size) private mutating func literal(_ word: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count,
              bytes[index..<index + expected.count].elementsEqual(expected) else { return false }
        index += expected.count
        return true
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, returned as written.
    @inline(never) @_optimize(size) private mutating func number() -> String? {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        if consume(UInt8(ascii: "0")) {
            // A leading zero is a whole integer part on its own.
        } else if let byte = peek, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(byte) {
            skipDigits()
        } else {
            return nil
        }
        if consume(UInt8(ascii: ".")) {
            guard skipDigits() > 0 else { return nil }
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard skipDigits() > 0 else { return nil }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    @discardableResult
    @inline(never) @_optimize(size) private mutating func skipDigits() -> Int {
        let start = index
        while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - start
    }

    /// A string's decoded text; `nil` for raw control characters, bad escapes, lone surrogates or invalid UTF-8.
    @inline(never) @_optimize(size) private mutating func string() -> String? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        @inline(never) @_optimize(size) func flush() -> Bool {
            guard !run.isEmpty else { return true }
            // The stdlib's strict UTF-8 decoder (overlong forms, surrogates and truncated sequences are errors);
            // `String(validating:as:)` would do the same but needs iOS 18, above the package's floor.
            var decoder = UTF8()
            var bytes = run.makeIterator()
            while true {
                switch decoder.decode(&bytes) {
                case .scalarValue(let scalar): scalars.append(scalar)
                case .emptyInput:
                    run.removeAll(keepingCapacity: true)
                    return true
                case .error: return false
                }
            }
        }
        while let byte = peek {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return flush() ? String(scalars) : nil
            case UInt8(ascii: "\\"):
                guard flush(), let scalar = escape() else { return nil }
                scalars.append(scalar)
            case 0..<0x20:
                return nil
            default:
                run.append(byte)
            }
        }
        return nil
    }

    /// The character after a backslash (the backslash is already consumed).
    @inline(never) @_optimize(size) private mutating func escape() -> Unicode.Scalar? {
        guard let byte = peek else { return nil }
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
            guard let unit = hexUnit() else { return nil }
            switch unit {
            case 0xD800...0xDBFF:
                // A high surrogate must be followed by an escaped low surrogate.
                guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")), let low = hexUnit(),
                      (0xDC00...0xDFFF).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
            case 0xDC00...0xDFFF:
                return nil
            default:
                return Unicode.Scalar(unit)
            }
        default:
            return nil
        }
    }

    @inline(never) @_optimize(size) private mutating func hexUnit() -> UInt16? {
        guard bytes.count - index >= 4 else { return nil }
        var unit: UInt16 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            unit = unit << 4 | UInt16(digit)
        }
        index += 4
        return unit
    }

    // MARK: - Bytes

    @inline(never) @_optimize(size) private mutating func consume(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    @inline(never) @_optimize(size) private mutating func skipWhitespace() {
        while let byte = peek,
              byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
                || byte == UInt8(ascii: "\r") {
            index += 1
        }
    }
}
