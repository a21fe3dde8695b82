import Foundation
import ReceptionKit
import Testing

/// Seed 001 "Local persistence" and its Verify step 6: text drafts are stored and restored; photos selected in the
/// composer but not sent stay in memory, are written to no file, and need selecting again after a relaunch. Real
/// SQLite files and the real image preparer, over the emulator.
@Suite("SeedPromisesTests+Relaunch", .serialized)
@MainActor
struct SeedPromisesRelaunchTests {
    /// Every file of the install's data folder, read whole.
    static func everyFile(under folder: URL) -> [(path: String, bytes: Data)] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var files: [(String, Data)] = []
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                  let bytes = try? Data(contentsOf: url) else { continue }
            files.append((url.path, bytes))
        }
        return files
    }

    /// Files holding `needle`.
    static func files(under folder: URL, holding needle: Data) -> [String] {
        everyFile(under: folder).filter { $0.bytes.range(of: needle) != nil }.map(\.path)
    }

    @Test("a picked photo is in no file and gone after a relaunch; the draft text is restored")
    func pickedPhotosAreNotPersisted() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("hi")
        let chat = try #require(app.reception.chat)
        await chat.engine.setDraft("unsent draft")
        await chat.engine.addPhoto(try SeedPromisesAttachmentsTests.pickedPhoto(width: 96, height: 80))
        await chat.refresh()
        let picked = try #require(chat.composer.photos.first, "the photo was refused: \(chat.composer.notices)")
        // 64 bytes from inside the prepared JPEG's entropy-coded data: the install writes no other image here.
        let middle = picked.jpeg.count / 2
        try #require(picked.jpeg.count > 300)
        let needle = picked.jpeg.subdata(in: (middle - 32)..<(middle + 32))
        // The draft written is the signal that the composer's state has reached the store.
        #expect(await until { app.storeBytes().range(of: Data("unsent draft".utf8)) != nil }, "the draft was not stored")
        #expect(Self.files(under: app.directory, holding: needle).isEmpty, "a picked photo was written to a file")

        await app.launch()
        let relaunched = try #require(app.reception.chat)
        let restored = await until { await relaunched.refresh(); return relaunched.composer.text == "unsent draft" }
        #expect(restored, "the draft text was not restored")
        #expect(relaunched.composer.photos.isEmpty, "a photo that was never sent came back")
        #expect(relaunched.composer.loadingPhotoCount == 0)
        #expect(Self.files(under: app.directory, holding: needle).isEmpty)
        // Once sent, the photo is the pending message's, and then the service's.
        await relaunched.engine.addPhoto(try SeedPromisesAttachmentsTests.pickedPhoto(width: 96, height: 80))
        await relaunched.refresh()
        #expect(relaunched.composer.photos.count == 1, "the photo can be selected again")
        // Sent, it is kept (the pending message, then the photo cache): the scan above would have seen it.
        #expect(await relaunched.engine.send() != nil)
        #expect(await until { !Self.files(under: app.directory, holding: needle).isEmpty },
                "the scan cannot see a written photo, so its silence proved nothing")
    }
}
