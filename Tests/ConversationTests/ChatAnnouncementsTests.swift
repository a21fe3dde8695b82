import Foundation
import ReceptionCore
import Testing
@testable import Conversation

/// What VoiceOver hears as the chat changes, and when (issue 39), rule by rule, through `ChatAnnouncements` fed the
/// presentations a screen shows.
@Suite("ChatAnnouncementsTests")
struct ChatAnnouncementsTests {
    typealias P = ChatPresentationTests

    /// The chat opens 10 minutes after `P.start`; replies are stamped in seconds from `P.start`.
    static let openedAt = P.start.addingTimeInterval(600)
    static let anna = TeamProfile(id: "t1", name: "Anna", photo: nil)

    static func reply(_ id: String, _ text: String = "Hello", at seconds: Double = 700, author: String? = "t1",
                      attachments: [ReceptionCore.Attachment] = []) -> ChatMessage {
        P.message(id, .agent, text: text, at: seconds, author: author, attachments: attachments)
    }

    static func screen(
        _ messages: [ChatMessage], banner: ConnectionBanner = .hidden, typing: Bool = false,
        texts: ChatTexts = .english, names: Bool = true
    ) -> ChatPresentation {
        var appearance = ChatAppearance()
        appearance.showsTeamNames = names
        return P.screen(
            messages, banner: banner, typing: typing, team: [anna], texts: texts, appearance: appearance,
            now: P.start.addingTimeInterval(800))
    }

    /// Announcements that saw `first` as the opening presentation.
    static func opened(on first: ChatPresentation) -> ChatAnnouncements {
        var announcements = ChatAnnouncements()
        #expect(announcements.announcements(for: first).isEmpty)
        return announcements
    }

    static let photo = ReceptionCore.Attachment(
        id: "att1", url: "https://example.com/p.jpg", contentType: "image/jpeg", width: 10, height: 10)

    @Test("the first presentation announces nothing: its rows, typing line and banner are the chat as opened")
    func firstPresentationIsSilent() {
        var announcements = ChatAnnouncements()
        let first = Self.screen([Self.reply("r1")], banner: .offline, typing: true)
        #expect(announcements.announcements(for: first).isEmpty)
        #expect(announcements.announcements(for: first).isEmpty)
    }

    @Test("a new team reply is announced as 'Name: text', once")
    func newReplyIsAnnouncedOnce() {
        var announcements = Self.opened(on: Self.screen([P.message("o1")]))
        let withReply = Self.screen([P.message("o1"), Self.reply("r1", "We can help")])
        #expect(announcements.announcements(for: withReply) == ["Anna: We can help"])
        #expect(announcements.announcements(for: withReply).isEmpty)
    }

    @Test("the same reply presented again (status, link, name refresh) is never announced twice")
    func representedReplyIsNotAnnouncedAgain() {
        var announcements = Self.opened(on: Self.screen([]))
        _ = announcements.announcements(for: Self.screen([Self.reply("r1")]))
        // A refresh: its text edited, the name hidden, another own message sent after it.
        let refreshed = Self.screen([Self.reply("r1", "Hello!"), P.message("o1")], names: false)
        #expect(announcements.announcements(for: refreshed).isEmpty)
        // Gone, then back (a window change): still not again.
        _ = announcements.announcements(for: Self.screen([]))
        #expect(announcements.announcements(for: Self.screen([Self.reply("r1")])).isEmpty)
    }

    @Test("without a shown name, a reply is announced as the team's: 'Support: text'")
    func unnamedReplySaysTheTeam() {
        var announcements = Self.opened(on: Self.screen([], names: false))
        #expect(announcements.announcements(for: Self.screen([Self.reply("r1")], names: false)) == ["Support: Hello"])
        var unknown = Self.opened(on: Self.screen([]))
        #expect(unknown.announcements(for: Self.screen([Self.reply("r2", author: nil)])) == ["Support: Hello"])
    }

    @Test("a photo-only reply says what it holds: 'Anna: 1 photo'")
    func photoOnlyReplySaysPhoto() {
        var announcements = Self.opened(on: Self.screen([]))
        let photoOnly = Self.screen([Self.reply("r1", "", attachments: [Self.photo])])
        #expect(announcements.announcements(for: photoOnly) == ["Anna: 1 photo"])
        let both = Self.screen([Self.reply("r1", "", attachments: [Self.photo]), Self.reply("r2", "Look", attachments: [Self.photo])])
        #expect(announcements.announcements(for: both) == ["Anna: Look. 1 photo"])
    }

    @Test("the customer's own messages are never announced")
    func ownMessagesAreNeverAnnounced() {
        var announcements = Self.opened(on: Self.screen([]))
        #expect(announcements.announcements(for: Self.screen([P.message("o1", status: .sending)])).isEmpty)
        #expect(announcements.announcements(for: Self.screen([P.message("o1", status: .sent, at: 700)])).isEmpty)
        #expect(announcements.announcements(for: Self.screen([P.message("o1"), P.message("o2", at: 710)])).isEmpty)
    }

    /// `screen`'s transcript while the opening load runs.
    static func opening(_ screen: ChatPresentation) -> TranscriptPresentation {
        var transcript = screen.transcript
        transcript.isOpening = true
        return transcript
    }

