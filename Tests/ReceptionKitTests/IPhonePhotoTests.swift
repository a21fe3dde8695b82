import Foundation
import ReceptionCore
import ReceptionKit
import ReceptionTesting
import Testing

/// Issue 17: the photo an iPhone takes (HEIC, turned by its `irot` box) goes through the chat's photo path on the
/// emulator: prepared by the default pipeline, uploaded, and sent upright.
@Suite("IPhonePhotoTests")
@MainActor
struct IPhonePhotoTests {
    /// A 120 × 80 HEIC stored turned (EXIF orientation 6, which pillow-heif writes as `irot`), made by pillow-heif.
    static func heic() throws -> Data {
        let script = #"""
            import io, sys
            import pillow_heif
            from PIL import Image
            pillow_heif.register_heif_opener()
            image = Image.new("RGB", (120, 80), (200, 60, 40))
            image.paste((40, 60, 200), (0, 0, 60, 80))
            exif = Image.Exif()
            exif[0x0112] = 6
            out = io.BytesIO()
            image.save(out, format="HEIF", exif=exif.tobytes(), quality=90)
            sys.stdout.buffer.write(out.getvalue())
            """#
        let result = try ChildProcess.run(["python3", "-c", script])
        try #require(result.status == 0, "pillow-heif (make install) could not make the photo: \(result.errorOutput)")
        return result.output
    }

    @Test func anIPhonePhotoIsPreparedUprightAndSent() async throws {
        let photo = try Self.heic()
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("a photo follows")
        let chat = try #require(app.reception.chat)
        await chat.engine.setDraft("from my iPhone")
        await chat.engine.addPhoto(photo)
        await chat.refresh()
        #expect(chat.composer.photos.count == 1, "the HEIC was refused: \(chat.composer.notices)")
        #expect(await chat.engine.send() != nil)
        let sent = await until {
            await chat.refresh()
            return chat.messages.contains { $0.text == "from my iPhone" && $0.status == .sent }
        }
        try #require(sent, "the photo message was not confirmed")
        let message = try #require(chat.messages.first { $0.text == "from my iPhone" })
        let attachment = try #require(message.attachments.first)
        #expect(attachment.contentType == "image/jpeg")
        #expect((attachment.width, attachment.height) == (80, 120), "stored 120 × 80, shown turned")
    }
}
