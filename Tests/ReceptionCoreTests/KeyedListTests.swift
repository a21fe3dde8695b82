import Testing
import ReceptionCore
import ReceptionTesting

/// `KeyedList`, the SDK's table for a few entries: it answers as a `[String: Value]` dictionary does, for any
/// sequence of writes, and keeps its keys in the order they were first set.
@Suite("KeyedListTests")
struct KeyedListTests {
    /// Seeded from `RECEPTION_TEST_SEED` when it is set; a failure names the seed.
    @Test func answersAsADictionaryDoes() {
        var random = SeededRandomNumberGenerator.fromEnvironment()
        for round in 0..<300 {
            var list = KeyedList<Int>()
            var dictionary: [String: Int] = [:]
            var firstSet: [String] = []
            for step in 0..<Int(random.next() % 60) {
                let key = "k\(random.next() % 9)"
                switch random.next() % 5 {
                case 0:
                    #expect(list.removeValue(forKey: key) == dictionary.removeValue(forKey: key))
                    firstSet.removeAll { $0 == key }
                case 1:
                    list[key] = nil
                    dictionary[key] = nil
                    firstSet.removeAll { $0 == key }
                case 2:
                    list[key]? += 1
                    dictionary[key]? += 1
                default:
                    if dictionary[key] == nil { firstSet.append(key) }
                    list[key] = step
                    dictionary[key] = step
                }
                for probe in 0..<9 {
                    #expect(list["k\(probe)"] == dictionary["k\(probe)"], "\(random.reproduction), round \(round)")
                }
            }
            #expect(list.count == dictionary.count, "\(random.reproduction), round \(round)")
            #expect(list.isEmpty == dictionary.isEmpty)
            #expect(list.allKeys == firstSet, "\(random.reproduction), round \(round): keys in first-set order")
            #expect(list.allValues == firstSet.map { dictionary[$0] }, "\(random.reproduction), round \(round)")
        }
    }

    @Test func replacingAValueKeepsItsPlaceAndRemoveAllEmpties() {
        var list = KeyedList<String>()
        list["b"] = "1"
        list["a"] = "2"
        list["b"] = "3"
        #expect(list.allKeys == ["b", "a"])
        #expect(list.allValues == ["3", "2"])
        #expect(list.removeValue(forKey: "missing") == nil)
        list.removeAll()
        #expect(list.isEmpty)
        #expect(list["a"] == nil)
    }

    @Test func equalityIgnoresOrderAsADictionaryDoes() {
        var first = KeyedList<Int>()
        first["a"] = 1
        first["b"] = 2
        var second = KeyedList<Int>()
        second["b"] = 2
        second["a"] = 1
        #expect(first == second)
        second["a"] = 5
        #expect(first != second)
        second["a"] = nil
        #expect(first != second)
        second["c"] = 1
        #expect(first != second, "same count, another key")
        #expect(KeyedList<Int>() == KeyedList<Int>())
    }
}
