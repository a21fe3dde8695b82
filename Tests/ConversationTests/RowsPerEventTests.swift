import Foundation
import Observation
import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

/// Issue 53: what one event costs the main actor does not grow with the transcript. In a chat of 2,000 messages a
/// keystroke builds no row and publishes neither the transcript nor the list of rows; an upload progress step and a
/// cooldown tick build the one row that shows them; an incoming message builds its own row and the neighbour whose
/// group it joins. After every event the rows are the ones a whole build makes.
@Suite("RowsPerEventTests")
@MainActor
struct RowsPerEventTests {
    /// Large enough that a whole build would show in every count (`make bench`'s ChatEventBench times 5,000).
    static let size = 2_000
    static let utc = TimeZone(identifier: "UTC") ?? .current

    /// An open chat of `size` agent replies (one group), its rows built once for the default appearance.
    private func largeChat() async -> (EngineHarness, ChatModel) {
        let h = await EngineHarness(conversationExists: true)
        await h.service.agentReply("reply 1")
        let model = await h.openModel()
        #expect(await untilOnMain { model.messages.count == 1 })
        for number in 2...Self.size { await h.service.agentReply("reply \(number)") }
        await h.service.signal(.changed)
        // The merge of 2,000 messages takes longer than `untilOnMain`'s bound in a debug build.
        var loaded = false
        for _ in 0..<1_000_000 where !loaded {
            loaded = model.messages.count == Self.size
            await Task.yield()
        }
        #expect(loaded)
        await applied(h, model)
        _ = rows(model)
        return (h, model)
    }

    /// The rows the model keeps, built for the default appearance at the harness's time in UTC.
    private func rows(_ model: ChatModel, now: Date = Date(timeIntervalSince1970: 1_800_000_000)) -> [MessageRow] {
        model.transcriptPresentation(appearance: ChatAppearance(), now: now, timeZone: Self.utc).rows
    }

    /// The rows a whole build makes of the model's transcript (what the model showed before issue 53).
    private func wholeBuild(_ model: ChatModel, appearance: ChatAppearance = ChatAppearance()) -> [MessageRow] {
        ChatPresentation.rows(
            messages: model.messages, team: model.team, texts: model.texts, appearance: appearance,
            now: Date(timeIntervalSince1970: 1_800_000_000), timeZone: Self.utc, availablePaywalls: nil)
    }

    /// Waits until the model has applied the engine's last publication.
    private func applied(_ h: EngineHarness, _ model: ChatModel) async {
        await settle()
        #expect(await untilOnMain { await model.version == h.engine.snapshot.version })
    }

    /// Counts the invalidations of a screen body that reads `transcriptSlots` (as `ChatScreen` does): a row that
    /// changes in its slot must not invalidate it.
    private func screenInvalidations(_ model: ChatModel) -> Locked<Int> {
        let invalidations = Locked(0)
        withObservationTracking {
            _ = model.transcriptSlots(
                appearance: ChatAppearance(), now: Date(timeIntervalSince1970: 1_800_000_000), timeZone: Self.utc)
        } onChange: {
            invalidations.withLock { $0 += 1 }
        }
        return invalidations
    }

    /// The IDs of the rows that differ between two lists of the same rows.
    private func changedIDs(_ before: [MessageRow], _ after: [MessageRow]) -> Set<String> {
        Set(zip(before, after).filter { $0 != $1 }.map(\.0.id))
    }

    @Test("a keystroke builds no row and publishes neither the transcript nor the list of rows")
    func keystroke() async throws {
        let (h, model) = await largeChat()
        let built = model.rowsBuilt
        let published = Locked(0)
        withObservationTracking {
            _ = model.messages
            _ = model.rowSlots
        } onChange: {
            published.withLock { $0 += 1 }
        }
        var draft = ""
        for character in "Where is my order?" {
            draft.append(character)
            model.setDraft(draft)
            await Task.yield()
        }
        #expect(await untilOnMain { await h.engine.snapshot.composer.text == draft })
        await applied(h, model)
        #expect(model.composer.text == draft)
        #expect(model.rowsBuilt == built, "rows were built while typing")
        #expect(published.withLock { $0 } == 0, "typing published the transcript or the rows")
    }

