import Foundation
import ReceptionCore
import Testing

/// The wire and stored types write their keys through `WireKey` by hand (Docs/Footprint.md). Each golden document
/// below has every key its type knows, in the encoder's form (sorted keys, no spaces, dates with milliseconds): a
/// key spelt differently from the spec, or one left out, fails the decode or changes the bytes written back.
@Suite("WireKeyTests")
struct WireKeyTests {
    func roundTrip<T: Codable & Equatable>(_ type: T.Type, _ golden: String) throws -> T {
        let value = try ReceptionJSON.makeDecoder().decode(type, from: Data(golden.utf8))
        let written = String(decoding: try ReceptionJSON.encode(value), as: UTF8.self)
        #expect(written == golden, "\(T.self) wrote \(written)")
        #expect(try ReceptionJSON.makeDecoder().decode(type, from: Data(written.utf8)) == value)
        return value
    }

    @Test func aKeyIsItsName() {
        let key: WireKey = "throughSeq"
        #expect(key.stringValue == "throughSeq" && key.intValue == nil)
        #expect(WireKey(stringValue: "a")?.stringValue == "a")
        #expect(WireKey(intValue: 0) == nil)
    }

    @Test func storedMessagesKeepEveryField() throws {
        let message = try roundTrip(StoredMessage.self, """
            {"actionClickedAt":"2026-09-24T10:00:00.000Z","attachmentIds":["att_1"],"attachments":[{"contentType":\
            "image/jpeg","height":480,"id":"att_1","url":"https://cdn.example/a","width":640}],"authorId":"t1",\
            "buttonLabel":"Open","createdAt":"2026-09-25T10:00:00.000Z","delivery":3,"expectedImageCount":2,\
            "id":"C1","images":["AQI="],"kind":"PAYWALL","paywallId":"pro","paywallTitle":"Pro","reviewUrl":\
            "https://apps.example/r","sender":"USER","seq":7,"text":"Hi"}
            """)
        #expect(message.delivery == [.failed, .awaitsManualRetry] && message.images == [Data([1, 2])])
        #expect(message.expectedImageCount == 2 && message.seq == 7 && message.paywallTitle == "Pro")
        let unsent = try roundTrip(StoredMessage.self, """
            {"attachmentIds":[],"attachments":[],"createdAt":"2026-09-25T10:00:00.000Z","delivery":0,\
            "expectedImageCount":0,"id":"C2","images":[],"kind":"TEXT","sender":"USER","text":""}
            """)
        #expect(unsent.seq == nil && unsent.authorId == nil)
    }

    @Test func sessionStateKeepsEveryField() throws {
        let state = try roundTrip(SessionState.self, """
            {"chatRevision":3,"cooldowns":[{"automatic":true,"scope":"messages","until":\
            "2026-09-25T10:01:00.000Z"}],"cursor":42,"hasStartedChat":true,"lastLimitCheck":\
            "2026-09-25T10:00:00.000Z","pendingActionClicks":["m9"],"preferences":{"availablePaywalls":["pro"],\
            "badgeSynchronised":true,"language":"de","updatesAppBadge":false},"unread":{"hasConversation":true,\
            "lastMessageAt":"2026-09-25T09:00:00.000Z","pollingStages":[{"everySeconds":15,"forMinutes":2}],\
            "pushActive":true,"status":"OPEN"}}
            """)
        #expect(state.cursor == 42 && state.unread.pollingStages == [UnreadPollingStage(forMinutes: 2, everySeconds: 15)])
        #expect(state.cooldowns.first?.scope == .messages && state.preferences.language == "de")
        _ = try roundTrip(SessionState.self, """
            {"chatRevision":0,"cooldowns":[],"hasStartedChat":false,"pendingActionClicks":[],"preferences":\
            {"badgeSynchronised":false},"unread":{"hasConversation":false,"pushActive":false}}
            """)
    }

