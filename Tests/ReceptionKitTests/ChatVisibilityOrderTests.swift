@testable import Conversation
import Foundation
import ReceptionCore
@testable import ReceptionKit
import ReceptionTesting
import Testing

/// Issue 39: an opening sends the device update of spec 7.2 before the engine watches the chat; a `closeChat()`
/// during that update must win, whatever order the network answers in.
extension ChatSheetTests {
    /// Holds the opening's device update at the emulator, and returns once it is held there.
    func holdTheOpeningUpdate(_ app: App, _ service: Service) async throws {
        try await service.admin("POST", "faults", ["path": "/v1/devices/me", "method": "PATCH", "kind": "delay", "delayMs": 700])
        app.reception.openChat()
        #expect(app.reception.isChatOpen)
        #expect(await until { await service.faultsFired() }, "the opening's device update never reached the service")
    }

    func engineWatches(_ app: App) async throws -> Bool {
        let engine = try #require(app.reception.chat?.engine)
        return await engine.visible
    }

    @Test("a closeChat during the opening's device update leaves the engine closed when the update ends late")
    func closeDuringTheOpeningUpdate() async throws {
        let service = try Service()
        let (app, presenter) = await launch(service)
        try await app.send("hi")
        try await holdTheOpeningUpdate(app, service)
        app.reception.closeChat()
        #expect(presenter.dismissals == 1)
        #expect(await until { app.reception.visibility.openingsDecided == 1 }, "the held update never ended")
        await app.reception.visibility.drained()
        #expect(!app.reception.isChatOpen)
        #expect(try await !engineWatches(app), "the late opening made the engine watch a closed chat")
    }

    @Test("opened, closed and opened again during the first update: the engine watches once the second opening's update ends")
    func reopenDuringTheOpeningUpdate() async throws {
        let service = try Service()
        let (app, _) = await launch(service)
        try await app.send("hi")
        try await holdTheOpeningUpdate(app, service)
        app.reception.closeChat()
        app.reception.openChat()
        #expect(await until { app.reception.visibility.openingsDecided == 2 }, "both updates end")
        await app.reception.visibility.drained()
        #expect(app.reception.isChatOpen)
        #expect(try await engineWatches(app))
        app.reception.closeChat()
        await app.reception.visibility.drained()
        #expect(try await !engineWatches(app))
    }
}
