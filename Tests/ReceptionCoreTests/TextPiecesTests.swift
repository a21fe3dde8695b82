import Testing
@testable import ReceptionCore
import ReceptionTesting

/// `TextPieces.split`, the SDK's one string cutter: the pieces `split(separator:maxSplits:omittingEmptySubsequences:
/// false)` gives, for random texts full of separators and empty pieces, and the edges its callers rely on.
@Suite("TextPiecesTests")
struct TextPiecesTests {
    /// Seeded from `RECEPTION_TEST_SEED` when it is set; a failure names the seed.
    @Test func cutsLikeTheStandardLibrarysSplit() {
        var random = SeededRandomNumberGenerator.fromEnvironment()
        let alphabet: [Character] = [".", ".", "-", "a", "b", "é", "e\u{301}", "🇫🇷", "/"]
        for round in 0..<2_000 {
            let length = Int(random.next() % 24)
            let text = String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            let separator: Character = random.next() % 2 == 0 ? "." : "-"
            let maxSplits = random.next() % 3 == 0 ? Int(random.next() % 4) : Int.max
            let expected = text.split(separator: separator, maxSplits: maxSplits, omittingEmptySubsequences: false)
            let pieces = TextPieces.split(Substring(text), at: separator, maxSplits: maxSplits)
            #expect(pieces == expected, "\(random.reproduction), round \(round), \(text) at \(separator), \(maxSplits)")
            if pieces != expected { return }
        }
    }

    @Test func theEdges() {
        #expect(TextPieces.split("", at: ".") == [""])
        #expect(TextPieces.split(".", at: ".") == ["", ""])
        #expect(TextPieces.split("a.b.c", at: ".", maxSplits: 1) == ["a", "b.c"])
        #expect(TextPieces.split("a.b.c", at: ".", maxSplits: 0) == ["a.b.c"])
        #expect(TextPieces.split("header.payload.signature", at: ".") == ["header", "payload", "signature"])
        // A slice keeps its own indices: the pieces are of the slice, not of the whole string.
        let whole = "x-en-GB-y"
        let slice = whole.dropFirst(2).dropLast(2)
        #expect(TextPieces.split(slice, at: "-") == ["en", "GB"])
    }
}
