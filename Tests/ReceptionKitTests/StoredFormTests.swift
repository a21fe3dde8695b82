import Foundation
import Identity
import ReceptionTesting
@testable import ReceptionCore
@testable import ReceptionKit
import Testing

/// What the facade and identity keep on disk and in the secure store is written through `WireKey` by hand
/// (Docs/Footprint.md): a value kept by an earlier version must still read, and write back the same bytes. Each
/// golden document has every key its type knows, in the encoder's form (sorted keys, no spaces).
@Suite("StoredFormTests")
struct StoredFormTests {
    func roundTrip<T: Codable & Equatable>(_ type: T.Type, _ golden: String) throws {
        let value = try ReceptionJSON.makeDecoder().decode(type, from: Data(golden.utf8))
        let written = String(decoding: try ReceptionJSON.encode(value), as: UTF8.self)
        #expect(written == golden, "\(T.self) wrote \(written)")
        #expect(try ReceptionJSON.makeDecoder().decode(type, from: Data(written.utf8)) == value)
    }

    /// The rotation journal is a JSON object of entries by App ID, as the earlier version's `[String: Entry]` wrote
    /// it: such a journal reads, and a change writes back an object with the entries left.
    @Test func aRotationJournalKeptAsAnObjectByAppIDReadsAndWritesBack() throws {
        let secure = InMemorySecureStore()
        let kept = #"{"app_1":{"retired":["g1"],"successor":"g2"},"app_2":{"retired":["h1","h2"],"successor":"h3"}}"#
        try secure.write(Data(kept.utf8), for: .pendingScopeRotations)
        let journal = RotationJournal(store: secure, logger: .silent)
        #expect(journal.entry(appID: "app_1") == RotationJournal.Entry(retired: ["g1"], successor: "g2"))
        #expect(journal.entry(appID: "app_2") == RotationJournal.Entry(retired: ["h1", "h2"], successor: "h3"))
        journal.clear(appID: "app_1")
        journal.record(appID: "app_2", retired: "h3", successor: "h4")
        guard case .value(let data) = secure.read(.pendingScopeRotations) else {
            Issue.record("the journal was removed with an entry left")
            return
        }
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        #expect(Array(object.keys) == ["app_2"])
        #expect(object["app_2"]?["retired"] as? [String] == ["h1", "h2", "h3"])
        #expect(object["app_2"]?["successor"] as? String == "h4")
        journal.clear(appID: "app_2")
        #expect(secure.read(.pendingScopeRotations) == .missing, "an empty journal is removed")
    }

    @Test func keptFormsReadAndWriteTheSameKeys() throws {
        try roundTrip(PendingRevocation.self, #"{"appId":"app_1","sessionSecret":"s"}"#)
        try roundTrip(RotationJournal.Entry.self, #"{"retired":["g1","g2"],"successor":"g3"}"#)
        try roundTrip(RemoteAppearance.self, ##"{"appearance":{"colors":{"accent":"#FF0000"}},"revision":4}"##)
        try roundTrip(PendingIdentity.self, """
            {"email":"a@b.c","externalUserId":"u1","metadata":{"plan":"pro"},"name":"Ana",\
            "pushEnvironment":"SANDBOX","pushToken":"ab"}
            """)
        try roundTrip(PendingIdentity.self, #"{"metadata":{}}"#)
    }

    @Test func anAppearanceThatIsNotAnObjectIsRefused() {
        #expect(throws: DecodingError.self) {
            try ReceptionJSON.makeDecoder().decode(RemoteAppearance.self,
                                                   from: Data(#"{"appearance":[1],"revision":4}"#.utf8))
        }
    }
}
