import Foundation
import Testing
@testable import ReceptionCore
import ReceptionTesting

/// `stableSort` and `stableOrder`, the SDK's one sort: the same order as sorting by `(key, position)`, for lists with
/// many equal keys, and the edges.
@Suite("StableSortTests")
struct StableSortTests {
    /// Seeded from `RECEPTION_TEST_SEED` when it is set; a failure names the seed.
    @Test func ordersLikeSortingByKeyThenPosition() {
        var random = SeededRandomNumberGenerator.fromEnvironment()
        for round in 0..<1_000 {
            let count = Int(random.next() % 300)
            let spread = 1 + random.next() % 12  // few distinct keys: many ties
            let keys = (0..<count).map { _ in Int(random.next() % spread) }
            let expected = keys.indices.map { ($0, keys[$0]) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0)
            let order = stableOrder(count: count) { keys[$0] < keys[$1] }
            #expect(order == expected, "\(random.reproduction), round \(round), keys \(keys)")
            if order != expected { return }
        }
    }

    @Test func sortsValuesInPlaceAndKeepsEqualOnesInTheirOrder() {
        var values = [5, 3, 9, 1, 3, 7, 0, 9, 2]
        stableSort(&values, by: <)
        #expect(values == [0, 1, 2, 3, 3, 5, 7, 9, 9])
        var descending = Array((0..<1_000).reversed())
        stableSort(&descending, by: <)
        #expect(descending == Array(0..<1_000))
        // Ordered by the last digit only: equal digits keep their first order.
        var byDigit = [21, 11, 30, 1, 20, 31, 10]
        stableSort(&byDigit) { $0 % 10 < $1 % 10 }
        #expect(byDigit == [30, 20, 10, 21, 11, 1, 31])
    }

    @Test func theEdges() {
        var empty: [Int] = []
        stableSort(&empty, by: <)
        #expect(empty == [])
        var one = [4]
        stableSort(&one, by: <)
        #expect(one == [4])
        #expect(stableOrder(count: 0, by: { _, _ in false }) == [])
        #expect(stableOrder(count: -3, by: { _, _ in false }) == [])
        #expect(stableOrder(count: 4, by: { _, _ in false }) == [0, 1, 2, 3])
    }
}
