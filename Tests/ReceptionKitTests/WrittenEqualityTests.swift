@testable import Conversation
import Foundation
@testable import ReceptionCore
import Testing

/// The `==` written by hand for size (Docs/Footprint.md, "Equality written where it carries `Data`") compares every
/// field and every case's values. A struct's changes must number its stored fields (read by `Mirror`), so a field
/// added later without a change here fails; an enum's variants must differ from each other in one case or one value
/// each, and every one must equal a copy of itself.
@Suite("WrittenEqualityTests")
struct WrittenEqualityTests {
    /// Problems with a struct's `==`: `changes` must change one field each, all of them.
    static func structProblems<T: Equatable>(_ value: T, _ changes: [(String, (inout T) -> Void)]) -> [String] {
        var problems: [String] = []
        let fields = Mirror(reflecting: value).children.count
        if fields != changes.count { problems.append("\(T.self) has \(fields) fields, \(changes.count) changes") }
        let copy = value
        if copy != value { problems.append("\(T.self) differs from its copy") }
        for (field, change) in changes {
            var changed = value
            change(&changed)
            if changed == value { problems.append("\(T.self).\(field) is not compared") }
        }
        return problems
    }

    /// Problems with an enum's `==`: every variant equals itself and no other.
    static func enumProblems<T: Equatable>(_ variants: [T]) -> [String] {
        var problems: [String] = []
        for (i, left) in variants.enumerated() {
            for (j, right) in variants.enumerated() where (left == right) != (i == j) {
                problems.append("\(T.self): variant \(i) \(i == j ? "differs from" : "equals") variant \(j)")
            }
        }
        return problems
    }

    static let bytes = Data([1, 2, 3])
    static let otherBytes = Data([1, 2, 4])

    @Test func structsCompareEveryField() {
        let photo = PreparedPhoto(jpeg: Self.bytes, width: 3, height: 4, checksum: "c")
        #expect(Self.structProblems(photo, [
            ("jpeg", { $0.jpeg = Self.otherBytes }), ("width", { $0.width = 5 }), ("height", { $0.height = 5 }),
            ("checksum", { $0.checksum = "d" }),
        ]) == [])
        let response = HTTPResponse(status: 200, headers: ["a": "b"], body: Self.bytes)
        #expect(Self.structProblems(response, [
            ("status", { $0.status = 201 }), ("headers", { $0.headers = ["a": "c"] }),
            ("body", { $0.body = Self.otherBytes }),
        ]) == [])
        let picked = ComposerPresentation.PickedPhoto(id: 1, jpeg: Self.bytes, aspectRatio: 1.5, removeLabel: "x")
        #expect(Self.structProblems(picked, [
            ("id", { $0.id = 2 }), ("jpeg", { $0.jpeg = Self.otherBytes }), ("aspectRatio", { $0.aspectRatio = 2 }),
            ("removeLabel", { $0.removeLabel = "y" }),
        ]) == [])
        let uploaded = Transcript.UploadedPhoto(attachmentID: "a", jpeg: Self.bytes)
        #expect(Self.structProblems(uploaded, [
            ("attachmentID", { $0.attachmentID = "b" }), ("jpeg", { $0.jpeg = Self.otherBytes }),
        ]) == [])
    }

    @Test func enumsCompareEveryCaseAndValue() {
        #expect(Self.enumProblems([
            SecureStoreRead.value(Self.bytes), .value(Self.otherBytes), .missing, .unavailable(reason: "a"),
            .unavailable(reason: "b"),
        ]) == [])
        #expect(Self.enumProblems([
            HTTPStreamEvent.head(status: 200, headers: ["a": "b"]), .head(status: 201, headers: ["a": "b"]),
            .head(status: 200, headers: ["a": "c"]), .bytes(Self.bytes), .bytes(Self.otherBytes),
        ]) == [])
        #expect(Self.enumProblems([
            AppearanceFetch.unchanged(etag: nil), .unchanged(etag: "e"),
            .updated(appearance: Self.bytes, revision: 1, etag: "e"),
            .updated(appearance: Self.otherBytes, revision: 1, etag: "e"),
            .updated(appearance: Self.bytes, revision: 2, etag: "e"),
            .updated(appearance: Self.bytes, revision: 1, etag: nil),
        ]) == [])
        let attachment = Attachment(id: "a", url: "https://example.com/a", contentType: "image/jpeg")
        var other = attachment
        other.width = 10
        #expect(Self.enumProblems([
            MessageRow.Photo.Source.confirmed(attachment), .confirmed(other), .pending(Self.bytes),
            .pending(Self.otherBytes),
        ]) == [])
    }

    /// The check fails where it should: a change that leaves the value as it was, or a missing one.
    @Test func theCheckCanFail() {
        let photo = PreparedPhoto(jpeg: Self.bytes, width: 3, height: 4, checksum: "c")
        #expect(Self.structProblems(photo, [
            ("jpeg", { $0.jpeg = Self.bytes }), ("width", { $0.width = 5 }), ("height", { $0.height = 5 }),
        ]).count == 2)
        #expect(Self.enumProblems([SecureStoreRead.missing, .missing]).count == 2)
    }
}
