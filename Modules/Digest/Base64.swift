/// Base64 in the two alphabets of RFC 4648: standard (§4, with padding) and URL-safe (§5, used by JWTs).
public enum Base64 {
    /// Which alphabet and padding rule to use.
    public enum Alphabet: Sendable {
        /// `+` and `/`, padded with `=` (upload checksums, spec 3.14).
        case standard
        /// `-` and `_`, unpadded on output; padding optional on input (JWT segments).
        case url
    }

    private static let standardTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes bytes as text in `alphabet`.
    public static func encode(_ bytes: some Sequence<UInt8>, alphabet: Alphabet = .standard) -> String {
        let input = Array(bytes)
        let table = alphabet == .standard ? standardTable : urlTable
        var out = [UInt8]()
        out.reserveCapacity((input.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= input.count {
            let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
            out.append(table[Int(n >> 18 & 63)]); out.append(table[Int(n >> 12 & 63)])
            out.append(table[Int(n >> 6 & 63)]); out.append(table[Int(n & 63)])
            i += 3
        }
        let rest = input.count - i
        if rest > 0 {
            var n = UInt32(input[i]) << 16
            if rest == 2 { n |= UInt32(input[i + 1]) << 8 }
            out.append(table[Int(n >> 18 & 63)]); out.append(table[Int(n >> 12 & 63)])
            if rest == 2 { out.append(table[Int(n >> 6 & 63)]) }
            if alphabet == .standard { for _ in rest..<3 { out.append(UInt8(ascii: "=")) } }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes text in `alphabet`; `nil` for any character outside it, misplaced or wrong padding, or a length no
    /// encoder produces. The standard alphabet requires padding; the URL alphabet accepts it or its absence.
    public static func decode(_ text: some StringProtocol, alphabet: Alphabet = .standard) -> [UInt8]? {
        var chars = Array(text.utf8)
        var padding = 0
        while let last = chars.last, last == UInt8(ascii: "=") { chars.removeLast(); padding += 1 }
        if alphabet == .standard, (chars.count + padding) % 4 != 0 { return nil }
        if padding > 2 || (padding > 0 && (chars.count + padding) % 4 != 0) { return nil }
        if chars.count % 4 == 1 { return nil }
        var out = [UInt8]()
        out.reserveCapacity(chars.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for c in chars {
            guard let value = sextet(c, alphabet) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // Leftover bits must be zero, otherwise two different texts would decode to the same bytes.
        if bits > 0, accumulator & ((1 << UInt32(bits)) - 1) != 0 { return nil }
        return out
    }

    private static func sextet(_ c: UInt8, _ alphabet: Alphabet) -> UInt8? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return c - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return c - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+") where alphabet == .standard: return 62
        case UInt8(ascii: "/") where alphabet == .standard: return 63
        case UInt8(ascii: "-") where alphabet == .url: return 62
        case UInt8(ascii: "_") where alphabet == .url: return 63
        default: return nil
        }
    }
}

/// Lower-case hexadecimal, two characters per byte (push tokens, file names derived from digests).
public enum Hex {
    /// `bytes` as lower-case hex.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `%` and `byte` as two upper-case hex digits, as percent-encoding writes a byte (RFC 3986, 2.1).
    public static func percentEncode(_ byte: UInt8, to text: inout String) {
        text.unicodeScalars.append("%")
        text.unicodeScalars.append(upperCaseDigit(byte >> 4))
        text.unicodeScalars.append(upperCaseDigit(byte & 15))
    }

    private static func upperCaseDigit(_ nibble: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10)
    }

    /// The bytes of `text`, two hex digits (either case) a byte; `nil` for an odd length or any other character.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        var index = 0
        while index < characters.count {
            guard let high = value(characters[index]), let low = value(characters[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func value(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
