import Foundation
import ImagePipeline
import ReceptionCore
import ReceptionKit
import ReceptionTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Seed 001 check 3 with the real pipeline: "Send a photo-only message and a text message with five photos. Confirm
/// thumbnails, upload progress when observable … Verify that an over-limit text draft disables sending." And seed 001
/// "Photos": selections can be removed before sending; loading a selection temporarily disables sending. The photos
/// are prepared by the SDK's default `PhotoPreparer` (our JPEG encoder), uploaded to the emulator, downloaded again
/// and judged by libjpeg-turbo's `djpeg`.
@Suite("PhotoSendingTests", .serialized)
@MainActor
struct PhotoSendingTests {
    /// A picked photo: a JPEG file our encoder wrote, of one colour with a faint gradient, so `djpeg`'s mean colour
    /// of the uploaded copy tells which photo it is.
    struct Source {
        let width: Int
        let height: Int
        let colour: (UInt8, UInt8, UInt8)

        func file() throws -> Data {
            var pixels: [UInt8] = []
            pixels.reserveCapacity(width * height * 3)
            for y in 0..<height {
                for x in 0..<width {
                    let shade = UInt8((x + y) % 8)
                    pixels += [colour.0 &+ shade, colour.1 &+ shade, colour.2 &+ shade]
                }
            }
            let buffer = PixelBuffer(width: width, height: height, format: .rgb8, bytes: pixels)
            return Data(try JPEGEncoder().encodeJPEG(buffer, quality: 92))
        }
    }

    /// Five photos of different shapes; the fifth is wider than spec 7.9's 2,048 px edge, so preparation scales it
    /// (2100 × 30 → 2048 × 29, each side rounded to the nearest pixel).
    static let five = [
        Source(width: 96, height: 64, colour: (200, 40, 40)),
        Source(width: 64, height: 96, colour: (40, 180, 40)),
        Source(width: 120, height: 120, colour: (40, 40, 200)),
        Source(width: 48, height: 32, colour: (200, 200, 40)),
        Source(width: 2100, height: 30, colour: (40, 200, 200)),
    ]

    /// The pixel sizes the pipeline should report for `five`.
    static let preparedSizes = [[96, 64], [64, 96], [120, 120], [48, 32], [2048, 29]]

    /// `djpeg`'s decode of `jpeg`: its size and mean colour.
    static func judge(_ jpeg: Data) throws -> (width: Int, height: Int, mean: [Double]) {
        let result = try ChildProcess.run(["djpeg", "-pnm"], input: jpeg)
        try #require(result.status == 0, "djpeg refused the upload: \(result.errorOutput)")
        // P6 header: "P6", width, height, maxval, separated by whitespace, then one whitespace byte and the pixels.
        var fields: [String] = []
        var index = result.output.startIndex
        var current = ""
        while fields.count < 4, index < result.output.endIndex {
            let byte = result.output[index]
            index += 1
            if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D {
                if !current.isEmpty { fields.append(current); current = "" }
            } else {
                current.append(Character(UnicodeScalar(byte)))
            }
        }
        try #require(fields.first == "P6", "djpeg wrote \(fields)")
        let width = try #require(Int(fields[1])), height = try #require(Int(fields[2]))
        let pixels = result.output[index...]
        try #require(pixels.count == width * height * 3)
        var sums = [0.0, 0.0, 0.0]
        for (offset, byte) in pixels.enumerated() { sums[offset % 3] += Double(byte) }
        return (width, height, sums.map { $0 / Double(width * height) })
    }

    /// The photos of `device`'s message with `clientText`, downloaded from the signed links the service gave.
    static func uploadedPhotos(_ service: Service, device: String, text: String) async throws -> [(json: [String: Any], jpeg: Data)] {
        let messages = try await service.admin("GET", "devices/\(device)/messages")["messages"] as? [[String: Any]] ?? []
        let message = try #require(messages.first { $0["text"] as? String == text }, "no message \"\(text)\" on the service")
        let attachments = message["attachments"] as? [[String: Any]] ?? []
        var photos: [(json: [String: Any], jpeg: Data)] = []
        for attachment in attachments {
            let link = try #require((attachment["url"] as? String).flatMap(URL.init(string:)))
            let (data, response) = try await URLSession(configuration: .ephemeral).data(from: link)
            try #require((response as? HTTPURLResponse)?.statusCode == 200)
            photos.append((attachment, data))
        }
        return photos
    }

    /// Records every upload progress the engine publishes for each message, in order.
    final class ProgressLog: Sendable {
        private let values = Locked<[String: [Double]]>([:])
        func observe(_ snapshot: ChatSnapshot) {
            values.withLock { values in
                for message in snapshot.messages {
                    guard let progress = message.uploadProgress else { continue }
                    if values[message.id]?.last != progress { values[message.id, default: []].append(progress) }
                }
            }
        }
        func of(_ id: String) -> [Double] { values.withLock { $0[id] ?? [] } }
    }

