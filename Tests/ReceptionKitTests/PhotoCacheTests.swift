import Foundation
import MessageCache
import ReceptionCore
import ReceptionKit
import ReceptionTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 39, "Photos fetched once", over the real emulator, URLSession over loopback and the SDK's `FilePhotoCache`
/// on real files: every photo download the SDK makes is a `GET /files/<id>` in the emulator's request log, so each
/// rule is counted there. A second view makes no request, nor does a view after a relaunch, a photo the device sent
/// is never downloaded, logout, deletion and Reset support leave no cached photo, the least recently used photo
/// goes first under a small budget, and a damaged cache file is a miss that downloads the photo again.
@Suite("PhotoCacheTests", .serialized)
@MainActor
struct PhotoCacheTests {
    /// The attachment downloads (`GET /files/<id>`) in the emulator's request log.
    static func downloads(_ service: Service, of id: String) async throws -> Int {
        // The whole ring (`Service.admin` takes a path, not a query; the default answer is the newest 100).
        var request = URLRequest(url: try #require(URL(string: "\(service.root)/admin/requests?limit=5000")))
        request.setValue("Bearer \(service.emulator.credentials.adminToken)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        try #require((response as? HTTPURLResponse)?.statusCode == 200)
        let log = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])["requests"] as? [[String: Any]]
        return (log ?? []).filter { $0["method"] as? String == "GET" && $0["path"] as? String == "/files/\(id)" }.count
    }

    /// A JPEG made by Pillow (independent of our encoder), distinct per size.
    static func jpeg(width: Int = 64, height: Int = 48) throws -> Data {
        try SeedPromisesAttachmentsTests.pickedPhoto(width: width, height: height)
    }

    /// The team sends `jpegs` to this install's device in one message (after a first send registered it), with the
    /// chat open; returns the attachments once the chat shows them.
    static func receive(_ jpegs: [Data], in app: App, text: String) async throws -> [ReceptionKit.Attachment] {
        if app.reception.chat?.messages.isEmpty != false { try await app.send("hello before the photos") }
        let device = try #require(try await app.service.devices().last?["id"] as? String)
        // An open chat follows the live stream (spec 7.8.5), so the team's message arrives without a poll's wait.
        if !app.reception.isChatOpen { app.reception.openChat() }
        let photos = jpegs.map { ["data": $0.base64EncodedString()] }
        let answer = try await app.service.admin("POST", "devices/\(device)/messages", ["text": text, "photos": photos])
        try #require(answer["message"] != nil, "the team's message was refused: \(answer)")
        let chat = try #require(app.reception.chat)
        let arrived = await until {
            await chat.refresh()
            return chat.messages.contains { $0.text == text && $0.attachments.count == jpegs.count }
        }
        try #require(arrived, "the photos did not reach the chat: \(chat.messages.map { ($0.text, $0.attachments.count) })")
        return try #require(chat.messages.first { $0.text == text }?.attachments)
    }

    /// `attachment` as the chat of `app` loads it for a bubble.
    static func view(_ attachment: ReceptionKit.Attachment, in app: App) async throws -> Data {
        try await #require(app.reception.chat).photo(attachment)
    }

    /// Every regular file under the install's `photos` folder.
    static func cachedFiles(_ app: App) -> [URL] {
        let root = app.directory.appendingPathComponent(FilePhotoCache.folderName)
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        return (files?.allObjects as? [URL] ?? []).filter { !$0.hasDirectoryPath }
    }

    /// Waits until a relaunched chat shows the message with `text` again.
    static func restored(_ app: App, text: String) async -> Bool {
        await until {
            guard let chat = app.reception.chat else { return false }
            await chat.refresh()
            return chat.messages.contains { $0.text == text }
        }
    }

    @Test func aSecondViewMakesNoRequest() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        let jpeg = try Self.jpeg()
        let attachment = try #require(try await Self.receive([jpeg], in: app, text: "one photo").first)
        #expect(try await Self.downloads(service, of: attachment.id) == 0)
        #expect(try await Self.view(attachment, in: app) == jpeg)
        #expect(try await Self.downloads(service, of: attachment.id) == 1)
        // The bubble again, the viewer, a rotation's new size: each a view of the same attachment.
        for _ in 0..<3 { #expect(try await Self.view(attachment, in: app) == jpeg) }
        #expect(try await Self.downloads(service, of: attachment.id) == 1, "a second view downloaded the photo")
        #expect(app.transport.log.filter { $0.path == "/files/\(attachment.id)" }.count == 1, "the client sent another")
    }

