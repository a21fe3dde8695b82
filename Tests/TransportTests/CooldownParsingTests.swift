import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
import Transport

@Suite("CooldownParsingTests")
struct CooldownParsingTests {
    // Spec 5.2.
    @Test(arguments: [
        ("5", 5), (" 7 ", 7), ("0", 1), ("86400", 86_400), ("86401", 86_400), ("999999999999999999999999", 86_400),
    ])
    func acceptedRetryAfterValues(header: String, seconds: Int) {
        #expect(RetryAfter.seconds(header) == seconds)
    }

    @Test(arguments: ["", "soon", "-1", "1.5", "Wed, 21 Oct 2026 07:28:00 GMT", "+5", "5s", "٣"])
    func rejectedRetryAfterValues(header: String) {
        #expect(RetryAfter.seconds(header) == nil)
    }

    @Test func missingRetryAfterIsNil() {
        #expect(RetryAfter.seconds(nil) == nil)
        #expect(RetryAfter.storageHintSeconds("900") == 300)
        #expect(RetryAfter.storageHintSeconds("12") == 12)
    }

    static func response(_ status: Int, scope: String? = nil, retryAfter: String? = "30") -> HTTPResponse {
        let scopeField = scope.map { #","retryScope":\#($0)"# } ?? ""
        return HTTPResponse(
            status: status, headers: retryAfter.map { ["Retry-After": $0] } ?? [:],
            body: Data(#"{"error":{"code":"rate_limited","message":"m"\#(scopeField)}}"#.utf8))
    }

    // Spec 6.3.3: the route table a 429 without a named scope falls back to.
    @Test(arguments: [
        (Route.send(withAttachments: false), RetryScope?.some(.messages)),
        (Route.reserveUpload, .uploads),
        (Route.register, .session),
        (Route.refreshToken, .session),
        (Route.events, .stream),
        (Route.unread, .requests),
        (Route.history(limits: false), .requests),
        (Route.typing, .requests),
        (Route.appearance, nil),
        (Route.logout, nil),
        (Route.deleteDevice, nil),
    ])
    func unscopedTooManyRequestsFallsBackToTheRoute(route: Route, scope: RetryScope?) {
        let failure = ResponseInterpreter.failure(Self.response(429), route: route)
        #expect(failure.cooldown?.scope == scope)
        #expect(failure.cooldown.map { $0.seconds } == (scope == nil ? nil : 30))
    }

    @Test func aNamedKnownScopeBeatsTheRoute() {
        let failure = ResponseInterpreter.failure(Self.response(429, scope: #""requests""#), route: .reserveUpload)
        #expect(failure.cooldown?.scope == .requests)
        #expect(failure.error.retryScope == .requests)
    }

    @Test(arguments: [#""""#, #""everything""#, "7", "null", #""Uploads""#])
    func anUnknownScopeFallsBackToTheRoute(scope: String) {
        let failure = ResponseInterpreter.failure(Self.response(429, scope: scope), route: .reserveUpload)
        #expect(failure.cooldown?.scope == .uploads)
        #expect(failure.error.code == "rate_limited")
    }

    @Test func only429AndScoped503StartCooldowns() {
        #expect(ResponseInterpreter.failure(Self.response(503, scope: #""uploads""#), route: .reserveUpload)
                    .cooldown?.scope == .uploads)
        #expect(ResponseInterpreter.failure(Self.response(503), route: .reserveUpload).cooldown == nil)
        #expect(ResponseInterpreter.failure(Self.response(503, scope: #""uploads""#, retryAfter: nil),
                                            route: .reserveUpload).cooldown == nil)
        #expect(ResponseInterpreter.failure(Self.response(500, scope: #""messages""#), route: .unread).cooldown == nil)
        #expect(ResponseInterpreter.failure(Self.response(429, retryAfter: "soon"), route: .unread).cooldown == nil)
        #expect(ResponseInterpreter.failure(Self.response(429, retryAfter: "soon"), route: .unread).error.retryAfter == nil)
    }

    // Spec 5.2: exempt routes never start a cooldown, but a 429 still paces their own retry.
    @Test func exemptRoutesKeepTheSecondsWithoutACooldown() {
        let failure = ResponseInterpreter.failure(Self.response(429, scope: #""session""#), route: .logout)
        #expect(failure.cooldown == nil)
        #expect(failure.error.retryAfter == 30)
    }

    @Test(arguments: [
        "<html><body>502 Bad Gateway</body></html>", "", "{}", #"{"error":"flat"}"#, #"{"error":{"code":"x"}}"#,
    ])
    func bodiesWithoutAnEnvelopeAreHTTPError(body: String) {
        let failure = ResponseInterpreter.failure(HTTPResponse(status: 502, body: Data(body.utf8)), route: .unread)
        #expect(failure.error == ReceptionError(code: "http_error", status: 502))
        #expect(failure.error.isTransient)
    }

    @Test func chatResetCarriesItsRevision() {
        let body = #"{"error":{"code":"chat_reset","message":"m","resetRevision":4,"retryScope":5}}"#
        let failure = ResponseInterpreter.failure(HTTPResponse(status: 409, body: Data(body.utf8)), route: .unread)
        #expect(failure.error == ReceptionError(code: "chat_reset", status: 409))
        #expect(failure.error.resetRevision == 4)
    }
}
