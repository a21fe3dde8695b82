import Digest
import Foundation
import Testing

/// One emulator with a registered device that already has a conversation, and requests whose bodies are written as
/// text, so a test controls every byte of a number literal (JSONSerialization would round it first).
struct SweepContext {
    let harness: EmulatorHarness
    let device: Device
    let conversationId: String

    static func make() async throws -> SweepContext {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        let sent = try await harness.send(device, "hello")
        let conversation = try #require(sent.json["conversation"] as? [String: Any])
        return SweepContext(
            harness: harness, device: device, conversationId: try #require(conversation["id"] as? String))
    }

    /// A `/v1/` request with the Reception headers, the device's token and `body` as it is.
    func api(_ method: String, _ path: String, body: String, token: String? = nil) async throws -> Reply {
        try await harness.raw(
            method, "/v1/" + path,
            headers: [
                "X-App-Id": harness.appId, "X-Reception-Revision": "0", "Content-Type": "application/json",
                "Authorization": "Bearer \(token ?? device.token)",
            ],
            body: Data(body.utf8))
    }

    /// An admin request with `body` as it is.
    func admin(_ method: String, _ path: String, body: String) async throws -> Reply {
        try await harness.raw(
            method, "/admin/" + path,
            headers: ["Authorization": "Bearer \(harness.adminToken)", "Content-Type": "application/json"],
            body: Data(body.utf8))
    }

    /// The emulator still serves an ordinary request of the device and of the team afterwards.
    func expectStillServing(after label: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let unread = try await harness.api("GET", "conversation/unread", token: device.token)
        #expect(unread.status == 200, "GET conversation/unread after \(label)", sourceLocation: sourceLocation)
        let app = try await harness.admin("GET", "app")
        #expect(app.status == 200, "GET /admin/app after \(label)", sourceLocation: sourceLocation)
    }

    /// An HS256 identity token over `payload` exactly as written (PyJWT would re-encode the numbers), signed with
    /// the emulator's identity secret.
    func identityToken(payload: String) -> String {
        let header = Base64.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8), alphabet: .url)
        let body = Base64.encode(Array(payload.utf8), alphabet: .url)
        let mac = HMACSHA256.authenticationCode(
            for: Array("\(header).\(body)".utf8), key: Array(harness.identitySecret.utf8))
        return "\(header).\(body).\(Base64.encode(mac, alphabet: .url))"
    }
}

/// What one request should answer: a status and, for errors, the envelope's code.
struct Outcome: Equatable, CustomStringConvertible {
    var status: Int
    var code: String?

    static func success(_ status: Int) -> Outcome { Outcome(status: status, code: nil) }
    static let invalidRequest = Outcome(status: 400, code: "invalid_request")

    /// `success` when `accepted`, else 400 `invalid_request`.
    static func accepted(_ accepted: Bool, _ status: Int) -> Outcome { accepted ? .success(status) : .invalidRequest }

    var description: String { code.map { "\(status) \($0)" } ?? "\(status)" }

    /// What `reply` actually was, in the same terms (the code only for errors).
    init(_ reply: Reply) { self.init(status: reply.status, code: reply.status >= 400 ? reply.errorCode : nil) }

    init(status: Int, code: String?) {
        self.status = status
        self.code = code
    }
}
