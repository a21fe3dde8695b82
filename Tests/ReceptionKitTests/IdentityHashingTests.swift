import Foundation
import Testing
import Unread
@testable import ReceptionKit

/// The SDK's `Hashable` values hash the field that identifies them (a struct) or their case (an enum with values),
/// while `==` still compares every field (Docs/Footprint.md, "Hashing by identity"). Checked on values of each
/// kind: one made twice is equal and hashes alike; one that differs only outside what is hashed hashes alike too, yet
/// is unequal, so a set keeps both. A scan of the sources keeps `==` synthesized wherever `hash(into:)` is written
/// (in the type or in any extension of it), so no hashed field can be one `==` ignores.
struct IdentityHashingTests {
    /// The problems with `first`, `again` (made the same way) and `other` (differing outside the hashed part).
    static func problems<T: Hashable>(_ first: T, again: T, other: T) -> [String] {
        var found: [String] = []
        if first != again || hash(first) != hash(again) { found.append("\(T.self): equal values differ or hash apart") }
        if first == other { found.append("\(T.self): == ignores a field that is not hashed") }
        if hash(first) != hash(other) { found.append("\(T.self): hashes more than its identity") }
        if Set([first, again, other]).count != 2 { found.append("\(T.self): a set does not keep exactly two values") }
        if Dictionary([(first, 1), (other, 2)], uniquingKeysWith: +)[again] != 1 {
            found.append("\(T.self): a dictionary finds the wrong value")
        }
        return found
    }

    static func hash<T: Hashable>(_ value: T) -> Int {
        var hasher = Hasher()
        value.hash(into: &hasher)
        return hasher.finalize()
    }

    static let time = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("a wire message: hashed by ID, compared by every field")
    func message() {
        func make(_ text: String) -> Message {
            Message(id: "m1", seq: 4, sender: .user, text: text, createdAt: Self.time)
        }
        #expect(Self.problems(make("Hello"), again: make("Hello"), other: make("Hello, again")) == [])
    }

    @Test("a stored message: hashed by ID, compared by every field, photos included")
    func storedMessage() {
        func make(_ images: [Data]) -> StoredMessage {
            StoredMessage(id: "c1", sender: .user, text: "Photos", createdAt: Self.time, images: images)
        }
        #expect(Self.problems(make([Data([1, 2])]), again: make([Data([1, 2])]), other: make([Data([1, 3])])) == [])
    }

    @Test("an attachment, a request and a stored cooldown: hashed by one field, compared by all")
    func smallStructs() {
        let attachment = { (width: Int) in
            Attachment(id: "a1", url: "https://x.test/a1", contentType: "image/jpeg", width: width)
        }
        #expect(Self.problems(attachment(640), again: attachment(640), other: attachment(480)) == [])
        let url = URL(string: "https://api.x.test/v1/conversation")!
        let request = { (body: String) in
            HTTPRequest(method: "POST", url: url, body: Data(body.utf8), timeout: .seconds(30))
        }
        #expect(Self.problems(request("{}"), again: request("{}"), other: request("{\"a\":1}")) == [])
        let cooldown = { (automatic: Bool) in StoredCooldown(scope: .requests, until: Self.time, automatic: automatic) }
        #expect(Self.problems(cooldown(true), again: cooldown(true), other: cooldown(false)) == [])
        let offset = { (y: Double) in ChatAppearance.Offset(x: 2, y: y) }
        #expect(Self.problems(offset(1), again: offset(1), other: offset(-1)) == [])
    }

