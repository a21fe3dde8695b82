/// Whether `a` and `b` hold equal elements in the same order: what `==` answers for arrays. Modules outside
/// ReceptionCore call it unspecialised, so its code is in the app once, where `==` on an array of a new element type
/// is compiled again for that type, 0.5 to 1.2 kB on iOS (Docs/Footprint.md). For the written `==` of wide values,
/// whose arrays hold a few elements.
@inline(never) @_optimize(size)
package func sameElements<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Bool {
    guard a.count == b.count else { return false }
    for index in a.indices where a[index] != b[index] { return false }
    return true
}