    /// Adds every source and waits until each was prepared (no load running, none refused).
    func pick(_ sources: [Source], into chat: ChatModel) async throws {
        for source in sources { await chat.addPhoto(try source.file()) }
        await chat.refresh()
        try #require(!chat.composer.isLoadingPhotos)
        try #require(chat.composer.photos.count == sources.count, "refused: \(chat.composer.notices)")
    }

    /// Sends what the composer holds and waits until the service confirmed it; returns its ID.
    func sendAndConfirm(_ chat: ChatModel) async throws -> String {
        let id = try #require(await chat.engine.send(), "the composer could not send: \(chat.composer)")
        let sent = await until { await chat.refresh(); return chat.messages.first { $0.id == id }?.status == .sent }
        try #require(sent, "the photo message was not confirmed: \(chat.messages.first { $0.id == id }.map { "\($0.status)" } ?? "gone")")
        return id
    }

    func expectProgressClimbsToOne(_ values: [Double], photos: Int) {
        #expect(values == values.sorted(), "progress went backwards: \(values)")
        #expect(values.allSatisfy { (0...1).contains($0) }, "\(values)")
        // Spec 7.9: (completed photos + fraction of the current one) / photo count, so each finished photo shows.
        for done in 1...photos {
            let step = Double(done) / Double(photos)
            #expect(values.contains { abs($0 - step) < 1e-9 }, "no progress of \(done)/\(photos) in \(values)")
        }
    }

    /// Launches the app and sends a first text, so the chat is activated; the chat model and the device's ID.
    static func activatedChat(_ app: App, _ service: Service) async throws -> (ChatModel, String) {
        await app.launch()
        try await app.send("photos follow")
        let chat = try #require(app.reception.chat)
        let device = try #require(try await service.devices().first?["id"] as? String)
        return (chat, device)
    }

    @Test func aPhotoOnlyMessageThenATextWithFivePhotosAreSentWithProgress() async throws {
        let service = try Service()
        let app = App(service)
        let (chat, device) = try await Self.activatedChat(app, service)
        let progress = ProgressLog()
        await chat.engine.addObserver { progress.observe($0) }

        // A photo-only message: no text at all.
        try await pick([Self.five[2]], into: chat)
        #expect(chat.composer.canSend, "a photo alone is a message")
        let photoOnly = try await sendAndConfirm(chat)
        expectProgressClimbsToOne(progress.of(photoOnly), photos: 1)
        let shown = try #require(chat.messages.first { $0.id == photoOnly })
        #expect(shown.text.isEmpty && shown.attachments.count == 1, "the bubble has its confirmed photo")
        let single = try await Self.uploadedPhotos(service, device: device, text: "")
        try #require(single.count == 1)
        let judged = try Self.judge(single[0].jpeg)
        #expect(judged.width == 120 && judged.height == 120)
        #expect(zip(judged.mean, [43.5, 43.5, 203.5]).allSatisfy { abs($0 - $1) < 12 },
                "the photo-only upload is not the blue source: \(judged.mean)")

        // A text with five photos.
        chat.setDraft("five photos")
        try await pick(Self.five, into: chat)
        #expect(!chat.composer.canAddPhotos, "a sixth photo cannot be added")
        let five = try await sendAndConfirm(chat)
        expectProgressClimbsToOne(progress.of(five), photos: 5)
        let bubble = try #require(chat.messages.first { $0.id == five })
        #expect(bubble.text == "five photos")
        let thumbnails: [[Int]] = bubble.attachments.map { [$0.width ?? 0, $0.height ?? 0] }
        #expect(thumbnails == Self.preparedSizes, "the thumbnails' sizes")
        let uploaded = try await Self.uploadedPhotos(service, device: device, text: "five photos")
        try #require(uploaded.count == 5, "the service has \(uploaded.count) photos")
        for (index, photo) in uploaded.enumerated() {
            let judged = try Self.judge(photo.jpeg)
            let size: [Int] = [judged.width, judged.height]
            #expect(size == Self.preparedSizes[index], "photo \(index + 1) decodes at its size")
            let stored: [Int] = [photo.json["width"] as? Int ?? 0, photo.json["height"] as? Int ?? 0]
            #expect(stored == Self.preparedSizes[index], "the service stored photo \(index + 1)'s size")
            let colour = Self.five[index].colour
            let expected = [Double(colour.0), Double(colour.1), Double(colour.2)].map { $0 + 3.5 }
            let off = zip(judged.mean, expected).map { abs($0 - $1) }.max() ?? 0
            #expect(off < 12, "photo \(index + 1) is not its source, in order: mean \(judged.mean), expected \(expected)")
            #expect(photo.jpeg.count <= 1_048_576)
        }
    }

    @Test func aSelectedPhotoRemovedBeforeSendingIsNotSent() async throws {
        let service = try Service()
        let app = App(service)
        let (chat, device) = try await Self.activatedChat(app, service)
        chat.setDraft("two of three")
        try await pick(Array(Self.five[0..<3]), into: chat)
        let green = chat.composer.pickedPhotos[1].id
        // A double tap on its ✕: two removals of the same photo remove it once.
        await chat.removePhoto(id: green)
        await chat.removePhoto(id: green)
        await chat.refresh()
        let kept: [[Int]] = chat.composer.photos.map { [$0.width, $0.height] }
        #expect(kept == [[96, 64], [120, 120]], "the green one is gone")
        _ = try await sendAndConfirm(chat)
        let uploaded = try await Self.uploadedPhotos(service, device: device, text: "two of three")
        try #require(uploaded.count == 2)
        let means = try uploaded.map { try Self.judge($0.jpeg).mean }
        #expect(means[0][0] > 150 && means[0][1] < 90, "the first upload is the red photo: \(means[0])")
        #expect(means[1][2] > 150 && means[1][0] < 90, "the second upload is the blue photo: \(means[1])")
        #expect(chat.composer.photos.isEmpty, "sending empties the selection")
    }
}

