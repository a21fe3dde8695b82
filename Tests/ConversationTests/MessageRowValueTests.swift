import Foundation
import Testing
@testable import Conversation

/// `MessageRow` keeps its fields in one shared reference and copies it on write: a change must reach only the row
/// it was made to, and `==` must see every field (it is written by hand, field by field).
@Suite("MessageRowValueTests")
struct MessageRowValueTests {
    static func row() -> MessageRow {
        MessageRow(
            id: "m1", side: .own, text: "Hello", isTextSelectable: true, timestamp: nil, timestampText: nil,
            createdAt: Date(timeIntervalSince1970: 1_800_000_000), startsGroup: true, endsGroup: true, author: nil,
            reservesAvatarColumn: false, photos: [], uploadProgress: nil, card: nil, status: nil, isPending: false,
            tapRetries: false, fade: 0, announcement: "", accessibilityLabel: "You: Hello")
    }

    /// One change per field, each to a value unlike `row()`'s.
    static let changes: [(String, @Sendable (inout MessageRow) -> Void)] = [
        ("id", { $0.id = "m2" }),
        ("side", { $0.side = .team }),
        ("text", { $0.text = "Hi" }),
        ("textRuns", { $0.textRuns = [MessageRow.TextRun(text: "Hello", link: nil)] }),
        ("textDirection", { $0.textDirection = .rightToLeft }),
        ("isTextSelectable", { $0.isTextSelectable = false }),
        ("timestamp", { $0.timestamp = Date(timeIntervalSince1970: 1_800_000_060) }),
        ("timestampText", { $0.timestampText = "10:01" }),
        ("createdAt", { $0.createdAt = Date(timeIntervalSince1970: 1_800_000_001) }),
        ("startsGroup", { $0.startsGroup = false }),
        ("endsGroup", { $0.endsGroup = false }),
        ("author", { $0.author = MessageRow.Author(name: "Anna", photo: nil, photoKey: nil, initial: "A",
                                                   showsAvatar: true) }),
        ("reservesAvatarColumn", { $0.reservesAvatarColumn = true }),
        ("photos", { $0.photos = [MessageRow.Photo(id: "photo-0", source: .pending(Data([1])), aspectRatio: 1,
                                                   accessibilityLabel: "Photo")] }),
        ("uploadProgress", { $0.uploadProgress = 0.5 }),
        ("card", { $0.card = MessageRow.Card(buttonTitle: "View offer", action: .review, isEnabled: true) }),
        ("status", { $0.status = MessageRow.Status(text: "Sent", detail: nil, action: nil, actionTitle: nil,
                                                   isActionEnabled: false, isFailure: false,
                                                   accessibilityLabel: "Sent") }),
        ("isPending", { $0.isPending = true }),
        ("tapRetries", { $0.tapRetries = true }),
        ("fade", { $0.fade = 0.12 }),
        ("announcement", { $0.announcement = "You: Hello" }),
        ("accessibilityLabel", { $0.accessibilityLabel = "You: Hi" }),
        ("controls", { $0.controls = [MessageRow.Control(kind: .card, id: "card", label: "View offer",
                                                         inputLabels: ["View offer"], isEnabled: true)] }),
    ]

    @Test func everyFieldTakesPartInEquality() {
        #expect(Self.changes.count == 23)
        for (name, change) in Self.changes {
            var changed = Self.row()
            change(&changed)
            #expect(changed != Self.row(), "a different \(name) compared equal")
            var again = Self.row()
            change(&again)
            #expect(changed == again && changed.hashValue == again.hashValue, "the same \(name) compared unequal")
        }
    }

    @Test func aChangeReachesOnlyTheRowItWasMadeTo() {
        for (name, change) in Self.changes {
            let original = Self.row()
            var copy = original
            change(&copy)
            #expect(original == Self.row(), "changing \(name) of a copy changed the original")
            #expect(copy != original, "the copy lost its \(name)")
        }
    }
}
