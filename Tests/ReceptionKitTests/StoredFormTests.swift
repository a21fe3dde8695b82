import Foundation
import Identity
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
