@testable import ReceptionCore
import Testing

/// `ValueBox`: a value behind one immutable reference (`ReceptionError` and `ReceptionLogger` keep their fields in
/// one), and what its users build on it.
@Suite("ValueBoxTests")
struct ValueBoxTests {
    struct Fields: Equatable {
        var name: String
        var tags: [String]
    }

    @Test func aBoxAndItsCopiesReadTheValueItWasMadeWith() {
        var fields = Fields(name: "a", tags: ["x"])
        let box = ValueBox(fields)
        let copy = box
        fields.tags.append("y")
        #expect(box.value == Fields(name: "a", tags: ["x"]), "a later change of the source is not seen")
        #expect(copy.value == box.value)
    }

    @Test func errorsKeepEveryFieldAndCompareByCodeAndStatus() {
        let limited = ReceptionError(
            code: "rate_limited", status: 429, retryAfter: 30, retryScope: nil, transportCode: nil, resetRevision: 4)
        #expect(limited.retryAfter == 30 && limited.resetRevision == 4)
        let other = ReceptionError(
            code: "rate_limited", status: 429, retryAfter: 5, retryScope: nil, transportCode: nil, resetRevision: nil)
        #expect(limited == other && limited.hashValue == other.hashValue, "the details are ignored")
        #expect(limited != ReceptionError(
            code: "rate_limited", status: 503, retryAfter: 30, retryScope: nil, transportCode: nil, resetRevision: 4))
    }
}
