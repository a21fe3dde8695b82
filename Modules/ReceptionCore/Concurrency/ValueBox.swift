/// A value kept once behind an immutable reference: value semantics for a public value type whose copies travel far
/// (every `throws(ReceptionError)` call, every logger handed on) and that does not change after it is made.
///
/// A struct of many fields compiles every copy, move and destruction of itself field by field, in each function that
/// does one; a type that stores one `ValueBox` compiles them to one retain or release. Reading a field reads an
/// immutable reference (no exclusivity check, one field copied). A box never changes: its two users make a new one
/// for a new value (Docs/Footprint.md, "Size on iOS").
/// The boxed struct itself keeps its value witnesses (the runtime builds the generic box from them): a type whose
/// fields change one by one, such as `ChatAppearance`, keeps them in a copy-on-write class of its own instead.
package struct ValueBox<Value: Sendable>: Sendable {
    private let storage: Storage

    /// A box holding `value`.
    package init(_ value: Value) {
        storage = Storage(value)
    }

    /// The value.
    package var value: Value {
        storage.value
    }

    private final class Storage: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}