    @Test func modelsKeepEveryField() throws {
        _ = try roundTrip(ConversationSummary.self,
                          #"{"createdAt":"2026-09-25T10:00:00.000Z","id":"c1","status":"OPEN","unreadForUser":2}"#)
        _ = try roundTrip(CompactConversation.self, #"{"id":"c1","status":"CLOSED"}"#)
        _ = try roundTrip(DeviceFlags.self, #"{"blocked":false,"verificationRequired":true}"#)
        _ = try roundTrip(TeamProfile.self, #"{"id":"t1","name":"Ana","photo":"AQI=","photoKey":"p1"}"#)
        _ = try roundTrip(ReceptionPaywall.self, #"{"id":"pro","title":"Pro"}"#)
        _ = try roundTrip(TeamMember.self, #"{"id":"t1","name":"Ana","photoId":"p1","photoUrl":"https://cdn.example/p"}"#)
        _ = try roundTrip(SessionCredentials.self, #"{"sessionSecret":"s","verifiedUserId":"u1"}"#)
        _ = try roundTrip(Message.self, """
            {"actionClickedAt":"2026-09-24T10:00:00.000Z","attachments":[],"authorId":"t1","buttonLabel":"Rate",\
            "clientId":"C1","createdAt":"2026-09-25T10:00:00.000Z","id":"m1","kind":"REVIEW","paywallId":"pro",\
            "paywallTitle":"Pro","reviewUrl":"https://apps.example/r","sender":"AGENT","seq":9,"text":"Hi"}
            """)
        _ = try roundTrip(ErrorEnvelope.self,
                          #"{"error":{"code":"chat_reset","message":"reset","resetRevision":4,"retryScope":"uploads"}}"#)
        _ = try roundTrip(DevicePayload.self, """
            {"appBuild":"7","appVersion":"1.2","bundleId":"com.example","deviceModel":"iPhone16,1","email":"a@b.c",\
            "externalUserId":"u1","identityToken":"jwt","language":"de","locale":"de_DE","metadata":{"plan":"pro"},\
            "name":"Ana","osVersion":"18.6","paywalls":[{"id":"pro","title":"Pro"}],"platform":"ios",\
            "pushEnvironment":"PRODUCTION","pushToken":"ab","sdkVersion":"0.2.0","timezone":"Europe/Berlin",\
            "updatesAppBadge":true}
            """)
    }

    @Test func photoCacheIndexKeepsEveryField() throws {
        let index = try roundTrip(PhotoCacheIndex.self,
                                  #"{"counter":5,"entries":{"att_1":{"bytes":3,"sha256":"ab","use":5}}}"#)
        #expect(index.counter == 5 && index.entries["att_1"]?.bytes == 3)
    }

    @Test func responsesReadEveryField() throws {
        let decoder = ReceptionJSON.makeDecoder()
        let page = try decoder.decode(MessagesPage.self, from: Data("""
            {"messages":[],"hasMore":true,"conversation":{"id":"c1","status":"OPEN"},"device":{"blocked":true},
             "team":[{"id":"t1","name":"Ana","photoUrl":null}],"boundedRead":true}
            """.utf8))
        #expect(page.hasMore == true && page.conversation?.id == "c1" && page.device?.blocked == true)
        #expect(page.team?.first?.name == "Ana" && page.boundedRead == true)
        let sent = try decoder.decode(SendMessageResponse.self, from: Data("""
            {"conversation":{"id":"c1","status":"OPEN","unreadForUser":0,"createdAt":"2026-09-25T10:00:00Z"},
             "message":{"id":"m1","seq":1,"sender":"USER","text":"Hi","attachments":[],
                        "createdAt":"2026-09-25T10:00:00Z"}}
            """.utf8))
        #expect(sent.conversation.id == "c1" && sent.message.seq == 1)
        let read = try decoder.decode(ReadResponse.self, from: Data("""
            {"conversationId":"c1","readSeq":8,"unreadCount":0}
            """.utf8))
        #expect(read == ReadResponse(conversationId: "c1", readSeq: 8, unreadCount: 0))
        let unread = try decoder.decode(UnreadResponse.self, from: Data("""
            {"hasConversation":true,"unreadCount":2,"status":"OPEN","lastMessageAt":"2026-09-25T10:00:00Z",
             "push":true,"unreadPolling":[{"forMinutes":1,"everySeconds":5}]}
            """.utf8))
        #expect(unread.unreadCount == 2 && unread.push == true && unread.status == "OPEN")
        #expect(unread.lastMessageAt != nil && unread.unreadPolling == [UnreadPollingStage(forMinutes: 1, everySeconds: 5)])
        let reservation = try decoder.decode(UploadReservation.self, from: Data("""
            {"attachmentId":"att_1","uploadUrl":"https://up.example/1","headers":{"x-sig":"1"}}
            """.utf8))
        #expect(reservation == UploadReservation(attachmentId: "att_1", uploadUrl: "https://up.example/1",
                                                 headers: ["x-sig": "1"]))
        let limits = try decoder.decode(LimitValues.self, from: Data(#"{"messages":30,"uploads":-1}"#.utf8))
        #expect(limits == LimitValues(messages: 30, uploads: nil))
    }

    @Test func aMissingRequiredKeyStillFails() {
        #expect(throws: DecodingError.self) {
            try ReceptionJSON.makeDecoder().decode(StoredCooldown.self, from: Data(#"{"scope":"messages"}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try ReceptionJSON.makeDecoder().decode(ReadResponse.self, from: Data(#"{"readSeq":1,"unreadCount":0}"#.utf8))
        }
    }
}
