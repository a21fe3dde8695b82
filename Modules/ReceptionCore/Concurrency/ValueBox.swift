/// A value kept once behind an immutable reference: value semantics for a public value type whose copies travel far
/// (every `throws(ReceptionError)` call, every logger handed on) and that does not change after it is made.
///
/// A struct of many fields compiles every copy, move and destruction of itself field by field, in each function that
/// does one; a type that stores one `ValueBox` compiles them to one retain or release. Reading a field reads an
/// immutable reference (no exclusivity check, one field copied); a change builds a new reference with the changed
/// value, out of line, so the field-by-field copy is compiled once per type (Docs/Footprint.md, "Size on iOS").
/// The boxed struct itself keeps its value witnesses (the runtime builds the generic box from them): a type whose
/// fields change one by one, such as `ChatAppearance`, keeps them in a copy-on-write class of its own instead.
package struct ValueBox<Value: Sendable>: Sendable {
    private var storage: Storage

    /// A box holding `value`.
    package init(_ value: Value) {
        storage = Storage(value)
    }

    /// The value.
    package var value: Value {
        storage.value
    }

    /// Changes the value: the box then holds a new reference; other boxes that shared the old one keep theirs.
    @inline(never)
    package mutating func update(_ change: (inout Value) -> Void) {
        var value = storage.value
        change(&value)
        storage = Storage(value)
    }

    /// Whether both boxes hold the same reference (and so equal values), which answers `==` without comparing fields.
    func sharesStorage(with other: ValueBox) -> Bool {
        storage === other.storage
    }

    private final class Storage: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}

extension ValueBox: Equatable where Value: Equatable {
    package static func == (lhs: ValueBox, rhs: ValueBox) -> Bool {
        lhs.sharesStorage(with: rhs) || equalValues(lhs, rhs)
    }

    /// Out of line: the field-by-field comparison is compiled once, not into every `==`.
    @inline(never)
    private static func equalValues(_ lhs: ValueBox, _ rhs: ValueBox) -> Bool {
        lhs.value == rhs.value
    }
}

extension ValueBox: Hashable where Value: Hashable {
    package func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}
