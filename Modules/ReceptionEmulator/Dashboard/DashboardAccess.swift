import Foundation
import Digest

/// Who may use the dashboard (Docs/Dashboard.md "Sign-in"): the secret of the printed sign-in URL, the session
/// cookies it handed out, and the CSRF token of each session. Lives in ``EmulatorState`` (one request at a time).
struct DashboardAccess {
    /// The secret in `…/dashboard/sign-in/<secret>`: fresh on every start, never stored.
    let secret: String
    /// Open sessions: cookie value → when it was created (oldest dropped past ``sessionLimit``).
    private(set) var sessions: [(id: String, createdAt: Double)] = []

    /// Browsers signed in at once; one more drops the oldest session (a client that signs in in a loop cannot grow
    /// the list).
    static let sessionLimit = 64
    /// The cookie's name.
    static let cookieName = "reception_dashboard"
    /// The header state-changing calls carry.
    static let csrfHeader = "x-csrf-token"

    init(secret: String) { self.secret = secret }

    /// Whether `candidate` is the sign-in secret (constant time).
    func isSecret(_ candidate: String) -> Bool {
        HMACSHA256.constantTimeEquals(Array(candidate.utf8), Array(secret.utf8))
    }

    /// Opens a session and returns its cookie value.
    mutating func open(id: String, now: Double) -> String {
        sessions.append((id, now))
        if sessions.count > Self.sessionLimit { sessions.removeFirst(sessions.count - Self.sessionLimit) }
        return id
    }

    /// Ends the session `id` (sign-out).
    mutating func close(_ id: String) {
        sessions.removeAll { HMACSHA256.constantTimeEquals(Array($0.id.utf8), Array(id.utf8)) }
    }

    /// The session the request's cookie names, if it is open. Every open session is compared in constant time, so
    /// the answer's timing says nothing about how much of a guess matched.
    /// A header may carry the name more than once (a stale cookie beside a fresh one): any value may match.
    func session(of request: HTTPRequest) -> String? {
        var found: String?
        for value in Self.cookies(Self.cookieName, in: request.header("cookie") ?? "").prefix(4) {
            for session in sessions where HMACSHA256.constantTimeEquals(Array(session.id.utf8), Array(value.utf8)) {
                found = session.id
            }
        }
        return found
    }

    /// The CSRF token of `session`: an HMAC of the session under `key`, so it needs no storage and differs per
    /// session.
    static func csrfToken(session: String, key: String) -> String {
        Hex.encode(HMACSHA256.authenticationCode(for: Array("dashboard-csrf:\(session)".utf8), key: Array(key.utf8)))
    }

    /// Whether `request` carries the CSRF token of `session` (constant time).
    static func hasCSRFToken(_ request: HTTPRequest, session: String, key: String) -> Bool {
        guard let sent = request.header(csrfHeader) else { return false }
        return HMACSHA256.constantTimeEquals(Array(sent.utf8), Array(csrfToken(session: session, key: key).utf8))
    }

    /// The values of cookie `name` in a `Cookie` header (`a=1; b=2`), in order.
    static func cookies(_ name: String, in header: String) -> [String] {
        header.split(separator: ";").compactMap { part in
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces) == name else { return nil }
            return pair[1].trimmingCharacters(in: .whitespaces)
        }
    }
}
