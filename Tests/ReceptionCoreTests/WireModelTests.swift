import Foundation
import ReceptionCore
import Testing

@Suite("WireModelTests")
struct WireModelTests {
    func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try ReceptionJSON.makeDecoder().decode(type, from: Data(json.utf8))
    }

    func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func decodesAFullAgentMessage() throws {
        let message = try decode(Message.self, """
            {"id": "m1", "clientId": null, "seq": 42, "sender": "AGENT", "text": "Hi",
             "attachments": [{"id": "a1", "url": "https://cdn.example/a1?sig=x", "contentType": "image/jpeg",
                              "width": 640, "height": 480}],
             "createdAt": "2026-09-25T10:00:00.000Z", "kind": "REVIEW",
             "reviewUrl": "https://apps.apple.com/app/id1?action=write-review", "buttonLabel": "Rate us",
             "authorId": "t1", "actionClickedAt": "2026-09-24T10:00:00Z", "unknownKey": [1, 2]}
            """)
        #expect(message.id == "m1" && message.clientId == nil && message.seq == 42)
        #expect(message.sender == .agent && message.sender.isIncoming)
        #expect(message.attachments == [Attachment(id: "a1", url: "https://cdn.example/a1?sig=x",
                                                   contentType: "image/jpeg", width: 640, height: 480)])
        #expect(message.kind == .review)
        #expect(message.reviewURL?.host == "apps.apple.com")
        #expect(message.buttonLabel == "Rate us" && message.authorId == "t1")
        #expect(message.createdAt.timeIntervalSince1970 == 1_790_330_400)
        #expect(message.actionClickedAt?.timeIntervalSince1970 == 1_790_244_000)
    }

    @Test func absentKindMeansText() throws {
        let message = try decode(Message.self, """
            {"id": "m2", "clientId": "C1", "seq": 1, "sender": "USER", "text": "", "attachments": [],
             "createdAt": "2026-09-25T10:00:00Z"}
            """)
        #expect(message.kind == .text)
        #expect(message.clientId == "C1")
        #expect(!message.sender.isIncoming)
        #expect(message.reviewURL == nil)
    }

    /// Server-defined values the client does not know must survive a decode and an encode unchanged.
    @Test func unknownServerValuesRoundTrip() throws {
        let message = try decode(Message.self, """
            {"id": "m3", "seq": 2, "sender": "SYSTEM", "text": "note", "attachments": [],
             "createdAt": "2026-09-25T10:00:00Z", "kind": "POLL"}
            """)
        #expect(message.sender.rawValue == "SYSTEM" && message.sender.isIncoming)
        #expect(message.kind.rawValue == "POLL")
        let again = try decode(Message.self, String(decoding: try ReceptionJSON.encode(message), as: UTF8.self))
        #expect(again == message)

        let conversation = try decode(ConversationSummary.self, """
            {"id": "c1", "status": "SNOOZED", "unreadForUser": 2, "createdAt": "2026-09-25T10:00:00Z"}
            """)
        #expect(conversation.status.rawValue == "SNOOZED" && !conversation.status.isOpen)
        let encoded = try object(try ReceptionJSON.encode(conversation))
        #expect(encoded["status"] as? String == "SNOOZED")
    }

    @Test func aReviewWithoutAUsableLinkHasNoCardURL() throws {
        for link in ["", "not a url", "javascript:alert(1)", "ftp://x/y"] {
            var message = try decode(Message.self, """
                {"id": "m", "seq": 1, "sender": "AGENT", "text": "t", "attachments": [],
                 "createdAt": "2026-09-25T10:00:00Z", "kind": "REVIEW"}
                """)
            message.reviewUrl = link
            #expect(message.reviewURL == nil, "\(link)")
        }
    }

    @Test(arguments: [
        #"{"id": "m", "seq": 1, "sender": "AGENT", "text": "t", "attachments": [], "createdAt": "yesterday"}"#,
        #"{"id": "m", "seq": 1, "sender": "AGENT", "text": "t", "createdAt": "2026-09-25T10:00:00Z"}"#,
        #"{"id": "m", "sender": "AGENT", "text": "t", "attachments": [], "createdAt": "2026-09-25T10:00:00Z"}"#,
        #"{"id": "m", "seq": "1", "sender": "AGENT", "text": "t", "attachments": [], "createdAt": "2026-09-25T10:00:00Z"}"#,
    ])
    func aMalformedMessageIsInvalidResponse(json: String) {
        #expect(throws: ReceptionError.invalidResponse(status: 200)) {
            try ReceptionJSON.decode(Message.self, from: Data(json.utf8), status: 200)
        }
    }

    @Test func sequenceNumbersAre64Bit() throws {
        let message = try decode(Message.self, """
            {"id": "m", "seq": 9007199254740991, "sender": "AGENT", "text": "t", "attachments": [],
             "createdAt": "2026-09-25T10:00:00Z"}
            """)
        #expect(message.seq == Limits.maximumSafeSequence)
    }

    @Test func devicePayloadOmitsWhatItDoesNotKnow() throws {
        let payload = DevicePayload(
            sdkVersion: "0.1.0", appVersion: "1.0", appBuild: "1", osVersion: "6.1", deviceModel: "x86_64",
            locale: "en_US", timezone: "Europe/Berlin", language: "en", pushToken: "ab01", pushEnvironment: nil)
        let json = try object(try ReceptionJSON.encode(payload))
        #expect(Set(json.keys) == ["platform", "sdkVersion", "appVersion", "appBuild", "osVersion", "deviceModel",
                                   "locale", "timezone", "language", "paywalls", "metadata", "updatesAppBadge"])
        #expect(json["platform"] as? String == "ios")
        #expect(json["updatesAppBadge"] as? Bool == true)
        #expect((json["metadata"] as? [String: String])?.isEmpty == true)
        #expect((json["paywalls"] as? [Any])?.isEmpty == true)
    }

    @Test func devicePayloadCarriesThePushPairOnlyOnUpdates() throws {
        let payload = DevicePayload(
            sdkVersion: "0.1.0", appVersion: "2.3", appBuild: "45", osVersion: "6.1", deviceModel: "x86_64",
            locale: "de_DE", timezone: "Europe/Berlin", language: "de", bundleId: "com.example.app",
            externalUserId: "u1", name: "Ada", email: "ada@example.com", pushToken: "ab01",
            pushEnvironment: .sandbox, paywalls: [ReceptionPaywall(id: "pro", title: "Pro")], metadata: ["plan": "pro"],
            updatesAppBadge: false, identityToken: "h.p.s")
        let update = try object(try ReceptionJSON.encode(payload))
        #expect(update["pushToken"] as? String == "ab01")
        #expect(update["pushEnvironment"] as? String == "SANDBOX")
        #expect(update["identityToken"] as? String == "h.p.s")
        #expect(update["updatesAppBadge"] as? Bool == false)
        #expect((update["paywalls"] as? [[String: String]]) == [["id": "pro", "title": "Pro"]])
        let registration = try object(try ReceptionJSON.encode(payload.forRegistration))
        #expect(registration["pushToken"] == nil && registration["pushEnvironment"] == nil)
        #expect(registration["identityToken"] as? String == "h.p.s")
        let decoded = try decode(DevicePayload.self, String(decoding: try ReceptionJSON.encode(payload), as: UTF8.self))
        #expect(decoded == payload)
    }

    @Test func teamMemberPhotoURLIsNullableAndTheCacheKeyPrefersPhotoId() throws {
        let legacy = try decode(TeamMember.self, #"{"id": "t1", "name": "Sam", "photoUrl": "https://x/p?sig=1"}"#)
        #expect(legacy.photoCacheKey == "https://x/p?sig=1")
        let current = try decode(TeamMember.self,
                                 #"{"id": "t1", "name": "Sam", "photoUrl": "https://x/p?sig=2", "photoId": "ph1"}"#)
        #expect(current.photoCacheKey == "ph1")
        let none = try decode(TeamMember.self, #"{"id": "t2", "name": "Kim", "photoUrl": null}"#)
        #expect(none.photoCacheKey == nil)
        let json = try object(try ReceptionJSON.encode(none))
        #expect(json.keys.contains("photoUrl") && json["photoUrl"] is NSNull)
    }

    @Test func deviceFlagsDistinguishAbsentFromFalse() throws {
        let absent = try decode(DeviceFlags.self, "{}")
        #expect(absent.blocked == nil && absent.verificationRequired == nil)
        let set = try decode(DeviceFlags.self, #"{"blocked": false, "verificationRequired": true}"#)
        #expect(set.blocked == false && set.verificationRequired == true)
    }

    @Test func compactConversationNeedsOnlyStatus() throws {
        let compact = try decode(CompactConversation.self, #"{"status": "OPEN"}"#)
        #expect(compact.id == nil && compact.status.isOpen)
        #expect(throws: (any Error).self) { try decode(CompactConversation.self, #"{"id": "c"}"#) }
    }

    // Spec 4.7 and 7.11: the first stage whose age bound is not reached applies; everySeconds <= 0 disables.
    @Test(arguments: [
        (0.0, 15), (59.9, 15), (60.0, 60), (599.0, 60), (600.0, 600), (86_399.0, 600),
    ] as [(Double, Int)])
    func defaultPollingStages(age: Double, interval: Int) {
        #expect(UnreadPollingStage.interval(forActivityAge: age, stages: UnreadPollingStage.defaults) == interval)
    }

    @Test func pollingStopsAfterTheLastStageOrWhenAStageDisablesIt() {
        #expect(UnreadPollingStage.interval(forActivityAge: 86_400, stages: UnreadPollingStage.defaults) == nil)
        #expect(UnreadPollingStage.interval(forActivityAge: 0, stages: []) == nil)
        let stages = [UnreadPollingStage(forMinutes: 5, everySeconds: 0), UnreadPollingStage(forMinutes: 10, everySeconds: 30)]
        #expect(UnreadPollingStage.interval(forActivityAge: 10, stages: stages) == nil)
        #expect(UnreadPollingStage.interval(forActivityAge: 400, stages: stages) == 30)
    }
}
