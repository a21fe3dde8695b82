import Digest
import Foundation

/// `reception-emulator --seed demo`: a realistic inbox at once (issue 19). Every record is made through the
/// emulator's own endpoints, so the demo data passes the same checks as a real client's: a verified customer (an
/// identity token signed with the identity secret), an unverified one, a guest, a blocked device, photos both ways,
/// a review card and a paywall card.
extension ReceptionEmulator {
    /// The names `--seed` accepts.
    public static let seedNames = ["demo"]

    /// Fills an emulator without devices; one that has some is left as it is (`false`).
    @discardableResult
    public func seedDemo() throws -> Bool {
        guard state.withLock({ (try? $0.db.row("SELECT COUNT(*) AS n FROM devices")?.int("n")) ?? 0 }) == 0 else {
            return false
        }
        _ = try call("PUT", "/admin/team", admin: true, json: [
            "members": [["id": "mia", "name": "Mia"], ["id": "sam", "name": "Sam"]],
        ])
        _ = try call("PATCH", "/admin/app", admin: true, json: ["appStoreId": "1234567890", "push": ["appName": "Acme Shop"]])
        let now = state.withLock { $0.now }

        // A verified customer with photos both ways and a review card.
        let claims = JSONValue.object([
            "user_id": "cust-1001", "name": "Ada Lovelace", "email": "ada@example.com", "exp": .int(Int64(now) + 30 * 86_400),
        ]).serialized()
        let ada = try register([
            "identityToken": .string(identityToken(claims: claims)), "pushToken": .string(String(repeating: "a1", count: 32)),
            "pushEnvironment": "SANDBOX",
        ])
        try userSend(ada.token, "Hi! My order #4417 arrived with a cracked lid.")
        try userSend(ada.token, "Here is a photo.", photo: true)
        try agentSend(ada.id, ["text": "So sorry about that, Ada. A replacement ships today.", "authorId": "mia"])
        try agentSend(ada.id, ["text": "This is the new one, packed with extra padding.", "authorId": "mia",
            "photos": [["data": .string(Self.demoPhoto), "width": 48, "height": 36]]])
        try userSend(ada.token, "Perfect, thank you!")
        try agentSend(ada.id, ["kind": "REVIEW", "text": "Glad we could help! Would you rate us?", "authorId": "mia",
            "reviewUrl": "https://apps.apple.com/app/id1234567890?action=write-review"])

        // An unverified customer (labels the app supplied) with a paywall card.
        let grace = try register([
            "externalUserId": "grace-42", "name": "Grace Hopper", "email": "grace@example.com",
            "paywalls": [["id": "pro-yearly", "title": "Pro, yearly"]],
        ])
        try userSend(grace.token, "Is there a discount on the yearly plan?")
        try agentSend(grace.id, ["kind": "PAYWALL", "text": "Yes — 30% off the first year this week.", "authorId": "sam",
            "paywallId": "pro-yearly", "buttonLabel": "See the offer"])

        // A guest, still waiting for an answer.
        let guest = try register([:])
        try userSend(guest.token, "How do I change my delivery address?")

        // A blocked device.
        let blocked = try register(["name": "Spam Bot"])
        try userSend(blocked.token, "BUY CHEAP FOLLOWERS")
        _ = try call("POST", "/admin/devices/\(blocked.id)/block", admin: true, json: [:])
        requestLog.clear()
        return true
    }

    private struct DemoDevice {
        var id: String
        var token: String
    }

    /// The demo photo (a 48×36 JPEG), standard Base64.
    static let demoPhoto = """
        /9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAoHBwgHBgoICAgLCgoLDhgQDg0NDh0VFhEYIx8lJCIfIiEmKzcvJik0KSEiMEExNDk7Pj4+JS5ESUM8SDc9Pjv/2wBDAQoLCw4NDhwQEBw7KCIoOzs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozv/wAARCAAkADADASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwCWiitbw3pA1fUwkqk28Q3y4JGfQZ9z+gNfSTkoRcn0PHjFydkVbHSL/U8mztXlVercBe3GTxnkcU+90PU9OiEt1aOkfdwQwHTqQTjr3r1BEWNFRFCoowqqMAD0FOrzPr8r7aHb9VjbfU8eorofF2ix6bdpc20ey3nzlR0R+49gR0Hsewrnq9KnNVIqSOOcXF2YV1vgKaNZ72Et+8dUZRjqASD/AOhD865Kp7G9m069iu7cgSRnI3DIPYg/gamtT9pTcR05ck1I9aorF07xVpl+nzzC1lAyyTEKO3Ruh6/XjpUl74m0mxiDm6Sdj0SAhyenpwOvcivD9jUvy21PT9pC17mb47mjXS7eEt+8ebcox1AUg/8AoQ/OuGq7q+qzaxftdTKF42og/hXsM9+p5qlXtYem6dNRe55tWfPO6CiiitzIKKKKACiiigD/2Q==
        """

