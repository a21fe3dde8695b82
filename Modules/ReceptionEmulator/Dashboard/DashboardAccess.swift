import Foundation
import Digest

/// Who may use the dashboard (Docs/Dashboard.md "Sign-in"): each team member's sign-in secret, the session cookies
/// they handed out (each naming its member), and the CSRF token of each session. Lives in ``EmulatorState`` (one
/// request at a time); nothing of it is stored, so a restart signs every browser out and makes new links.
struct DashboardAccess {
    /// Sign-in secrets: member ID → the secret of its `…/dashboard/sign-in/<secret>` link (one a member, made on
    /// first use).
    private(set) var links: [(memberId: String, secret: String)] = []
    /// Open sessions: cookie value, the member it signed in, and when it was created (oldest dropped past
    /// ``sessionLimit``).
    private(set) var sessions: [(id: String, memberId: String, createdAt: Double)] = []

    /// Browsers signed in at once; one more drops the oldest session (a client that signs in in a loop cannot grow
    /// the list).
    static let sessionLimit = 64
    /// The cookie's name.
    static let cookieName = "reception_dashboard"
    /// The header state-changing calls carry.
    static let csrfHeader = "x-csrf-token"

    /// The sign-in secret of `memberId`, made with `random` the first time it is asked for.
    mutating func link(for memberId: String, random: () -> String) -> String {
        if let link = links.first(where: { $0.memberId == memberId }) { return link.secret }
        let secret = random()
        links.append((memberId, secret))
        return secret
    }

    /// The member whose sign-in secret `candidate` is. Every secret is compared in constant time.
    func member(ofSecret candidate: String) -> String? {
        var found: String?
        for link in links where HMACSHA256.constantTimeEquals(Array(candidate.utf8), Array(link.secret.utf8)) {
            found = link.memberId
        }
        return found
    }

    /// Opens a session of `memberId` and returns its cookie value.
    mutating func open(id: String, memberId: String, now: Double) -> String {
        sessions.append((id, memberId, now))
        if sessions.count > Self.sessionLimit { sessions.removeFirst(sessions.count - Self.sessionLimit) }
        return id
    }

    /// Ends the session `id` (sign-out).
    mutating func close(_ id: String) {
        sessions.removeAll { HMACSHA256.constantTimeEquals(Array($0.id.utf8), Array(id.utf8)) }
    }

    /// Drops the links and sessions of members not in `members` (removed from the team): their browsers are signed
    /// out and their links stop working.
    mutating func forget(keeping members: Set<String>) {
        links.removeAll { !members.contains($0.memberId) }
        sessions.removeAll { !members.contains($0.memberId) }
    }

    /// The session the request's cookie names, if it is open, with its member. Every open session is compared in
    /// constant time, so the answer's timing says nothing about how much of a guess matched.
    /// A header may carry the name more than once (a stale cookie beside a fresh one): any value may match.
    func session(of request: HTTPRequest) -> (id: String, memberId: String)? {
        var found: (id: String, memberId: String)?
        for value in Self.cookies(Self.cookieName, in: request.header("cookie") ?? "").prefix(4) {
            for session in sessions where HMACSHA256.constantTimeEquals(Array(session.id.utf8), Array(value.utf8)) {
                found = (session.id, session.memberId)
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
