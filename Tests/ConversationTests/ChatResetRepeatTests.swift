import Foundation
import ReceptionCore
import Testing
@testable import Conversation

/// Spec 7.12 and "never loses a message": one chat reset is reported more than once (the request that met the 409,
/// and the client's hook for every 409), and the later report can come after the person sent again. It must not
/// take the new message with the old chat. Found by `TeamResetTests` under load: the next send vanished unsent.
@Suite("ChatResetRepeatTests")
struct ChatResetRepeatTests {
    @Test func aRepeatedReportOfTheSameResetKeepsWhatWasSentAfterIt() async throws {
        let h = await EngineHarness()
        await h.send("before the reset")
        await h.engine.chatReset(revision: 3)
        #expect(await h.snapshot.messages.isEmpty, "the reset kept the old chat")

        await h.service.hold("send")
        let id = try #require(await h.send("after the reset"))
        #expect(await eventually { await h.service.waitingCount("send") == 1 })
        // The same reset, reported again while the new message is on its way.
        await h.engine.chatReset(revision: 3)
        #expect(await h.message(id) != nil, "the repeated report of the reset took the new message")
        #expect(try h.store.unsentMessages().contains { $0.id == id }, "the new message left the store")

        await h.service.release("send")
        #expect(await eventually { await h.message(id)?.status == .sent }, "the new message was not delivered")
    }

    @Test func aNewerResetStillClearsTheChat() async throws {
        let h = await EngineHarness()
        await h.engine.chatReset(revision: 3)
        await h.service.hold("send")
        _ = try #require(await h.send("after the first reset"))
        await h.engine.chatReset(revision: 4)
        #expect(await h.snapshot.messages.isEmpty, "a newer reset kept the chat it replaces")
        #expect(try h.store.sessionState().chatRevision == 4)
    }
}
