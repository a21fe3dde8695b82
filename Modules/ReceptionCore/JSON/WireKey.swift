/// A JSON key by its name. Every hand-written `Codable` conformance in the SDK reads and writes its keys through
/// this one type rather than an enum of its own: each `CodingKeys` enum costs its own metadata, witness tables and
/// string switches in the app (Docs/Footprint.md), and the keys are plain names on the wire anyway.
package struct WireKey: CodingKey, ExpressibleByStringLiteral {
    package let stringValue: String

    @_optimize(size) package init(stringLiteral name: String) { stringValue = name }
    @_optimize(size) package init?(stringValue: String) { self.stringValue = stringValue }
    @_optimize(size) package init?(intValue: Int) { nil }
    @_optimize(size) package var intValue: Int? { nil }
}
