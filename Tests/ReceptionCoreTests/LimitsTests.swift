import ReceptionCore
import Testing

@Suite("LimitsTests")
struct LimitsTests {
    @Test func messageLimitCountsUTF16Units() {
        #expect(Limits.messageText.admits(String(repeating: "a", count: 4000)))
        #expect(!Limits.messageText.admits(String(repeating: "a", count: 4001)))
        // An emoji outside the BMP counts 2 (seed 001: "Some emoji … count as more than one").
        #expect(Limits.messageText.admits(String(repeating: "😀", count: 2000)))
        #expect(!Limits.messageText.admits(String(repeating: "😀", count: 2000) + "a"))
        #expect("😀".utf16Length == 2 && "é".utf16Length == 1)
    }

    @Test func trimmingRemovesWhitespaceAndNewlinesAtTheEndsOnly() {
        #expect(Limits.trimmedMessageText("  \n hello\n world \t\n") == "hello\n world")
        #expect(Limits.trimmedMessageText(" \n\t ").isEmpty)
    }

    // Spec 7.14.1: over-limit identity values are dropped, not truncated.
    @Test func identityFieldLimits() {
        #expect(Limits.externalUserId.admitted(String(repeating: "u", count: 255)) != nil)
        #expect(Limits.externalUserId.admitted(String(repeating: "u", count: 256)) == nil)
        #expect(Limits.name.admitted(String(repeating: "n", count: 200)) != nil)
        #expect(Limits.name.admitted(String(repeating: "n", count: 201)) == nil)
        #expect(Limits.email.admitted(String(repeating: "e", count: 254)) != nil)
        #expect(Limits.email.admitted(String(repeating: "e", count: 255)) == nil)
        #expect(Limits.email.admitted(String?.none) == nil)
        // 128 emoji are 256 units: too long for a verified user ID (spec 9, IdentityTokenTests).
        #expect(!Limits.verifiedUserId.admits(String(repeating: "😀", count: 128)))
        #expect(Limits.verifiedUserId.admits(String(repeating: "😀", count: 127)))
        #expect(!Limits.verifiedUserId.admits(""))
    }

    // Spec 7.14.2.
    @Test func metadataKeepsOnlyEntriesWithinLimits() {
        let input = [
            "plan": "pro",
            "": "empty key",
            String(repeating: "k", count: 64): "longest key",
            String(repeating: "k", count: 65): "too long key",
            "long": String(repeating: "v", count: 512),
            "longer": String(repeating: "v", count: 513),
            "emoji": String(repeating: "😀", count: 257),
        ]
        let (kept, dropped) = Limits.sanitizedMetadata(input)
        #expect(Set(kept.keys) == ["plan", String(repeating: "k", count: 64), "long"])
        #expect(dropped == 4)
    }

    @Test func moreThanTwentyEntriesSendsNoMetadataAtAll() {
        let twenty = Dictionary(uniqueKeysWithValues: (0..<20).map { ("k\($0)", "v") })
        #expect(Limits.sanitizedMetadata(twenty).kept.count == 20)
        var twentyOne = twenty
        twentyOne["k20"] = "v"
        let (kept, dropped) = Limits.sanitizedMetadata(twentyOne)
        #expect(kept.isEmpty && dropped == 21)
    }
}
