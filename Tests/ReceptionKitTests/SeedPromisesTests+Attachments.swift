import Foundation
import ReceptionKit
import ReceptionTesting
import Testing

/// Photos a host loads through the chat model (spec 3.15, 3.18; seed 001 "Viewing photos", "Local persistence"):
/// an attachment link that expired is resolved again with `GET attachments/<id>` before the photo is handed out,
/// once per expiry, and a photo that was never loaded shows after a relaunch online. The emulator runs on a manual
/// clock, so links expire when the test moves it, never by waiting. The installs keep no photo cache: what is tested
/// is what a download does, and a cached photo makes none (issue 39, `PhotoCacheTests`).
@Suite("SeedPromisesTests+Attachments", .serialized)
@MainActor
struct SeedPromisesAttachmentsTests {
    /// How long the emulator's attachment links live, in its (manual) seconds.
    static let lifetime = 60.0

    /// A photo file the host's picker could hand over: a JPEG made by Pillow, independent of our encoder.
    static func pickedPhoto(width: Int = 64, height: Int = 48) throws -> Data {
        let script = #"""
            import io, sys
            from PIL import Image
            w, h = int(sys.argv[1]), int(sys.argv[2])
            image = Image.new("RGB", (w, h), (30, 140, 90))
            image.paste((220, 200, 40), (0, 0, w // 2, h // 2))
            out = io.BytesIO()
            image.save(out, format="JPEG", quality=90)
            sys.stdout.buffer.write(out.getvalue())
            """#
        let result = try ChildProcess.run(["python3", "-c", script, String(width), String(height)])
        try #require(result.status == 0, "Pillow could not make the photo: \(result.errorOutput)")
        return result.output
    }

    /// Whether `djpeg` (libjpeg-turbo) decodes `jpeg` to a picture of `width` × `height`.
    static func decodes(_ jpeg: Data, width: Int?, height: Int?) throws -> Bool {
        let result = try ChildProcess.run(["djpeg", "-pnm"], input: jpeg)
        guard result.status == 0, let width, let height else { return false }
        // A binary PPM starts "P6\n<width> <height>\n255\n".
        let header = String(decoding: result.output.prefix(32), as: UTF8.self).split(whereSeparator: \.isWhitespace)
        return header.count >= 3 && header[0] == "P6" && header[1] == "\(width)" && header[2] == "\(height)"
    }

    /// An install over `service` that downloads a photo each time it is shown.
    static func uncachedApp(_ service: Service) -> App {
        let app = App(service)
        app.photoCache = { _, _, _ in NoPhotoCache() }
        return app
    }

    /// The `GET attachments/<id>` requests the install made from `start` on.
    static func resolutions(_ app: App, of id: String, from start: Int = 0) -> Int {
        app.transport.log.dropFirst(start).filter { $0.request.method == "GET" && $0.path == "/v1/attachments/\(id)" }.count
    }

    /// The photo downloads the install made from `start` on that the service refused as expired.
    static func expiredDownloads(_ app: App, from start: Int = 0) -> Int {
        app.transport.log.dropFirst(start).filter { $0.path.hasPrefix("/files/") && $0.status == 403 }.count
    }

    /// Sends a photo message and returns its confirmed attachment.
    static func sendPhoto(_ app: App, text: String) async throws -> ReceptionKit.Attachment {
        let chat = try #require(app.reception.chat)
        try await app.send("before the photo")
        await chat.engine.setDraft(text)
        await chat.engine.addPhoto(try pickedPhoto())
        await chat.refresh()
        try #require(chat.composer.photos.count == 1, "the photo was refused: \(chat.composer.notices)")
        let id = try #require(await chat.engine.send())
        let sent = await until {
            await chat.refresh()
            return chat.messages.first { $0.id == id }.map { $0.status == .sent && !$0.attachments.isEmpty } == true
        }
        try #require(sent, "the photo message was not confirmed")
        return try #require(chat.messages.first { $0.id == id }?.attachments.first)
    }

    /// The attachment `id` as the chat shows it now.
    static func shown(_ chat: ChatModel, _ id: String) async -> ReceptionKit.Attachment? {
        await chat.refresh()
        return chat.messages.flatMap(\.attachments).first { $0.id == id }
    }

    @Test func anExpiredLinkIsResolvedOnceBeforeThePhotoIsHandedOut() async throws {
        let clock = ManualClock(now: Date())
        let service = try Service(clock: clock, attachmentURLLifetime: Self.lifetime)
        let app = Self.uncachedApp(service)
        await app.launch()
        let attachment = try await Self.sendPhoto(app, text: "a photo")
        let chat = try #require(app.reception.chat)
        let photo = try await chat.photo(attachment)
        #expect(try Self.decodes(photo, width: attachment.width, height: attachment.height))
        #expect(Self.resolutions(app, of: attachment.id) == 0, "a live link is downloaded as it is")

        // The link expires; three loads at once (a bubble, its neighbour's prefetch, the viewer) share one
        // resolution.
        await clock.advance(by: .seconds(Self.lifetime * 2))
        async let first = chat.photo(attachment)
        async let second = chat.photo(attachment)
        async let third = chat.photo(attachment)
        let loaded = try await [first, second, third]
        #expect(loaded == [photo, photo, photo])
        #expect(Self.resolutions(app, of: attachment.id) == 1, "one expiry, one GET attachments/<id>")

        // The fresh link replaced the expired one in the transcript: the next load downloads it without resolving.
        let fresh = try #require(await Self.shown(chat, attachment.id))
        #expect(fresh.url != attachment.url)
        #expect((fresh.width, fresh.height) == (attachment.width, attachment.height))
        #expect(try await chat.photo(attachment) == photo)
        #expect(Self.resolutions(app, of: attachment.id) == 1)

        // The fresh link's own expiry costs one refused download and one more resolution.
        let mark = app.transport.log.count
        await clock.advance(by: .seconds(Self.lifetime * 2))
        #expect(try await chat.photo(attachment) == photo)
        #expect(Self.expiredDownloads(app, from: mark) == 1)
        #expect(Self.resolutions(app, of: attachment.id, from: mark) == 1)
    }

    @Test func aPhotoNeverLoadedShowsAgainAfterARelaunchOnline() async throws {
        let clock = ManualClock(now: Date())
        let service = try Service(clock: clock, attachmentURLLifetime: Self.lifetime)
        let app = Self.uncachedApp(service)
        await app.launch()
        let attachment = try await Self.sendPhoto(app, text: "shown after the relaunch")
        // The photo is never loaded; the app is away for longer than the link lives.
        await clock.advance(by: .seconds(Self.lifetime * 10))
        await app.launch()
        let mark = app.transport.log.count
        let restored = await until {
            guard let chat = app.reception.chat else { return false }
            return await Self.shown(chat, attachment.id) != nil
        }
        try #require(restored, "the cached message did not come back")
        let chat = try #require(app.reception.chat)
        let cached = try #require(await Self.shown(chat, attachment.id))
        #expect(cached.url == attachment.url, "the cache holds the expired link")
        let photo = try await chat.photo(cached)
        #expect(try Self.decodes(photo, width: attachment.width, height: attachment.height))
        #expect(Self.resolutions(app, of: attachment.id, from: mark) == 1)

        // The resolved link was saved: the launch after loads the photo without resolving again.
        await app.launch()
        let again = app.transport.log.count
        let back = await until {
            guard let chat = app.reception.chat else { return false }
            return await Self.shown(chat, attachment.id)?.url != attachment.url
        }
        try #require(back, "the resolved link was not kept in the cache")
        let relaunched = try #require(app.reception.chat)
        #expect(try await relaunched.photo(attachment) == photo)
        #expect(Self.resolutions(app, of: attachment.id, from: again) == 0)
    }

    @Test func aPhotoTheTranscriptDoesNotCarryIsRefused() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("no photos here")
        let chat = try #require(app.reception.chat)
        let stranger = ReceptionKit.Attachment(id: "att_not_in_this_chat", url: "\(service.root)/files/x", contentType: "image/jpeg")
        await #expect(throws: ReceptionError(code: "invalid_input")) { try await chat.photo(stranger) }
        #expect(!app.transport.log.contains { $0.path.hasPrefix("/files/") || $0.path.hasPrefix("/v1/attachments/") })
    }
}