    /// One request through the router as a client would send it; throws unless it answers 2xx.
    private func call(
        _ method: String, _ target: String, admin: Bool = false, token: String? = nil, json: JSONValue? = nil,
        headers extra: [String: String] = [:], body raw: [UInt8]? = nil
    ) throws -> JSONValue {
        let credentials = self.credentials
        var headers = extra
        if admin { headers["authorization"] = "Bearer \(credentials.adminToken)" }
        if target.hasPrefix("/v1/") { headers["x-app-id"] = credentials.appId }
        if let token { headers["authorization"] = "Bearer \(token)" }
        let components = URLComponents(string: target)
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        let request = HTTPRequest(
            method: method, path: components?.path ?? target, query: query, headers: headers,
            body: raw ?? json.map { Array($0.serialized().utf8) } ?? [])
        let response = handle(request)
        guard (200..<300).contains(response.status), case .bytes(let bytes) = response.body else {
            throw APIError(500, "seed_failed", "The demo seed's \(method) \(components?.path ?? target) answered \(response.status).")
        }
        return bytes.isEmpty ? .object([:]) : ((try? JSONValue.parse(bytes)) ?? .object([:]))
    }

    private func register(_ extra: [String: JSONValue]) throws -> DemoDevice {
        var payload: [String: JSONValue] = [
            "platform": "ios", "sdkVersion": "1.1.0", "appVersion": "2.4", "appBuild": "118", "osVersion": "18.2",
            "deviceModel": "iPhone17,1", "locale": "en_US", "timezone": "Europe/Berlin", "language": "en",
            "paywalls": [], "metadata": ["plan": "free"], "updatesAppBadge": true,
        ]
        payload.merge(extra) { _, new in new }
        let answer = try call("POST", "/v1/devices", json: .object(payload))
        guard let token = answer["token"]?.stringValue,
            let id = state.withLock({ $0.deviceId(bearerOf: HTTPRequest(method: "GET", path: "/", headers: ["authorization": "Bearer \(token)"])) })
        else { throw APIError(500, "seed_failed", "The demo registration gave no token.") }
        return DemoDevice(id: id, token: token)
    }

    private func userSend(_ token: String, _ text: String, photo: Bool = false) throws {
        var attachmentIds: [JSONValue] = []
        if photo, let bytes = Base64.decode(Self.demoPhoto) {
            let reservation = try call("POST", "/v1/uploads", token: token, json: [
                "requestId": .string(UUID().uuidString), "contentType": "image/jpeg", "bytes": .int(Int64(bytes.count)),
                "width": 48, "height": 36, "checksum": .string(Base64.encode(SHA256.hash(bytes))),
            ])
            guard let id = reservation["attachmentId"]?.stringValue, let url = reservation["uploadUrl"]?.stringValue,
                let parsed = URLComponents(string: url)
            else { throw APIError(500, "seed_failed", "The demo upload got no URL.") }
            var headers: [String: String] = [:]
            for (name, value) in reservation["headers"]?.objectValue ?? [:] { headers[name.lowercased()] = value.stringValue }
            let target = parsed.path + (parsed.percentEncodedQuery.map { "?" + $0 } ?? "")
            _ = try call("PUT", target, headers: headers, body: bytes)
            attachmentIds = [.string(id)]
        }
        _ = try call("POST", "/v1/conversation/messages", token: token, json: [
            "clientId": .string(UUID().uuidString), "text": .string(text), "attachmentIds": .array(attachmentIds),
        ])
    }

    private func agentSend(_ deviceId: String, _ body: [String: JSONValue]) throws {
        _ = try call("POST", "/admin/devices/\(deviceId)/messages", admin: true, json: .object(body))
    }

    /// An HS256 identity token for `claims` (JSON text), signed with the identity secret (seed 000).
    private func identityToken(claims: String) -> String {
        let secret = credentials.identitySecret ?? ""
        let head = Base64.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8), alphabet: .url)
        let body = Base64.encode(Array(claims.utf8), alphabet: .url)
        let mac = HMACSHA256.authenticationCode(for: Array((head + "." + body).utf8), key: Array(secret.utf8))
        return head + "." + body + "." + Base64.encode(mac, alphabet: .url)
    }
}
