import Foundation
import ReceptionCore
import Testing

@Suite("ReceptionErrorTests")
struct ReceptionErrorTests {
    @Test func equalityIsByCodeAndStatusOnly() {
        let a = ReceptionError(code: "rate_limited", status: 429, retryAfter: 5, retryScope: .messages)
        let b = ReceptionError(code: "rate_limited", status: 429, retryAfter: 90, retryScope: .uploads)
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        #expect(a != ReceptionError(code: "rate_limited", status: 503))
        #expect(a != ReceptionError(code: "blocked", status: 429))
    }

    @Test func clientCodesAreTheSpecStrings() {
        #expect(ReceptionError.connectionFailed().code == "connection_failed")
        #expect(ReceptionError.connectionFailed().status == 0)
        #expect(ReceptionError.cancelled.code == "cancelled")
        #expect(ReceptionError.secureStorageUnavailable == ReceptionError(code: "secure_storage_unavailable", status: 0))
        #expect(ReceptionError.invalidResponse(status: 200) == ReceptionError(code: "invalid_response", status: 200))
        #expect(ReceptionError.invalidImage.code == "invalid_image")
        #expect(ReceptionError.Code.imageTooLarge == "image_too_large")
        #expect(ReceptionError.Code.deleteFailed == "delete_failed")
    }

    @Test func cooldownCarriesAtLeastOneSecondAndItsScope() {
        let error = ReceptionError.cooldown(retryAfter: 0, scope: .uploads)
        #expect(error.code == "cooldown" && error.status == 0)
        #expect(error.retryAfter == 1)
        #expect(error.retryScope == .uploads)
    }

    // Spec 6.2: which failures are worth an automatic retry.
    @Test(arguments: [
        (ReceptionError.connectionFailed(transportCode: -1001), true),
        (ReceptionError(code: "upload_failed", status: 0, transportCode: -1009), true),
        (ReceptionError(code: "http_error", status: 500), true),
        (ReceptionError(code: "delete_failed", status: 503), true),
        (ReceptionError(code: "http_error", status: 408), true),
        (ReceptionError(code: "rate_limited", status: 429), true),
        (ReceptionError.cancelled, false),
        (ReceptionError.invalidResponse(status: 200), false),
        (ReceptionError(code: "blocked", status: 403), false),
        (ReceptionError(code: "invalid_attachment", status: 400), false),
        (ReceptionError.invalidImage, false),
        (ReceptionError(code: "upload_failed", status: 0), false),
    ])
    func transientClassification(error: ReceptionError, transient: Bool) {
        #expect(error.isTransient == transient, "\(error)")
    }

    @Test func descriptionNamesCodeAndStatusButNoSecrets() {
        let text = ReceptionError(code: "chat_reset", status: 409, resetRevision: 3).description
        #expect(text.contains("chat_reset") && text.contains("409") && text.contains("resetRevision: 3"))
    }

    @Test func everyEventOfSpec7_0Exists() {
        let events: [ReceptionEvent] = [
            .chatOpened, .messageSent, .imageSent, .reviewOpened, .paywallOpened, .dataDeleted,
            .identityRejected(ReceptionError(code: "identity_token_expired", status: 401)),
        ]
        #expect(Set(events).count == 7)
        guard case .identityRejected(let error) = events[6] else {
            Issue.record("identityRejected lost its payload")
            return
        }
        #expect(error.code == "identity_token_expired" && error.status == 401)
    }
}

/// `ReceptionError.Code` is a string struct, not an enum (seed 000: "handle unknown strings with a fallback").
@Suite("ReceptionErrorCodeTests")
struct ReceptionErrorCodeTests {
    @Test func aCodeComparesWithTheStringHostsSeeInEitherOrder() {
        let error = ReceptionError(code: .deleteFailed, status: 503)
        #expect(error.code == "delete_failed", "code stays a String")
        #expect(error.code == ReceptionError.Code.deleteFailed)
        #expect(ReceptionError.Code.deleteFailed == error.code)
        #expect(error.code != ReceptionError.Code.connectionFailed)
        #expect(ReceptionError.Code("Delete_Failed") != error.code, "equality is exact, case included")
        let missing: String? = nil
        #expect(missing != ReceptionError.Code.cancelled)
    }

    @Test func anUnknownCodeIsJustAnotherValue() {
        let code = ReceptionError.Code(rawValue: "brand_new_code")
        #expect(code.rawValue == "brand_new_code")
        #expect(code == ReceptionError.Code("brand_new_code"))
        #expect("\(code)" == "brand_new_code")
        #expect(ReceptionError(code: code).code == "brand_new_code")
    }

    @Test(arguments: ["blocked", "verification_required", "something_else"])
    func aSwitchOverTheStringMatchesTheConstantsAndFallsBack(raw: String) {
        let handled: String
        switch ReceptionError(code: raw, status: 403).code {
        case ReceptionError.Code.blocked: handled = "blocked"
        case ReceptionError.Code.verificationRequired: handled = "verification"
        default: handled = "fallback"
        }
        let expected = ["blocked": "blocked", "verification_required": "verification"][raw] ?? "fallback"
        #expect(handled == expected)
    }
}
