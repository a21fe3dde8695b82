import Digest
import Foundation
import Testing

/// Issue 15: no number in a request traps or wraps. Every numeric (and number-shaped) field of every route gets every
/// literal of ``NumberLiteral/all`` over HTTP: a value in the field's documented range is accepted, anything else is
/// 400 `invalid_request` (identity claims: 401 `identity_token_invalid` / `identity_token_expired`), and the
/// emulator serves an ordinary request afterwards.
@Suite("HostileNumberTests")
struct HostileNumberTests {
    /// One field of one route: how to put a literal into it, and what the answer must be.
    struct Field: Sendable, CustomStringConvertible {
        let description: String
        let send: @Sendable (SweepContext, NumberLiteral) async throws -> Reply
        let expected: @Sendable (SweepContext, NumberLiteral) -> Outcome
    }

    static let safe = -(NumberLiteral.twoTo53 - 1)...(NumberLiteral.twoTo53 - 1)
    static let checksum = Base64.encode(SHA256.hash(UploadEndpointTests.jpeg))
    static let photo = Base64.encode(UploadEndpointTests.jpeg)

    /// A field that refuses every number: it takes a string, a boolean or an array of strings.
    static func notANumber(
        _ name: String, _ send: @escaping @Sendable (SweepContext, String) async throws -> Reply
    ) -> Field {
        Field(description: name, send: { context, literal in try await send(context, literal.text) }) { _, _ in
            .invalidRequest
        }
    }

    static func upload(_ key: String, range: ClosedRange<Int64>) -> Field {
        Field(description: "POST /v1/uploads \(key)", send: { context, literal in
            var fields = ["\"bytes\"": "\(UploadEndpointTests.jpeg.count)", "\"width\"": "4", "\"height\"": "3"]
            fields["\"\(key)\""] = literal.text
            let numbers = fields.map { "\($0.key):\($0.value)" }.joined(separator: ",")
            return try await context.api(
                "POST", "uploads",
                body: #"{"requestId":"\#(UUID().uuidString)","contentType":"image/jpeg","checksum":"\#(checksum)","#
                    + numbers + "}")
        }) { _, literal in .accepted(literal.isWhole(in: range), 201) }
    }