/// The default preparer behind a gate: a test opens it once it has looked at the loading composer.
final class GatedPreparer: ImagePreparing {
    private let inner = PhotoPreparer()
    private let waiting = Locked(0)
    private let gate = DispatchSemaphore(value: 0)

    /// How many preparations are waiting at the gate.
    var waitingCount: Int { waiting.withLock { $0 } }

    /// Lets one waiting preparation through.
    func open() { gate.signal() }

    func prepare(_ file: Data) throws(ReceptionError) -> PreparedPhoto {
        waiting.withLock { $0 += 1 }
        // Bounded, so a failing test cannot hold a thread for ever, but far beyond what a starved suite needs: at
        // 30 s a loaded `make test` once let the preparation through before the test had looked at the composer.
        _ = gate.wait(timeout: .now() + 600)
        waiting.withLock { $0 -= 1 }
        return try inner.prepare(file)
    }
}

extension PhotoSendingTests {
    @Test func sendingStaysDisabledWhileASelectionLoads() async throws {
        let service = try Service()
        let app = App(service)
        let preparer = GatedPreparer()
        var configuration = app.configuration
        configuration.images = preparer
        app.reception.configure(appId: service.appID, configuration: configuration)
        await app.reception.waitUntilReady()
        try await app.send("photos follow")
        let chat = try #require(app.reception.chat)
        let device = try #require(try await service.devices().first?["id"] as? String)
        chat.setDraft("text that could be sent alone")
        #expect(await until { await chat.refresh(); return chat.composer.canSend }, "the text alone can be sent")
        let file = try Self.five[0].file()
        let loading = Task { await chat.addPhoto(file) }
        #expect(await until { preparer.waitingCount == 1 }, "the preparation never started")
        await chat.refresh()
        #expect(chat.composer.isLoadingPhotos)
        #expect(!chat.composer.canSend, "Send is enabled while a selection loads")
        #expect(await chat.engine.send() == nil, "a send went out while a selection loaded")
        preparer.open()
        await loading.value
        await chat.refresh()
        #expect(!chat.composer.isLoadingPhotos && chat.composer.canSend && chat.composer.photos.count == 1)
        _ = try await sendAndConfirm(chat)
        // The refused tap sent nothing: the service has the first text and this one message, with its photo.
        #expect(try await service.messages(device: device) == ["photos follow", "text that could be sent alone"])
        #expect(try await Self.uploadedPhotos(service, device: device, text: "text that could be sent alone").count == 1)
    }

    @Test func anOverLimitDraftCannotBeSentAndShowsItsNotice() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("first")
        let chat = try #require(app.reception.chat)
        let device = try #require(try await service.devices().first?["id"] as? String)
        // 4,000 UTF-16 units is the limit (seed 001: "Some emoji … count as more than one"): 1,999 emoji and two
        // letters are 4,000; one letter more is over.
        let atLimit = String(repeating: "😀", count: 1999) + "ab"
        chat.setDraft(atLimit)
        #expect(await until { await chat.refresh(); return chat.composer.canSend }, "4,000 units can be sent")
        #expect(chat.noticeTexts.isEmpty)
        let over = atLimit + "c"
        chat.setDraft(over)
        #expect(await until { await chat.refresh(); return !chat.composer.canSend }, "4,001 units can still be sent")
        #expect(chat.composer.notices == [.textTooLong(length: 4001, limit: 4000)])
        let notice = try #require(chat.noticeTexts.first)
        #expect(notice == ComposerNotice.textTooLong(length: 4001, limit: 4000).text && !notice.isEmpty)
        #expect(await chat.engine.send() == nil, "the over-limit draft was sent")
        await chat.send()
        await chat.refresh()
        #expect(chat.composer.text == over, "the draft was shortened or cleared")
        #expect(!chat.messages.contains { $0.text.hasPrefix("😀") }, "an over-limit message entered the transcript")
        // Back under the limit it sends, and it is the only long message the service ever got.
        chat.setDraft(atLimit)
        #expect(await until { await chat.refresh(); return chat.composer.canSend })
        _ = try await sendAndConfirm(chat)
        #expect(try await service.messages(device: device) == ["first", atLimit])
    }
}
