import Foundation
import ReceptionKit
import Testing

/// Spec 3.8 and 7.22's event table through `Reception.onEvent`: `.messageSent` once per delivered message and
/// `.imageSent` once per delivered photo message, also when the answer to the first POST was lost and the resend
/// of the same client ID got back the message the service had already stored.
@Suite("SeedPromisesTests+Events", .serialized)
@MainActor
struct SeedPromisesEventsTests {
    static func count(_ event: ReceptionEvent, _ app: App) -> Int { app.events.filter { $0 == event }.count }

    @Test(arguments: [false, true])
    func aResendOfAMessageTheServiceAlreadyStoredEmitsItsEventsOnce(withPhoto: Bool) async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("first")
        #expect(await until { Self.count(.messageSent, app) == 1 })
        let device = try #require(try await service.devices().first?["id"] as? String)

        // The service stores the next message and its answer is lost: garbled on the way, so the client cannot read
        // it. (A dropped connection is no use here: libcurl, under URLSession on Linux, silently repeats a request
        // whose reused connection closed before any answer, and the repeat gets the stored message.)
        try await service.admin("POST", "faults", ["path": "/v1/conversation/messages", "method": "POST", "kind": "garble"])
        let chat = try #require(app.reception.chat)
        await chat.engine.setDraft("the answer was lost")
        if withPhoto {
            await chat.engine.addPhoto(try SeedPromisesAttachmentsTests.pickedPhoto())
            await chat.refresh()
            try #require(chat.composer.photos.count == 1, "the photo was refused: \(chat.composer.notices)")
        }
        let id = try #require(await chat.engine.send())
        let failed = await until {
            await chat.refresh()
            return chat.messages.first { $0.id == id }?.status == .notDelivered
        }
        try #require(failed, "the lost answer did not fail the message")
        #expect(try await service.messages(device: device) == ["first", "the answer was lost"], "it was stored")

        // Retry sends the same client ID; the service answers with the stored message.
        #expect(await chat.engine.retry(id))
        let sent = await until {
            await chat.refresh()
            return chat.messages.first { $0.id == id }?.status == .sent
        }
        try #require(sent, "the retry was not confirmed")
        // A later message's events come after any event of the retry, so counting after them is final.
        try await app.send("after")
        #expect(await until { Self.count(.messageSent, app) >= 3 })
        #expect(Self.count(.messageSent, app) == 3, "events: \(app.events)")
        #expect(Self.count(.imageSent, app) == (withPhoto ? 1 : 0), "events: \(app.events)")
        #expect(try await service.messages(device: device) == ["first", "the answer was lost", "after"])

        let log = try await service.admin("GET", "requests")["requests"] as? [[String: Any]] ?? []
        let posts = log.filter { $0["method"] as? String == "POST" && $0["path"] as? String == "/v1/conversation/messages" }
        #expect(posts.count == 4, "first, the lost answer, its resend, after")
        #expect(posts.filter { $0["fault"] as? String == "garble" }.count == 1)
        if withPhoto {
            let reservations = log.filter { $0["method"] as? String == "POST" && $0["path"] as? String == "/v1/uploads" }
            #expect(reservations.count == 1, "the resend reused the saved attachment ID")
        }
    }

    @Test func everyDeliveredPhotoMessageEmitsBothEventsOnceAndTextOnlyMessagesNoImageEvent() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("text one")
        let chat = try #require(app.reception.chat)
        for text in ["photo one", "photo two"] {
            await chat.engine.setDraft(text)
            await chat.engine.addPhoto(try SeedPromisesAttachmentsTests.pickedPhoto())
            await chat.refresh()
            try #require(chat.composer.photos.count == 1)
            let id = try #require(await chat.engine.send())
            let sent = await until { await chat.refresh(); return chat.messages.first { $0.id == id }?.status == .sent }
            try #require(sent, "\(text) was not confirmed")
        }
        try await app.send("text two")
        #expect(await until { Self.count(.messageSent, app) >= 4 })
        // In order: each photo message's `.imageSent` follows its `.messageSent`.
        let sends = app.events.filter { $0 == .messageSent || $0 == .imageSent }
        #expect(sends == [.messageSent, .messageSent, .imageSent, .messageSent, .imageSent, .messageSent])
    }
}