    static func agentPhoto(_ key: String) -> Field {
        Field(description: "POST /admin/devices/<id>/messages photos[].\(key)", send: { context, literal in
            try await context.admin(
                "POST", "devices/\(context.device.id)/messages",
                body: #"{"text":"photo","photos":[{"data":"\#(photo)","\#(key)":\#(literal.text)}]}"#)
        }) { _, literal in .accepted(literal.isWhole(in: 1...100_000), 201) }
    }

    static func pollingStage(_ key: String, range: ClosedRange<Int64>) -> Field {
        Field(description: "PATCH /admin/app unreadPolling[].\(key)", send: { context, literal in
            let other = key == "forMinutes" ? #""everySeconds":30"# : #""forMinutes":5"#
            return try await context.admin(
                "PATCH", "app", body: #"{"unreadPolling":[{"\#(key)":\#(literal.text),\#(other)}]}"#)
        }) { _, literal in .accepted(literal.isWhole(in: range), 200) }
    }

    static func rateLimit(_ key: String, range: ClosedRange<Int64>) -> Field {
        // The `stream` scope: a limit of 0 there does not gate the follow-up requests.
        Field(description: "PUT /admin/rate-limits stream.\(key)", send: { context, literal in
            let other = key == "limit" ? #""windowSeconds":60"# : #""limit":100"#
            return try await context.admin(
                "PUT", "rate-limits", body: #"{"stream":{"\#(key)":\#(literal.text),\#(other)}}"#)
        }) { _, literal in .accepted(literal.isWhole(in: range), 200) }
    }

    static func fault(_ key: String, kind: String, range: ClosedRange<Int64>) -> Field {
        // A path no request takes, so an accepted fault never fires.
        Field(description: "POST /admin/faults \(kind) \(key)", send: { context, literal in
            try await context.admin(
                "POST", "faults", body: #"{"path":"/sweep/never","kind":"\#(kind)","\#(key)":\#(literal.text)}"#)
        }) { _, literal in .accepted(literal.isWhole(in: range), 201) }
    }

    /// Identity claims (seed 000): a bad claim is 401 with an identity code, never 400 and never a trap.
    static func identityClaim(_ name: String, payload: @escaping @Sendable (String) -> String,
                              expected: @escaping @Sendable (NumberLiteral, Double) -> Outcome) -> Field {
        Field(description: "identity token \(name)", send: { context, literal in
            let token = context.identityToken(payload: payload(literal.text))
            return try await context.harness.raw(
                "POST", "/v1/devices",
                headers: ["X-App-Id": context.harness.appId, "Content-Type": "application/json"],
                body: try JSONSerialization.data(withJSONObject: EmulatorHarness.payload(["identityToken": token])))
        }) { context, literal in expected(literal, context.harness.clock.now) }
    }

    /// Every byte but ASCII letters and digits as `%XX`, so `+`, spaces and non-ASCII digits reach the server as
    /// they are.
    static func percentEncoded(_ text: String) -> String {
        text.utf8.map { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                ? String(UnicodeScalar(byte)) : "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }.joined()
    }

    static let invalidToken = Outcome(status: 401, code: "identity_token_invalid")
    static let expiredToken = Outcome(status: 401, code: "identity_token_expired")

    static let fields: [Field] = [
        upload("bytes", range: 1...1_048_576),
        upload("width", range: 1...100_000),
        upload("height", range: 1...100_000),
        Field(description: "POST /v1/conversation/read throughSeq", send: { context, literal in
            try await context.api(
                "POST", "conversation/read",
                body: #"{"conversationId":"\#(context.conversationId)","throughSeq":\#(literal.text)}"#)
        }) { _, literal in .accepted(literal.isWhole(in: 0...(NumberLiteral.twoTo53 - 1)), 200) },
        notANumber("POST /v1/conversation/messages text") { context, number in
            try await context.api(
                "POST", "conversation/messages",
                body: #"{"clientId":"\#(UUID().uuidString)","text":\#(number),"attachmentIds":[]}"#)
        },
        notANumber("POST /v1/conversation/messages clientId") { context, number in
            try await context.api("POST", "conversation/messages", body: #"{"clientId":\#(number),"text":"x","attachmentIds":[]}"#)
        },
        notANumber("POST /v1/conversation/messages attachmentIds[]") { context, number in
            try await context.api(
                "POST", "conversation/messages",
                body: #"{"clientId":"\#(UUID().uuidString)","text":"x","attachmentIds":[\#(number)]}"#)
        },
        notANumber("POST /v1/conversation/read conversationId") { context, number in
            try await context.api("POST", "conversation/read", body: #"{"conversationId":\#(number),"throughSeq":1}"#)
        },
        notANumber("POST /v1/conversation/typing typing") { context, number in
            try await context.api("POST", "conversation/typing", body: #"{"typing":\#(number)}"#)
        },
        notANumber("POST /v1/conversation/action-click messageId") { context, number in
            try await context.api("POST", "conversation/action-click", body: #"{"messageId":\#(number)}"#)
        },
        notANumber("POST /v1/devices platform") { context, number in
            try await context.api("POST", "devices", body: #"{"platform":\#(number)}"#)
        },
        notANumber("PATCH /v1/devices/me metadata value") { context, number in
            try await context.api("PATCH", "devices/me", body: #"{"metadata":{"plan":\#(number)}}"#)
        },
        notANumber("PATCH /v1/devices/me updatesAppBadge") { context, number in
            try await context.api("PATCH", "devices/me", body: #"{"updatesAppBadge":\#(number)}"#)
        },
        notANumber("PATCH /v1/devices/me paywalls[].id") { context, number in
            try await context.api("PATCH", "devices/me", body: #"{"paywalls":[{"id":\#(number),"title":"Pro"}]}"#)
        },
        notANumber("POST /v1/devices/me/token sessionSecret") { context, number in
            try await context.api("POST", "devices/me/token", body: #"{"sessionSecret":\#(number)}"#)
        },
        identityClaim("user_id", payload: { #"{"user_id":\#($0),"exp":4102444800}"# }) { literal, _ in
            literal.isWhole(in: safe) ? .success(201) : invalidToken
        },
        identityClaim("exp", payload: { #"{"user_id":"u1","exp":\#($0)}"# }) { literal, now in
            guard let exp = literal.double else { return invalidToken }
            return exp > now ? .success(201) : expiredToken
        },
        identityClaim("nbf", payload: { #"{"user_id":"u1","exp":4102444800,"nbf":\#($0)}"# }) { literal, now in
            guard let nbf = literal.double else { return invalidToken }
            return nbf <= now ? .success(201) : invalidToken
        },
        pollingStage("forMinutes", range: 0...Int64(Int32.max)),
        // spec 4.7: everySeconds ≤ 0 disables polling, so negatives are accepted.
        pollingStage("everySeconds", range: Int64(Int32.min)...Int64(Int32.max)),
        notANumber("PATCH /admin/app disabled") { context, number in
            try await context.admin("PATCH", "app", body: #"{"disabled":\#(number)}"#)
        },
        notANumber("PATCH /admin/app push.appName") { context, number in
            try await context.admin("PATCH", "app", body: #"{"push":{"appName":\#(number)}}"#)
        },
        rateLimit("limit", range: 0...Int64(Int32.max)),
        rateLimit("windowSeconds", range: 1...86_400),
        fault("delayMs", kind: "delay", range: 0...60_000),
        fault("count", kind: "drop", range: 1...(NumberLiteral.twoTo53 - 1)),
        fault("status", kind: "status", range: 400...599),
        fault("retryAfter", kind: "status", range: safe),
        agentPhoto("width"),
        agentPhoto("height"),
        notANumber("POST /admin/devices/<id>/messages text") { context, number in
            try await context.admin("POST", "devices/\(context.device.id)/messages", body: #"{"text":\#(number)}"#)
        },
        notANumber("POST /admin/devices/<id>/typing typing") { context, number in
            try await context.admin("POST", "devices/\(context.device.id)/typing", body: #"{"typing":\#(number)}"#)
        },
        notANumber("POST /admin/devices/<id>/status status") { context, number in
            try await context.admin("POST", "devices/\(context.device.id)/status", body: #"{"status":\#(number)}"#)
        },
        notANumber("PUT /admin/team members[].id") { context, number in
            try await context.admin("PUT", "team", body: #"{"members":[{"id":\#(number),"name":"Mia"}]}"#)
        },
        notANumber("POST /admin/identity-secret markUnverified") { context, number in
            try await context.admin("POST", "identity-secret", body: #"{"markUnverified":\#(number)}"#)
        },
        // Stored and handed to every client whole: any Double is fine, a number beyond Double is refused.
        Field(description: "PUT /admin/appearance nested number", send: { context, literal in
            try await context.admin("PUT", "appearance", body: #"{"appearance":{"cornerRadius":[\#(literal.text)]}}"#)
        }) { _, literal in .accepted(literal.double != nil, 200) },
    ]

    @Test(arguments: fields)
    func everyLiteralGetsItsDocumentedAnswer(field: Field) async throws {
        let context = try await SweepContext.make()
        for literal in NumberLiteral.all {
            let reply = try await field.send(context, literal)
            let expected = field.expected(context, literal)
            #expect(
                Outcome(reply) == expected,
                "\(field) = \(literal): expected \(expected), got \(Outcome(reply)) \(String(decoding: reply.body, as: UTF8.self))")
            try await context.expectStillServing(after: "\(field) = \(literal)")
        }
    }

    @Test func acceptedIntegersAreStoredExactlyAndNeverWrapped() async throws {
        let context = try await SweepContext.make()
        // 2^53 − 1 is the largest throughSeq; written as a double it is the same number.
        let read = try await context.api(
            "POST", "conversation/read",
            body: #"{"conversationId":"\#(context.conversationId)","throughSeq":9007199254740991.0}"#)
        #expect(read.status == 200)
        #expect(read.json["readSeq"] as? Int64 == 9_007_199_254_740_991)
        let stages = try await context.admin(
            "PATCH", "app", body: #"{"unreadPolling":[{"forMinutes":2147483647,"everySeconds":-2147483648}]}"#)
        let stored = try #require((stages.json["unreadPolling"] as? [[String: Any]])?.first)
        #expect(stored["forMinutes"] as? Int == 2_147_483_647)
        #expect(stored["everySeconds"] as? Int == -2_147_483_648)
        let unread = try await context.harness.api("GET", "conversation/unread", token: context.device.token)
        #expect((unread.json["unreadPolling"] as? [[String: Any]])?.first?["everySeconds"] as? Int == -2_147_483_648)
        // An identity user_id written as 1e3 is the whole number 1000 (seed 000: its decimal string).
        let token = context.identityToken(payload: #"{"user_id":1e3,"exp":4102444800}"#)
        let registered = try await context.harness.api("POST", "devices", json: EmulatorHarness.payload(["identityToken": token]))
        #expect(registered.status == 201)
        #expect(registered.json["verifiedUserId"] as? String == "1000")
    }

    /// `after` is decimal digits for a `seq` in 0…2^53−1; anything else is 400 `invalid_request`.
    @Test(arguments: [
        ("0", 200), ("41", 200), ("0041", 200), ("9007199254740991", 200), ("9007199254740992", 400),
        ("9223372036854775807", 400), ("9223372036854775808", 400), ("-1", 400), ("-0", 400), ("+5", 400),
        (" 5", 400), ("5 ", 400), ("", 400), ("1e3", 400), ("1.0", 400), ("0x10", 400), ("١٢", 400),
        (String(repeating: "9", count: 10_000), 400),
    ])
    func afterQuery(after: String, status: Int) async throws {
        let context = try await SweepContext.make()
        let query = Self.percentEncoded(after)
        let reply = try await context.harness.raw(
            "GET", "/v1/conversation/messages?after=\(query)",
            headers: ["X-App-Id": context.harness.appId, "Authorization": "Bearer \(context.device.token)"])
        #expect(reply.status == status, "after=\(after)")
        if status == 400 { #expect(reply.errorCode == "invalid_request") }
        try await context.expectStillServing(after: "after=\(after)")
    }

    /// Paging has no `before` or `limit` (spec 3.6, 3.7): they are ignored, the page stays 50 messages, and no
    /// number in them allocates anything.
    @Test func unknownPagingQueriesAreIgnored() async throws {
        let context = try await SweepContext.make()
        for extra in ["limit=1000000000", "limit=-1", "limit=9223372036854775808", "before=1e309", "before=-9223372036854775808"] {
            for path in ["conversation", "conversation/messages"] {
                let reply = try await context.harness.raw(
                    "GET", "/v1/\(path)?\(extra)",
                    headers: ["X-App-Id": context.harness.appId, "Authorization": "Bearer \(context.device.token)"])
                #expect(reply.status == 200, "\(path)?\(extra)")
                #expect((reply.json["messages"] as? [Any])?.count == 1, "\(path)?\(extra)")
            }
        }
        try await context.expectStillServing(after: "paging queries")
    }

    /// `X-Reception-Revision` is a decimal integer (spec 1.2); a value below the device's reset revision (0 here) is
    /// 409 `chat_reset`, and one that does not read as a 64-bit integer counts as 0.
    @Test func revisionHeaderNumbersNeverTrap() async throws {
        let context = try await SweepContext.make()
        for literal in NumberLiteral.all.map(\.text) + ["", "abc", " 7 ", "+3", String(repeating: "9", count: 5000)] {
            let reply = try await context.harness.raw(
                "GET", "/v1/conversation/unread",
                headers: [
                    "X-App-Id": context.harness.appId, "Authorization": "Bearer \(context.device.token)",
                    "X-Reception-Revision": literal,
                ])
            // Digits for 0…2^53 − 1 (or nothing, which is 0) are a revision; anything else is refused.
            let trimmed = literal.trimmingCharacters(in: .whitespaces)
            let valid = trimmed.isEmpty
                || (trimmed.allSatisfy { $0.isASCII && $0.isNumber } && trimmed.count <= 16
                    && (Int64(trimmed) ?? .max) <= 9_007_199_254_740_991)
            #expect(reply.status == (valid ? 200 : 400), "X-Reception-Revision: \(literal)")
            if !valid { #expect(reply.errorCode == "invalid_request", "X-Reception-Revision: \(literal)") }
            try await context.expectStillServing(after: "X-Reception-Revision: \(literal)")
        }
    }

    /// The `expires` of a signed link: only the digits that were signed open it; every other number is refused
    /// with the link's documented 403, and serving continues.
    @Test func signedLinkExpiriesNeverTrap() async throws {
        let context = try await SweepContext.make()
        let signature = String(repeating: "0", count: 64)
        for literal in NumberLiteral.all.map(\.text) + ["", "+1", String(repeating: "9", count: 5000)] {
            let expires = Self.percentEncoded(literal)
            for (path, method, code) in [
                ("/files/att_x", "GET", "expired_link"), ("/team-photos/abc", "GET", "expired_link"),
                ("/storage/att_x", "PUT", "invalid_signature"),
            ] {
                let reply = try await context.harness.raw(method, "\(path)?expires=\(expires)&sig=\(signature)")
                #expect(reply.status == 403, "\(method) \(path)?expires=\(literal)")
                #expect(reply.errorCode == code, "\(method) \(path)?expires=\(literal)")
            }
        }
        try await context.expectStillServing(after: "signed link expiries")
    }
}
