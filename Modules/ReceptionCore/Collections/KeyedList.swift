/// A few values by string key, in the order their keys were first set: what the SDK keeps where a table has a
/// handful of entries at a time (the photo downloads in flight, a team's photo requests, a session's open tasks).
///
/// A `Dictionary` of a new value type compiles its own hashing, resizing, copying and removal into the app, 2.5 to
/// 4 kB on iOS for each; this list is compiled once, in this module, for every value type, because other modules call
/// it unspecialised (Docs/Footprint.md, "Size on iOS"). A lookup compares keys one by one, so keep it for tables of
/// tens of entries: a table that grows with the transcript or the cache stays a `Dictionary`.
package struct KeyedList<Value> {
    private var keys: [String] = []
    private var values: [Value] = []

    /// An empty list.
    @_optimize(size) package init() {}

    /// How many keys have a value.
    @_optimize(size) package var count: Int { keys.count }

    /// Whether no key has a value.
    @_optimize(size) package var isEmpty: Bool { keys.isEmpty }

    /// The value of `key`, or `nil`. Setting a value keeps the key's place; setting `nil` removes it.
    @inline(never) @_optimize(size) package subscript(key: String) -> Value? {
        get { keys.firstIndex(of: key).map { values[$0] } }
        set {
            if let index = keys.firstIndex(of: key) {
                if let newValue {
                    values[index] = newValue
                } else {
                    keys.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// Removes the value of `key` and returns it (`nil` when there was none).
    @inline(never) @_optimize(size) @discardableResult package mutating func removeValue(forKey key: String) -> Value? {
        guard let index = keys.firstIndex(of: key) else { return nil }
        keys.remove(at: index)
        return values.remove(at: index)
    }

    /// Removes every key.
    @inline(never) @_optimize(size) package mutating func removeAll() {
        keys.removeAll()
        values.removeAll()
    }

    /// The keys, in the order they were first set.
    @_optimize(size) package var allKeys: [String] { keys }

    /// The values, in their keys' order.
    @_optimize(size) package var allValues: [Value] { values }
}

extension KeyedList: Sendable where Value: Sendable {}

/// Two lists are equal when they hold the same keys with equal values, in whatever order, as two dictionaries are.
extension KeyedList: Equatable where Value: Equatable {
    @inline(never) @_optimize(size) package static func == (lhs: KeyedList, rhs: KeyedList) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (index, key) in lhs.keys.enumerated() where rhs[key] != lhs.values[index] { return false }
        return true
    }
}
