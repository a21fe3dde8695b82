import Foundation
import ReceptionCore
import Testing

@Suite("ErrorEnvelopeTests")
struct ErrorEnvelopeTests {
    func decode(_ json: String) -> ErrorEnvelope? {
        try? ReceptionJSON.makeDecoder().decode(ErrorEnvelope.self, from: Data(json.utf8))
    }

    @Test func decodesTheSpecExample() throws {
        let envelope = try #require(decode(
            #"{"error": {"code": "rate_limited", "message": "Please wait.", "retryScope": "messages", "resetRevision": 3}}"#))
        #expect(envelope.code == "rate_limited")
        #expect(envelope.message == "Please wait.")
        #expect(envelope.retryScope == .messages)
        #expect(envelope.resetRevision == 3)
    }

    @Test(arguments: [
        #"{"error": {"message": "no code"}}"#,
        #"{"error": {"code": "blocked"}}"#,
        #"{"code": "blocked", "message": "flat"}"#,
        #"["error"]"#,
        "not json",
        "",
    ])
    func bodiesWithoutCodeAndMessageAreNoEnvelope(json: String) {
        #expect(decode(json) == nil)
    }

    // Spec 5.1: an unknown or wrongly-typed retryScope is ignored without invalidating the rest.
    @Test(arguments: [#""everything""#, "42", "null", "{}", #""""#, #""Messages""#])
    func malformedScopeKeepsCodeAndResetRevision(scope: String) throws {
        let envelope = try #require(decode(
            #"{"error": {"code": "chat_reset", "message": "m", "retryScope": \#(scope), "resetRevision": 7}}"#))
        #expect(envelope.retryScope == nil)
        #expect(envelope.code == "chat_reset")
        #expect(envelope.resetRevision == 7)
    }

    @Test func wronglyTypedResetRevisionIsIgnored() throws {
        let envelope = try #require(decode(#"{"error": {"code": "chat_reset", "message": "m", "resetRevision": "3"}}"#))
        #expect(envelope.resetRevision == nil)
    }

    @Test func becomesAReceptionErrorWithTheResponseStatus() {
        let error = ErrorEnvelope(code: "chat_reset", message: "m", retryScope: .session, resetRevision: 4)
            .error(status: 409, retryAfter: 10)
        #expect(error == ReceptionError(code: "chat_reset", status: 409))
        #expect(error.resetRevision == 4)
        #expect(error.retryScope == .session)
        #expect(error.retryAfter == 10)
        #expect(ErrorEnvelope(code: "blocked", message: "m", resetRevision: 4).error(status: 403).resetRevision == nil)
    }

    @Test func encodesTheNestedShape() throws {
        let data = try ReceptionJSON.encode(ErrorEnvelope(code: "blocked", message: "Blocked."))
        #expect(String(decoding: data, as: UTF8.self) == #"{"error":{"code":"blocked","message":"Blocked."}}"#)
    }
}
