/// An enum of cases without associated values, with raw values, compared and hashed by its case.
///
/// The standard library gives every `RawRepresentable` type `==` and hashing through its raw value, and a raw-value
/// enum takes those over the ones Swift would derive from its cases: two cases are compared by building and comparing
/// their raw values (strings, for all but `LogLevel`), and each such enum compiles its own copies of that generic
/// code (300 to 1,400 bytes on iOS, Docs/Footprint.md, "Size on iOS"). An enum that conforms here compares the one number Swift stores for a case
/// without fields: its index in the declaration. Raw values are distinct, so two cases are equal exactly when their
/// raw values are, as before; hash values are per process anyway.
///
/// Only for enums whose cases carry no values (which is every enum with raw values): a struct that is
/// `RawRepresentable` must not conform. `CaseIdentityTests` checks every conforming type.
package protocol CaseIdentity: RawRepresentable, Hashable {}

extension CaseIdentity {
    /// The case's index in the enum's declaration: what Swift stores for a case without fields, in the fewest bytes
    /// that hold every index (none for a single case).
    @inline(never) @_optimize(size) package var caseIndex: Int {
        withUnsafeBytes(of: self) { bytes in
            var index = 0
            for byte in bytes.reversed() { index = index << 8 | Int(byte) }
            return index
        }
    }

    /// Whether `a` and `b` are the same case.
    @_optimize(size) public static func == (a: Self, b: Self) -> Bool { a.caseIndex == b.caseIndex }

    /// Hashes the case.
    @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(caseIndex) }
}
