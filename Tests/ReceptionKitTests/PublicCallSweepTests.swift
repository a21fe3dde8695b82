import Foundation
import ReceptionCore
import ReceptionKit
import Testing

/// Issue 9, "Bad input": every public call with empty, over-limit, emoji-heavy or malformed values — the documented
/// outcome, never a crash, and nothing registered on the service by calls that must not register.
@Suite("PublicCallSweepTests", .serialized)
@MainActor
struct PublicCallSweepTests {
    static let oddTexts = [
        "", " ", "\u{0}", String(repeating: "😀", count: 5_000), String(repeating: "x", count: 100_000),
        "\u{202E}rtl override", "🇺🇳🏳️‍🌈👨‍👩‍👧‍👦", String(decoding: [0xD800] as [UInt16], as: UTF16.self), "%00%ZZ<script>",
    ]

    @Test func oddValuesThroughEveryCallOfAnUnusedChatRegisterNothing() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        let reception = app.reception
        for text in Self.oddTexts {
            reception.identify(userId: text, name: text, email: text)
            reception.identify(token: text)
            reception.setMetadata([text: text, "plan": text])
            reception.languageOverride = text
            let language = reception.appLanguage
            #expect(!language.isEmpty && language.utf16.count <= 35, "spec 7.19: a usable tag or en")
            #expect(language.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "-" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) })
            if text.unicodeScalars.contains(where: { !$0.isASCII }) { #expect(language == "en") }
            #expect(!reception.chatLanguage.isEmpty)
            reception.setPushToken(Data(text.utf8), environment: .sandbox)
            #expect(!reception.handlePushNotification(userInfo: ["reception": ["conversationId": text.isEmpty ? 5 : text as Any]])
                    || !text.isEmpty, "an empty or non-string conversation ID is not Reception's")
            var look = ChatAppearance()
            look.texts = .init(title: text, welcomeTitle: text, welcomeText: text)
            look.welcomeIcon.size = .nan
            look.customFontName = text
            reception.appearance = look
            #expect(reception.chatAppearance.welcomeIcon.size == 16)
            reception.paywalls = (0..<50).map { ReceptionPaywall(id: text + "\($0)", title: text) }
            #expect(reception.availablePaywalls.count <= 20)
        }
        reception.closeChat()
        for payload: [AnyHashable: Any] in [
            [:], ["reception": "x"], ["reception": ["conversationId": ""]], ["reception": ["conversationId": NSNull()]],
            ["aps": ["alert": 5]], [5: "numeric key"], ["reception": [["nested": [1, 2, 3]]]],
        ] {
            #expect(!reception.handlePushNotification(userInfo: payload, openChat: true))
        }
        #expect(!reception.isChatOpen, "a payload that is not Reception's opens nothing")
        reception.setPushToken(Data(), environment: .automatic)
        for _ in 0..<50 {
            reception.openChat()
            reception.closeChat()
        }
        reception.languageOverride = nil
        let swept = try #require(reception.chat?.engine)
        try await reception.deleteData()
        let result = await reception.runSetupCheck(appId: "garbage 💥")
        #expect(result == .failed(reason: "app_id_mismatch"))
        // The deletion ended the session these calls went to; once it has wound down, a registration they caused
        // would have reached the service.
        #expect(await app.untilEnded(swept), "the swept session did not wind down")
        #expect(!app.transport.log.contains { $0.path == "/v1/devices" }, "a call of the sweep sent a registration")
        #expect(try await service.devices().isEmpty, "none of these calls may register a device")
        #expect(app.events.filter { $0 == .chatOpened }.count == 51, "the first recognised push, then the 50 openings")
        #expect(app.events.contains(.dataDeleted))
        // The install still works afterwards.
        try await app.send("still works after the sweep")
        #expect(try await service.devices().count == 1)
    }

    @Test func everyCallBeforeConfigureDoesNothing() async throws {
        let reception = Reception()
        var events: [ReceptionEvent] = []
        reception.onEvent = { events.append($0) }
        for text in Self.oddTexts {
            reception.identify(userId: text)
            reception.identify(token: text)
            reception.setMetadata([text: text])
            reception.setPushToken(Data(text.utf8))
            // Recognition only: the payload is Reception's (so the host does not hand it elsewhere), nothing opens.
            #expect(reception.handlePushNotification(userInfo: ["reception": ["conversationId": "c1"]]))
            #expect(!reception.handlePushNotification(userInfo: ["reception": ["conversationId": text]]) || !text.isEmpty)
            reception.paywalls = [ReceptionPaywall(id: "p", title: text)]
            reception.openChat()
            reception.closeChat()
            reception.logout()
            try await reception.deleteData()
        }
        #expect(!reception.isConfigured)
        #expect(!reception.isChatOpen)
        #expect(reception.identityState == .anonymous)
        #expect(reception.unreadCount == 0)
        #expect(events.isEmpty, "no event before configure, not even .dataDeleted")
        #expect(reception.chat == nil)
    }
}
