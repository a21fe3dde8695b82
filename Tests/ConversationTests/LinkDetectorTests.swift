import Foundation
import ReceptionCore
import Testing

@testable import Conversation

/// Issue 50: web links, e-mail addresses and phone numbers in a message are tappable; everything else stays text,
/// and the text itself is never changed.
@Suite("LinkDetectorTests")
struct LinkDetectorTests {
    /// The linked texts and their URLs, in order.
    func links(_ text: String) -> [(String, String)] {
        LinkDetector.runs(in: text).compactMap { run in run.link.map { (run.text, $0.absoluteString) } }
    }

    func expectLinks(_ text: String, _ expected: [(String, String)], sourceLocation: SourceLocation = #_sourceLocation) {
        let found = links(text)
        #expect(found.map(\.0) == expected.map(\.0), "linked texts in \(text.debugDescription)", sourceLocation: sourceLocation)
        #expect(found.map(\.1) == expected.map(\.1), "URLs in \(text.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test("an agent's tracking link is tappable and the runs give back the text unchanged")
    func trackingLink() {
        let text = "Track your order: https://shop.example.com/track?id=42&lang=en. Thanks!"
        expectLinks(text, [("https://shop.example.com/track?id=42&lang=en", "https://shop.example.com/track?id=42&lang=en")])
        #expect(LinkDetector.runs(in: text).map(\.text).joined() == text)
    }

    @Test("punctuation at a link's edges stays outside it; brackets the link opened stay inside")
    func punctuationAtEdges() {
        expectLinks("(see https://example.com/a)", [("https://example.com/a", "https://example.com/a")])
        expectLinks(
            "Read https://en.wikipedia.org/wiki/Swift_(programming_language).",
            [("https://en.wikipedia.org/wiki/Swift_(programming_language)",
              "https://en.wikipedia.org/wiki/Swift_(programming_language)")])
        expectLinks("«https://example.org/x»", [("https://example.org/x", "https://example.org/x")])
        expectLinks("“www.example.com”…", [("www.example.com", "https://www.example.com")])
        expectLinks("Go to https://example.com/path/, then!", [("https://example.com/path/", "https://example.com/path/")])
        expectLinks("見てください：https://example.jp/ページ。次へ", [
            ("https://example.jp/ページ", "https://example.jp/%E3%83%9A%E3%83%BC%E3%82%B8"),
        ])
    }

    @Test("right-to-left text: a link between Arabic or Hebrew words, a bidirectional mark and an Arabic comma end it")
    func rightToLeft() {
        expectLinks("تتبع طلبك: https://example.com/track\u{200F}، شكرا", [
            ("https://example.com/track", "https://example.com/track"),
        ])
        expectLinks("כתבו ל-support@example.co.il או התקשרו", [
            ("support@example.co.il", "mailto:support@example.co.il"),
        ])
        let runs = LinkDetector.runs(in: "שלום https://example.com עולם")
        #expect(runs.map(\.text) == ["שלום ", "https://example.com", " עולם"])
    }

    @Test("e-mail addresses and phone numbers open as mailto and tel")
    func mailAndPhone() {
        expectLinks("Write to help.desk+ios@example.com.", [("help.desk+ios@example.com", "mailto:help.desk+ios@example.com")])
        expectLinks("Call +1 (555) 123-4567 today", [("+1 (555) 123-4567", "tel:+15551234567")])
        expectLinks("or 555-123-4567, or 030 1234567", [
            ("555-123-4567", "tel:5551234567"), ("030 1234567", "tel:0301234567"),
        ])
        expectLinks("+44 20 7946 0958", [("+44 20 7946 0958", "tel:+442079460958")])
    }

    @Test("what is not a link stays text: dates, versions, amounts, order numbers, other schemes, bare words")
    func notLinks() {
        for text in [
            "On 2026-12-05 at 10:30", "Version 10.0.19045 and 1.2.3", "It costs 1234567.89", "Order #12345678",
            "Pi is 3.14159265", "javascript:alert(1)", "ftp://example.com/file", "file:///etc/passwd",
            "data:text/html,hi", "a@b", "name@localhost", "www.", "https:// nothing", "192.168.100.200",
            "call 12345", "x@-bad-.com", "xhttps://example.com", "1 500 000 ₽", "ID 12 345 678", "2026 12 05",
        ] {
            #expect(links(text).isEmpty, "\(text.debugDescription) has no link, found \(links(text))")
            #expect(LinkDetector.runs(in: text).map(\.text).joined() == text)
        }
    }

    @Test("only http, https, mailto and tel are ever produced")
    func onlyOpenableSchemes() {
        let text = "HTTPS://Example.com/A and http://x.io, mail@x.io, +49 30 123456, www.test.org, tel:+1 555 123 4567"
        let schemes = Set(LinkDetector.matches(in: text).compactMap { $0.url.scheme })
        #expect(schemes.isSubset(of: LinkDetector.openableSchemes))
        #expect(links(text).first?.1 == "https://Example.com/A", "the scheme is lower-cased, the rest kept")
    }

    @Test("a 4,000-character message: every link found, the text intact, and a run of brackets and @ stays linear")
    func longMessage() {
        var text = ""
        var expected: [String] = []
        var index = 0
        while text.utf16.count < 3_900 {
            let link = "https://example.com/item/\(index)"
            text += "Item \(index) lives at \(link), ask mail\(index)@example.com. "
            expected += [link, "mail\(index)@example.com"]
            index += 1
        }
        let found = links(text).map(\.0)
        #expect(found == expected)
        #expect(LinkDetector.runs(in: text).map(\.text).joined() == text)
        // Hostile shapes of the full length: one long link closing thousands of brackets, and a wall of @.
        let brackets = "https://example.com/" + String(repeating: ")", count: 3_980)
        #expect(links(brackets).map(\.0) == ["https://example.com/"])
        let ats = String(repeating: "a@", count: 2_000)
        #expect(links(ats).isEmpty)
        // Refused prefixes one after another: each costs its host only, not a scan to the end of the text.
        for hostile in [String(repeating: "www./", count: 800), String(repeating: "https:///", count: 444)] {
            let steps = LinkDetector.scalarsExamined(in: hostile)
            #expect(links(hostile).isEmpty)
            #expect(steps < hostile.unicodeScalars.count * 8, "\(steps) scalars examined for \(hostile.unicodeScalars.count)")
        }
    }

    @Test("a message aligns by its own script: Hebrew right to left in an English chat, English left to right")
    func direction() {
        #expect(ChatPresentation.direction(of: "שלום, can you help?") == .rightToLeft)
        #expect(ChatPresentation.direction(of: "Hello مرحبا") == .leftToRight)
        #expect(ChatPresentation.direction(of: "123 مرحبا") == .rightToLeft, "digits carry no direction")
        #expect(ChatPresentation.direction(of: "👍 42") == nil)
    }
}
