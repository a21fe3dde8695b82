import Foundation
import Observation
import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

/// Plays SwiftUI's part for the chat screen on Linux: the screen's body reads `transcriptPresentation` and the
/// composer's body reads `composerPresentation`, each under observation tracking, and each is evaluated again
/// (re-tracked) whenever something it read changes, as SwiftUI invalidates a view.
@MainActor
final class ScreenBodies {
    let model: ChatModel
    let appearance = ChatAppearance()
    private(set) var transcriptEvaluations = 0
    private(set) var composerEvaluations = 0
    private(set) var lastTranscript: TranscriptPresentation?

    init(model: ChatModel) {
        self.model = model
        evaluateTranscript()
        evaluateComposer()
    }

    private func evaluateTranscript() {
        transcriptEvaluations += 1
        lastTranscript = withObservationTracking {
            model.transcriptPresentation(appearance: appearance)
        } onChange: { [weak self] in
            Task { @MainActor in self?.evaluateTranscript() }
        }
    }

    private func evaluateComposer() {
        composerEvaluations += 1
        _ = withObservationTracking {
            model.composerPresentation
        } onChange: { [weak self] in
            Task { @MainActor in self?.evaluateComposer() }
        }
    }
}

/// Issue 39: typing does not rebuild the transcript. A keystroke invalidates the composer only; the rows are built
/// again when the transcript changes, and then once.
@Suite("TranscriptRebuildTests")
@MainActor
struct TranscriptRebuildTests {

    @Test("100 keystrokes build no row and never invalidate the transcript; the composer follows every one")
    func keystrokesBuildNoRows() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.agentReply("How can we help?")
        let model = await h.openModel()
        #expect(await untilOnMain { model.messages.count == 1 })
        let bodies = ScreenBodies(model: model)
        let buildsBefore = model.rowBuilds
        let transcriptBefore = bodies.transcriptEvaluations
        let composerBefore = bodies.composerEvaluations
        var draft = ""
        for character in "I would like to ask about my order, which has not arrived yet. It was placed on Monday!!" {
            draft.append(character)
            model.setDraft(draft)
            await Task.yield()
        }
        while draft.count < 100 {
            draft.append("!")
            model.setDraft(draft)
            await Task.yield()
        }
        // Every edit has reached the engine and its snapshots have been applied.
        #expect(await untilOnMain {
            await model.refresh()
            return await h.engine.snapshot.composer.text == draft && model.composer.text == draft
        })
        await settle()
        #expect(bodies.composerEvaluations > composerBefore, "the composer shows what is typed")
        #expect(bodies.transcriptEvaluations == transcriptBefore, "a keystroke invalidated the transcript")
        #expect(model.rowBuilds == buildsBefore, "rows were built while typing")
        #expect(bodies.lastTranscript?.rows.map(\.text) == ["How can we help?"])
    }

    @Test("a new message invalidates the transcript and builds the rows once; reading it again builds none")
    func newMessageBuildsOnce() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.agentReply("first")
        let model = await h.openModel()
        #expect(await untilOnMain { model.messages.count == 1 })
        let bodies = ScreenBodies(model: model)
        let builds = model.rowBuilds
        let evaluations = bodies.transcriptEvaluations
        await h.service.agentReply("second")
        await h.service.signal(.changed)
        #expect(await untilOnMain { bodies.lastTranscript?.rows.count == 2 })
        #expect(bodies.transcriptEvaluations > evaluations)
        #expect(model.rowBuilds == builds + 1)
        _ = model.transcriptPresentation(appearance: bodies.appearance)
        _ = model.presentation(appearance: bodies.appearance)
        #expect(model.rowBuilds == builds + 1, "the same transcript is built once")
    }

    @Test("the rows are built again for other texts, another appearance or another day, and not for a later minute")
    func rowInputs() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.agentReply("hello")
        let model = await h.openModel()
        #expect(await untilOnMain { model.messages.count == 1 })
        let utc = try #require(TimeZone(identifier: "UTC"))
        let noon = Date(timeIntervalSince1970: 1_800_014_400)  // 2027-01-15 12:00 UTC
        _ = model.transcriptPresentation(appearance: ChatAppearance(), now: noon, timeZone: utc)
        let builds = model.rowBuilds
        _ = model.transcriptPresentation(appearance: ChatAppearance(), now: noon + 600, timeZone: utc)
        #expect(model.rowBuilds == builds, "ten minutes later on the same day")
        _ = model.transcriptPresentation(appearance: ChatAppearance(), now: noon + 86_400, timeZone: utc)
        #expect(model.rowBuilds == builds + 1, "the next day words timestamps differently")
        var appearance = ChatAppearance()
        appearance.showsTeamNames.toggle()
        _ = model.transcriptPresentation(appearance: appearance, now: noon + 86_400, timeZone: utc)
        #expect(model.rowBuilds == builds + 2)
        model.texts = ChatTexts(language: "de")
        _ = model.transcriptPresentation(appearance: appearance, now: noon + 86_400, timeZone: utc)
        #expect(model.rowBuilds == builds + 3)
    }

    @Test("the two parts make the same screen as the whole presentation")
    func partsMatchTheWhole() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.agentReply("hi there")
        let model = await h.openModel()
        #expect(await untilOnMain { model.messages.count == 1 })
        model.setDraft("a draft")
        let now = Date()
        let whole = ChatPresentation(
            messages: model.messages, composer: model.composer, banner: model.banner, agentTyping: model.agentTyping,
            team: model.team, texts: model.texts, appearance: ChatAppearance(), now: now)
        #expect(model.presentation(appearance: ChatAppearance(), now: now) == whole)
        #expect(model.transcriptPresentation(appearance: ChatAppearance(), now: now) == whole.transcript)
        #expect(model.composerPresentation == whole.composer)
    }
}
