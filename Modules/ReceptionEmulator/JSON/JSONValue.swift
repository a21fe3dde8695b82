/// A JSON value as the emulator reads and writes it. The emulator parses bodies itself so that it can tell a
/// boolean from a number, an integer from a fraction and `null` from an absent key — distinctions the protocol's
/// validation rules depend on (spec 1.6, identity claims in seed 000).
package enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number whose exact value is a whole number that fits 64 bits, however it was written (`42`, `42.0`, `1e3`,
    /// `-0`).
    case int(Int64)
    /// Any other number within Double's range, as the nearest Double (`0.5`, `1e300`, `1e-400` as 0, 2^64).
    case double(Double)
    /// A valid number literal beyond Double's range (`1e309`, `-1E+99999999999`), kept as its text: no field
    /// accepts it (400 `invalid_request`), and it is written back as it came.
    case outOfRangeNumber(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; a repeated key keeps its last value.
    case object([String: JSONValue])

    /// The member `key` of an object, `nil` for a missing key or a non-object.
    package subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The string, if this is one.
    package var stringValue: String? { if case .string(let value) = self { return value }; return nil }
    /// The boolean, if this is one.
    package var boolValue: Bool? { if case .bool(let value) = self { return value }; return nil }
    /// The members, if this is an object.
    package var objectValue: [String: JSONValue]? { if case .object(let value) = self { return value }; return nil }
    /// The elements, if this is an array.
    package var arrayValue: [JSONValue]? { if case .array(let value) = self { return value }; return nil }
    /// Whether this is `null`.
    package var isNull: Bool { self == .null }

    /// The value as a whole number that fits 64 bits (the parser makes every such literal `.int`, so a `.double` is
    /// a fraction or too large). Callers still check their own range: this can be `Int64.min`.
    package var integerValue: Int64? { if case .int(let value) = self { return value }; return nil }

    /// The whole number if it lies in `range`; `nil` for any other value, type or magnitude.
    package func integer(in range: ClosedRange<Int64>) -> Int64? {
        guard let value = integerValue, range.contains(value) else { return nil }
        return value
    }

    /// ±(2^53 − 1): the whole numbers every JSON reader agrees on (spec 1.6).
    package static let safeIntegers: ClosedRange<Int64> = -9_007_199_254_740_991...9_007_199_254_740_991

    /// Whether a number beyond Double's range sits anywhere inside (recursion as deep as the parser allows, 64).
    /// What the emulator stores and hands back to clients must decode in every JSON reader, so it refuses these.
    package var containsOutOfRangeNumber: Bool {
        switch self {
        case .outOfRangeNumber: return true
        case .array(let elements): return elements.contains { $0.containsOutOfRangeNumber }
        case .object(let members): return members.values.contains { $0.containsOutOfRangeNumber }
        case .null, .bool, .int, .double, .string: return false
        }
    }

    /// A string value or, for convenience in responses, `null` for `nil`.
    package static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// A string literal.
    package init(stringLiteral value: String) { self = .string(value) }
    /// An integer literal.
    package init(integerLiteral value: Int64) { self = .int(value) }
    /// A boolean literal.
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array literal.
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object literal.
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    /// `null`.
    package init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// Compact JSON text with object keys in sorted order (stable output for ETags and tests).
    package func serialized() -> String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value):
            // A non-finite double cannot come from the parser; written as 0 rather than as invalid JSON.
            if !value.isFinite {
                out += "0"
            } else if value.rounded() == value, abs(value) < 1e15 {
                out += String(Int64(value))
            } else {
                out += "\(value)"
            }
        case .outOfRangeNumber(let text): out += text
        case .string(let value): JSONValue.writeString(value, to: &out)
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                element.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                JSONValue.writeString(key, to: &out)
                out += ":"
                members[key]?.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
