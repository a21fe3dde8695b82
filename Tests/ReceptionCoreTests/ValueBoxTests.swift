@testable import ReceptionCore
import Testing

/// `ValueBox`: value semantics behind one immutable reference (`ReceptionError` and `ReceptionLogger` keep their
/// fields in one).
@Suite("ValueBoxTests")
struct ValueBoxTests {
    struct Fields: Hashable {
        var name: String
        var tags: [String]
    }

    @Test func aChangedCopyLeavesTheOriginalAsItWas() {
        let original = ValueBox(Fields(name: "a", tags: ["x"]))
        var copy = original
        #expect(copy.sharesStorage(with: original))
        copy.update { $0.tags.append("y") }
        #expect(!copy.sharesStorage(with: original))
        #expect(original.value == Fields(name: "a", tags: ["x"]))
        #expect(copy.value == Fields(name: "a", tags: ["x", "y"]))
    }

    @Test func equalityComparesValuesWhenTheReferencesDiffer() {
        let one = ValueBox(Fields(name: "a", tags: []))
        var other = ValueBox(Fields(name: "b", tags: []))
        #expect(one != other)
        other.update { $0.name = "a" }
        #expect(one == other)
        #expect(!one.sharesStorage(with: other))
        #expect(Set([one, other]).count == 1)
    }
}
