import Foundation
@testable import MessageCache
@testable import ReceptionCore
import ReceptionTesting
import Testing

/// Input at and past the limits is stored intact or refused with a stable error; nothing stored is lost.
@Suite struct BadInputTests {
    private func openStore(_ directory: TemporaryDirectory) throws -> SQLiteMessageStore {
        try SQLiteMessageStore(directory: directory.url, scope: testScope, logger: .silent)
    }

    @Test(arguments: [
        String(repeating: "😀", count: 2_000),  // exactly 4,000 UTF-16 units of surrogate pairs
        String(repeating: "a", count: 4_000),
        "nul \u{0} in the middle\u{0}",
        "",
    ])
    func textAtTheLimitsReadsBackIntact(_ text: String) throws {
        let directory = TemporaryDirectory()
        var message = MessageStoreContract.unsent("m")
        message.text = text
        try openStore(directory).enqueue(message)
        let read = try openStore(directory).unsentMessages()
        #expect(read.first?.text == text)
        #expect(read.first?.text.utf16.count == text.utf16.count)
    }

    @Test func textBuiltFromLoneSurrogatesIsStoredAsSwiftRepairedIt() throws {
        // A Swift string cannot hold a lone surrogate (and JSONDecoder refuses one on the wire): text bridged from
        // UTF-16 with one has it replaced by U+FFFD. The store keeps exactly the string it was given.
        let units: [UInt16] = [0x61, 0xD800, 0x62, 0x0000, 0xDC00]
        let repaired = String(decoding: units, as: UTF16.self)
        #expect(repaired.unicodeScalars.contains("\u{FFFD}"))
        let directory = TemporaryDirectory()
        var message = MessageStoreContract.unsent("m")
        message.text = repaired
        try openStore(directory).enqueue(message)
        #expect(try openStore(directory).unsentMessages().first?.text == repaired)
    }

    @Test func fivePhotosOfOneMebibyteReadBackByteForByte() throws {
        let directory = TemporaryDirectory()
        var message = MessageStoreContract.unsent("photos")
        message.images = (0..<5).map { MessageStoreContract.photo($0, size: 1 << 20) }
        message.expectedImageCount = 5
        try openStore(directory).enqueue(message)
        let read = try openStore(directory).unsentMessages()
        #expect(read.first?.images == message.images)
    }

    @Test func aFullDiskIsStorageFullAndKeepsWhatWasStored() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory)
        try store.enqueue(MessageStoreContract.unsent("kept", photos: 2))
        try store.save([MessageStoreContract.confirmed(1)])
        try store.limitGrowthToCurrentSize()

        var big = MessageStoreContract.unsent("too big")
        big.images = (0..<5).map { MessageStoreContract.photo($0, size: 1 << 20) }
        let error = #expect(throws: ReceptionError.self) { try store.enqueue(big) }
        #expect(error?.code == ReceptionError.Code.storageFull)
        // Saving many confirmed messages forces trimming too; a failure there must not trim what exists.
        let batch = (Int64(2)...200).map { seq in
            var message = MessageStoreContract.confirmed(seq)
            message.text = String(repeating: "x", count: 4_000)
            return message
        }
        #expect(throws: ReceptionError.self) { try store.save(batch) }

        let reopened = try openStore(directory)
        #expect(try reopened.unsentMessages() == [MessageStoreContract.unsent("kept", photos: 2)])
        #expect(try reopened.loadWindow().compactMap(\.seq) == [1])
    }
}