    @Test func aRelaunchOnTheSameDataFolderViewsWithoutARequest() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        let jpeg = try Self.jpeg()
        let attachment = try #require(try await Self.receive([jpeg], in: app, text: "before the relaunch").first)
        #expect(try await Self.view(attachment, in: app) == jpeg)
        await app.launch()
        try #require(await Self.restored(app, text: "before the relaunch"))
        #expect(try await Self.view(attachment, in: app) == jpeg)
        #expect(try await Self.downloads(service, of: attachment.id) == 1, "the relaunch downloaded the photo again")
    }

    @Test func aPhotoTheDeviceSentIsNeverDownloaded() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        let sent = try await SeedPromisesAttachmentsTests.sendPhoto(app, text: "sent from here")
        let bytes = try await Self.view(sent, in: app)
        #expect(try SeedPromisesAttachmentsTests.decodes(bytes, width: sent.width, height: sent.height))
        await app.launch()
        try #require(await Self.restored(app, text: "sent from here"))
        #expect(try await Self.view(sent, in: app) == bytes)
        #expect(try await Self.downloads(service, of: sent.id) == 0, "the device downloaded a photo it had sent")
        #expect(!app.transport.log.contains { $0.path.hasPrefix("/files/") }, "a photo download went out")
        // What the device shows is what it uploaded: the service's copy (fetched here, outside the SDK) is the same.
        let (served, _) = try await URLSession(configuration: .ephemeral).data(from: try #require(URL(string: sent.url)))
        #expect(served == bytes)
    }

    /// How the session ends in `endsTheSessionAndItsPhotos`.
    enum Ending: String, CaseIterable, Sendable { case logout, deletion, resetSupport }

    @Test(arguments: Ending.allCases)
    func endsTheSessionAndItsPhotos(_ ending: Ending) async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        let jpeg = try Self.jpeg()
        let attachment = try #require(try await Self.receive([jpeg], in: app, text: "photo of A").first)
        _ = try await Self.view(attachment, in: app)
        _ = try await SeedPromisesAttachmentsTests.sendPhoto(app, text: "sent by A")
        try #require(Self.cachedFiles(app).contains { (try? Data(contentsOf: $0)) == jpeg }, "the photo was not cached")
        switch ending {
        case .logout:
            app.reception.logout()
        case .deletion:
            try await app.reception.deleteData()
        case .resetSupport:
            let device = try #require(try await service.devices().first?["id"] as? String)
            try await service.admin("POST", "devices/\(device)/reset")
            let emptied = await until {
                await app.reception.chat?.refresh()
                return app.texts.isEmpty
            }
            try #require(emptied, "the chat was not reset")
        }
        let left = Self.cachedFiles(app)
        #expect(left.isEmpty, "\(ending): \(left.map(\.lastPathComponent)) left in the photo cache")
        // The next photo shown is downloaded, and cached for the new chat.
        let next = try #require(try await Self.receive([jpeg], in: app, text: "photo after \(ending)").first)
        #expect(try await Self.view(next, in: app) == jpeg)
        #expect(try await Self.downloads(service, of: next.id) == 1)
        #expect(Self.cachedFiles(app).contains { (try? Data(contentsOf: $0)) == jpeg })
    }

    @Test func underASmallBudgetTheLeastRecentlyUsedPhotoGoesFirst() async throws {
        let service = try Service()
        let app = App(service)
        let jpegs = try [Self.jpeg(width: 64, height: 48), Self.jpeg(width: 80, height: 60), Self.jpeg(width: 96, height: 72)]
        let sizes = jpegs.map(\.count)
        // Room for any two of the three, never for all three.
        let budget = max(sizes[0] + sizes[1], sizes[0] + sizes[2], sizes[1] + sizes[2])
        app.photoCache = { directory, scope, logger throws(ReceptionError) in
            try FilePhotoCache(directory: directory, scope: scope, byteBudget: budget, logger: logger)
        }
        await app.launch()
        let attachments = try await Self.receive(jpegs, in: app, text: "three photos")
        let ids = attachments.map(\.id)
        for index in [0, 1, 0, 2] { #expect(try await Self.view(attachments[index], in: app) == jpegs[index]) }
        // 0 was used after 1, so storing 2 evicted 1.
        #expect(try await Self.downloads(service, of: ids[0]) == 1)
        #expect(try await Self.view(attachments[0], in: app) == jpegs[0])
        #expect(try await Self.view(attachments[2], in: app) == jpegs[2])
        #expect(try await Self.downloads(service, of: ids[0]) == 1, "the recently used photo was evicted")
        #expect(try await Self.downloads(service, of: ids[2]) == 1, "the newest photo was evicted")
        #expect(try await Self.view(attachments[1], in: app) == jpegs[1])
        #expect(try await Self.downloads(service, of: ids[1]) == 2, "the least recently used photo was kept")
        let onDisk = Self.cachedFiles(app).filter { $0.lastPathComponent != "index.json" }
        #expect(try onDisk.reduce(0) { $0 + (try Data(contentsOf: $1)).count } <= budget)
    }

    @Test func aTruncatedCacheFileIsAMissAndThePhotoIsDownloadedAgain() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        let jpeg = try Self.jpeg()
        let attachment = try #require(try await Self.receive([jpeg], in: app, text: "to be damaged").first)
        #expect(try await Self.view(attachment, in: app) == jpeg)
        let file = try #require(Self.cachedFiles(app).first { (try? Data(contentsOf: $0)) == jpeg })
        try Data(jpeg.prefix(jpeg.count / 3)).write(to: file)
        await app.launch()
        try #require(await Self.restored(app, text: "to be damaged"))
        #expect(try await Self.view(attachment, in: app) == jpeg, "a truncated cache file was handed out")
        #expect(try await Self.downloads(service, of: attachment.id) == 2)
        #expect(try Data(contentsOf: file) == jpeg, "the download was not cached again")
    }
}
