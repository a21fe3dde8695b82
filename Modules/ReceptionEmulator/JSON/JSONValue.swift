/// A JSON value as the emulator reads and writes it. The emulator parses bodies itself so that it can tell a
/// boolean from a number, an integer from a fraction and `null` from an absent key — distinctions the protocol's
/// validation rules depend on (spec 1.6, identity claims in seed 000).
package enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits 64 bits.
    case int(Int64)
    /// Any other (finite) number.
    case double(Double)
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

    /// The value as a whole number: an integer literal, or a fraction-free double within ±(2^53 − 1).
    package var integerValue: Int64? {
        switch self {
        case .int(let value): return value
        case .double(let value):
            guard value.isFinite, value.rounded() == value, abs(value) <= 9_007_199_254_740_991 else { return nil }
            return Int64(value)
        default: return nil
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
            if value.rounded() == value, abs(value) < 1e15 { out += String(Int64(value)) } else { out += "\(value)" }
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