    @Test("an incoming message builds its row, and the previous row only when it joins that row's group")
    func incomingMessage() async throws {
        let (h, model) = await largeChat()
        let slots = model.rowSlots
        var built = model.rowsBuilt
        await h.service.agentReply("same minute")
        await h.service.signal(.changed)
        #expect(await untilOnMain { model.messages.count == Self.size + 1 })
        await applied(h, model)
        // The new row, and the one before it, which no longer ends its group (spec 7.24).
        #expect(model.rowsBuilt - built == 2)
        #expect(zip(slots, model.rowSlots).allSatisfy { $0 === $1 }, "a row kept its place but not its slot")
        built = model.rowsBuilt
        await h.clock.advance(by: .seconds(6 * 60))
        await h.service.agentReply("six minutes later")
        await h.service.signal(.changed)
        #expect(await untilOnMain { model.messages.count == Self.size + 2 })
        await applied(h, model)
        #expect(model.rowsBuilt - built == 1, "a new group after a pause changes no earlier row")
        #expect(rows(model).last?.timestamp != nil)
        #expect(rows(model) == wholeBuild(model))
    }

    @Test("an upload progress step builds the uploading row alone")
    func uploadProgress() async throws {
        let (h, model) = await largeChat()
        await model.addPhoto(Data([1]))
        await model.addPhoto(Data([2]))
        await h.service.hold("upload")
        model.setDraft("two photos")
        await model.send()
        #expect(await untilOnMain { await h.service.waitingCount("upload") == 1 })
        await applied(h, model)
        let id = try #require(model.messages.last?.id)
        let before = rows(model)
        let (built, passes) = (model.rowsBuilt, model.rowBuilds)
        let screen = screenInvalidations(model)
        await h.service.hold("send")
        await h.service.release("upload")
        #expect(await untilOnMain { await h.service.waitingCount("send") == 1 })
        #expect(await untilOnMain { model.messages.last?.uploadProgress == 1 })
        await applied(h, model)
        let steps = model.rowBuilds - passes
        #expect(steps >= 2, "the progress moved in steps")
        #expect(model.rowsBuilt - built == steps, "a progress step built more than one row")
        #expect(screen.withLock { $0 } == 0, "a progress step invalidated the screen, not just its row")
        #expect(changedIDs(before, rows(model)) == [id])
        #expect(rows(model) == wholeBuild(model))
    }

    @Test("a cooldown tick builds only the row that counts it down")
    func cooldownTick() async throws {
        let (h, model) = await largeChat()
        await h.service.fail("send", with: rateLimited(30))
        model.setDraft("held")
        await model.send()
        #expect(await untilOnMain { model.messages.last?.retry == .automaticResend(secondsLeft: 30) })
        await applied(h, model)
        let id = try #require(model.messages.last?.id)
        let before = rows(model)
        let (built, passes) = (model.rowsBuilt, model.rowBuilds)
        let screen = screenInvalidations(model)
        for _ in 0..<3 {
            await h.clock.advance(by: .seconds(1))
            await applied(h, model)
        }
        #expect(model.messages.last?.retry == .automaticResend(secondsLeft: 27))
        #expect(model.rowBuilds - passes == 3)
        #expect(model.rowsBuilt - built == 3, "a tick built more than the row showing the countdown")
        #expect(screen.withLock { $0 } == 0, "a tick invalidated the screen, not just its row")
        #expect(changedIDs(before, rows(model)) == [id])
        #expect(rows(model) == wholeBuild(model))
    }

    @Test("through sends, replies, failures and fades the rows are always those of a whole build")
    func rowsMatchAWholeBuild() async throws {
        let h = await EngineHarness(conversationExists: true)
        let model = await h.openModel()
        var appearance = ChatAppearance()
        appearance.fadesOlderMessages = true
        appearance.showsTeamNames = true
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func check(_ step: String) async {
            await applied(h, model)
            let kept = model.transcriptPresentation(appearance: appearance, now: now, timeZone: Self.utc).rows
            #expect(kept == wholeBuild(model, appearance: appearance), "after \(step)")
        }
        await check("opening")
        for round in 0..<4 {
            model.setDraft("question \(round)")
            await model.send()
            await check("send \(round)")
            await h.service.agentReply("answer \(round)")
            await h.service.signal(.changed)
            #expect(await untilOnMain { model.messages.count == 2 * round + 2 })
            await check("reply \(round)")
            await h.clock.advance(by: .seconds(round == 1 ? 400 : 20))
        }
        await h.service.fail("send", with: ReceptionError(code: "bad_request", status: 400))
        model.setDraft("refused")
        await model.send()
        #expect(await untilOnMain { model.messages.last?.status == .notDelivered })
        await check("a failure")
    }
}