    @Test("enums with values: hashed by case, compared by case and values")
    func enumsWithValues() {
        #expect(Self.problems(RetryOption.automaticResend(secondsLeft: 5), again: .automaticResend(secondsLeft: 5),
                              other: .automaticResend(secondsLeft: 4)) == [])
        #expect(Self.problems(AppearanceImage.asset(name: "Logo"), again: .asset(name: "Logo"),
                              other: .asset(name: "Badge")) == [])
        #expect(Self.problems(SecureStoreRead.value(Data([7])), again: .value(Data([7])),
                              other: .value(Data([8]))) == [])
        #expect(Self.problems(UnreadSchedule.Decision.poll(after: .seconds(30)), again: .poll(after: .seconds(30)),
                              other: .poll(after: .seconds(60))) == [])
        #expect(Self.problems(IdentityState.verified(userId: "u1"), again: .verified(userId: "u1"),
                              other: .verified(userId: "u2")) == [])
    }

    @Test("cases of an enum with values stay apart in a set")
    func casesStayApart() {
        let cases: [RetryOption] = [.none, .available, .automaticResend(secondsLeft: 3), .disabledFor(secondsLeft: 3),
                                    .notAllowed]
        #expect(Set(cases).count == cases.count)
        #expect(Set(cases.map(Self.hash)).count == cases.count)
    }

    /// The types that write both `hash(into:)` and `==`, each pair written together and consistent by construction
    /// (`MessageRowValueTests`, `ChatAppearanceTests` and `CaseIdentityTests` check three of them field by field,
    /// `WrittenEqualityTests` the eighteen whose `==` is written for size, each field changed in turn).
    static let writeBoth: Set<String> = [
        "CaseIdentity", "ReceptionError", "FailedResponse", "ChatAppearance", "MessageRow",
        "TranscriptFollowing.Position", "HTTPStreamEvent", "AppearanceFetch", "ComposerPresentation.PickedPhoto",
        "MessageRow.Photo.Source", "PreparedPhoto", "SecureStoreRead", "HTTPResponse", "ChatAppearance.Card",
        "ChatAppearance.WelcomeIcon", "MessagesPage", "UnreadResponse", "UnreadSnapshot", "TranscriptPresentation",
        "ChatSnapshot", "TeamProfile", "SynchronisedPreferences", "HistoryResponse", "SessionState",
    ]

    /// The dotted name of the type or extension that encloses line `index` of `lines`.
    static func enclosingType(of index: Int, in lines: [String], declaration: NSRegularExpression) -> String {
        var names: [String] = []
        var indent = lines[index].prefix { $0 == " " }.count
        for line in lines[..<index].reversed() {
            let own = line.prefix { $0 == " " }.count
            let range = NSRange(line.startIndex..., in: line)
            guard own < indent, let match = declaration.firstMatch(in: line, range: range),
                  let name = Range(match.range(at: 1), in: line)
            else { continue }
            names.insert(String(line[name]), at: 0)
            indent = own
            if own == 0 { break }
        }
        return names.joined(separator: ".")
    }

    @Test("a type that hashes a part of itself leaves == to the compiler, unless both are written together")
    func writtenHashesLeaveEqualityToTheCompiler() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Modules")
        let attributes = #"(?:@\w+(?:\([^)]*\))?\s+)*(?:[a-z]+(?:\([a-z]+\))?\s+)*"#
        let declaration = try NSRegularExpression(
            pattern: #"^\s*"# + attributes + #"(?:struct|enum|class|actor|extension)\s+([\w.]+)"#)
        let equality = try NSRegularExpression(pattern: #"static\s+func\s+==\s*[(<]"#)
        var hashers: [String] = [], inlinable: [String] = [], equators: Set<String> = []
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() {
                if line.contains("func hash(into hasher: inout Hasher)") {
                    let type = Self.enclosingType(of: index, in: lines, declaration: declaration)
                    hashers.append(type)
                    // Never inlined, so `hashValue` and the witnesses call it rather than each carrying a copy.
                    let attributes = line + (index > 0 ? lines[index - 1] : "")
                    if !attributes.contains("@inline(never)") && type != "CaseIdentity" { inlinable.append(type) }
                }
                if equality.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
                    equators.insert(Self.enclosingType(of: index, in: lines, declaration: declaration))
                }
            }
        }
        #expect(hashers.count >= 98, "the scan found \(hashers.count) written hashes")
        #expect(inlinable == [], "a written hash(into:) without @inline(never)")
        // By the last part of the name as well, so an `==` in an extension spelt with the outer type is matched.
        let hashed = Set(hashers + hashers.map { String($0.split(separator: ".").last ?? "") })
        let both = equators.filter {
            hashed.contains($0) || hashed.contains(String($0.split(separator: ".").last ?? ""))
        }
        #expect(Set(both) == Self.writeBoth, "write == and hash(into:) together only where a test checks both")
    }
}