    @Test("issue 50: the history an opening loads is not announced, whatever its time; a reply arriving after it is")
    func openingHistoryIsNotAnnounced() {
        var announcements = Self.opened(on: Self.screen([Self.reply("r1", at: 100)]))
        // The opening load brings replies written while the chat was closed, one stamped by a service clock that
        // runs ahead of the device's (at 5,000 s, long after the opening at 600 s by the device's clock).
        let history = Self.screen([
            Self.reply("r1", at: 100), Self.reply("r2", "While you were away", at: 500),
            Self.reply("r3", "Clock ahead", at: 5_000),
        ])
        #expect(announcements.announcements(for: Self.opening(history)).isEmpty)
        // The load ended: the same rows again are nothing new.
        #expect(announcements.announcements(for: history.transcript).isEmpty)
        // Replies arriving now are, even one stamped by a service clock far behind the device's.
        let live = Self.screen([
            Self.reply("r1", at: 100), Self.reply("r2", "While you were away", at: 500),
            Self.reply("r3", "Clock ahead", at: 5_000), Self.reply("r4", "Clock behind", at: 10),
            Self.reply("r5", "Later", at: 900),
        ])
        #expect(announcements.announcements(for: live) == ["Anna: Clock behind", "Anna: Later"])
    }

    @Test("issue 50: a screen back from a full-screen cover goes on: nothing it shows then is announced, nothing twice")
    func backFromACover() {
        var announcements = Self.opened(on: Self.screen([]))
        #expect(announcements.announcements(for: Self.screen([Self.reply("r1")])) == ["Anna: Hello"])
        // The host's paywall covered the chat; a reply came meanwhile; the chat screen appears again.
        let back = Self.screen([Self.reply("r1"), Self.reply("r2", "While covered")])
        announcements.seen(back.transcript)
        #expect(announcements.announcements(for: back).isEmpty, "r1 is not announced again, r2 was shown silently")
        #expect(announcements.announcements(for: Self.screen([Self.reply("r1"), Self.reply("r2"), Self.reply("r3", "Next")]))
            == ["Anna: Next"])
    }

    @Test("typing is announced once when it starts, not on every presentation while it lasts")
    func typingIsAnnouncedWhenItStarts() {
        var announcements = Self.opened(on: Self.screen([]))
        #expect(announcements.announcements(for: Self.screen([], typing: true)) == ["Typing…"])
        #expect(announcements.announcements(for: Self.screen([], typing: true)).isEmpty)
        #expect(announcements.announcements(for: Self.screen([P.message("o1")], typing: true)).isEmpty)
        #expect(announcements.announcements(for: Self.screen([P.message("o1")])).isEmpty)
        #expect(announcements.announcements(for: Self.screen([P.message("o1")], typing: true)) == ["Typing…"])
    }

    @Test("the banner is announced when it changes to a shown state, not initially, not when it hides")
    func bannerIsAnnouncedOnChange() {
        var announcements = Self.opened(on: Self.screen([], banner: .offline))
        #expect(announcements.announcements(for: Self.screen([], banner: .offline)).isEmpty)
        #expect(announcements.announcements(for: Self.screen([], banner: .connecting)) == ["Connecting"])
        #expect(announcements.announcements(for: Self.screen([], banner: .connected)) == ["Connected"])
        #expect(announcements.announcements(for: Self.screen([], banner: .hidden)).isEmpty)
        #expect(announcements.announcements(for: Self.screen([], banner: .offline)) == ["No connection"])
    }

    @Test("several changes at once come in order: the banner, the replies oldest first, then typing")
    func severalChangesComeInOrder() {
        var announcements = Self.opened(on: Self.screen([]))
        let busy = Self.screen([Self.reply("r1", "One"), Self.reply("r2", "Two", at: 710)], banner: .connected, typing: true)
        #expect(announcements.announcements(for: busy) == ["Connected", "Anna: One", "Anna: Two", "Typing…"])
    }

    @Test("announcements are in the chat language")
    func announcementsAreInTheChatLanguage() {
        let german = ChatTexts(language: "de")
        var announcements = Self.opened(on: Self.screen([], texts: german))
        let changed = Self.screen([Self.reply("r1", "Hallo", author: nil)], banner: .offline, typing: true, texts: german)
        #expect(announcements.announcements(for: changed) == ["Keine Verbindung", "Support: Hallo", german.text(.typing)])
        #expect(german.text(.typing) != ChatTexts.english.text(.typing))
    }
}

/// Issue 50 over the engine: what the announcer is told about the opening (`ChatSnapshot.isOpening`).
@Suite("OpeningSignalTests")
struct OpeningSignalTests {
    @Test("an opening whose first history load fails stays an opening until its retry brings the history")
    func failedFirstLoadKeepsTheOpening() async throws {
        let h = await EngineHarness(conversationExists: true)
        _ = await h.service.agentReply("written while the chat was closed")
        await h.service.fail("history", with: .connectionFailed())
        await h.open()
        let failed = await eventually { await h.service.count("history") >= 1 }
        try #require(failed)
        #expect(await h.snapshot.isOpening, "a failed load with a retry to come is still the opening")
        await h.elapse(seconds: 5)
        let loaded = await eventually {
            let snapshot = await h.snapshot
            return snapshot.messages.contains { $0.text == "written while the chat was closed" } && !snapshot.isOpening
        }
        #expect(loaded, "the retry brought the history and ended the opening")
    }

    @Test("a chat with nothing to load ends its opening")
    func unusedChatEndsTheOpening() async {
        let h = await EngineHarness()
        await h.open()
        #expect(await eventually { await !h.snapshot.isOpening })
    }
}
