import Foundation
import Testing
@testable import Conversation

/// `ChatAppearance` keeps its choices in one shared reference and copies it on write: a change must reach only the
/// appearance it was made to, and `==` must see every choice (it is written by hand, field by field).
@Suite("ChatAppearanceTests")
struct ChatAppearanceTests {
    static let red = ThemedColor(AppearanceColor(red: 0xFF, green: 0, blue: 0))

    /// One change per stored choice, each to a value unlike the default.
    static let changes: [(String, @Sendable (inout ChatAppearance) -> Void)] = [
        ("colors", { $0.colors.accent = red }),
        ("texts", { $0.texts.title = "Help" }),
        ("colorScheme", { $0.colorScheme = .dark }),
        ("showsCloseButton", { $0.showsCloseButton = false }),
        ("closeIcon", { $0.closeIcon = .chevronDown }),
        ("closeImage", { $0.closeImage = .asset(name: "close") }),
        ("hiddenElements", { $0.hiddenElements = [.title] }),
        ("fontDesign", { $0.fontDesign = .serif }),
        ("customFontName", { $0.customFontName = "Avenir" }),
        ("fadesOlderMessages", { $0.fadesOlderMessages = true }),
        ("welcomeIcon", { $0.welcomeIcon.size = 80 }),
        ("reviewCard", { $0.reviewCard.iconSize = 12 }),
        ("offerCard", { $0.offerCard.icon = "tag" }),
        ("showsTeamPhotos", { $0.showsTeamPhotos = true }),
        ("showsTeamNames", { $0.showsTeamNames = true }),
    ]

    @Test func everyChoiceTakesPartInEquality() {
        for (name, change) in Self.changes {
            var changed = ChatAppearance()
            change(&changed)
            #expect(changed != ChatAppearance(), "a different \(name) compared equal")
            var again = ChatAppearance()
            change(&again)
            #expect(changed == again, "the same \(name) compared unequal")
        }
    }

    @Test func aChangeReachesOnlyTheAppearanceItWasMadeTo() {
        for (name, change) in Self.changes {
            let original = ChatAppearance(customFontName: "Georgia")
            var copy = original
            change(&copy)
            #expect(original == ChatAppearance(customFontName: "Georgia"), "changing \(name) of a copy changed the original")
            #expect(copy != original, "the copy lost its \(name)")
        }
        var first = ChatAppearance()
        first.fontDesign = .rounded
        let shared = first
        first.fontDesign = .monospaced
        #expect(shared.fontDesign == .rounded && first.fontDesign == .monospaced)
    }
}
