/// A team member's role (seed 000): Owners manage the app — the identity secret, the APNs key, the app's settings,
/// the team — and Agents work the inbox, the conversations and the customer details.
enum TeamRole: String {
    case owner, agent

    /// `role` of a request body: `"owner"` or `"agent"`.
    init(json value: JSONValue) throws(APIError) {
        guard let text = value.stringValue, let role = TeamRole(rawValue: text) else {
            throw APIError.invalidRequest("role is \"owner\" or \"agent\"")
        }
        self = role
    }
}

/// Who calls the admin API: the member a dashboard session signed in, or the emulator's operator (the admin token),
/// who has an Owner's rights and no member of its own.
struct TeamCaller {
    var memberId: String?
    var name: String?
    var role: TeamRole

    static let operator_ = TeamCaller(memberId: nil, name: nil, role: .owner)

    var json: JSONValue {
        [
            "member": memberId.map { ["id": .string($0), "name": .optional(name), "role": .string(role.rawValue)] }
                ?? .null,
            "role": .string(role.rawValue),
        ]
    }
}

extension APIError {
    /// 403 for an Agent calling an owner-only endpoint: the stable code the dashboard and the probe check.
    static let ownerRequired = APIError(
        403, "owner_required",
        "Only an Owner of the team can do this (the identity secret, the app's settings, Chat appearance, the APNs "
            + "key, team members, Reset support, device deletion, Mark unverified, test pushes and the emulator's state). "
            + "You are signed in as an Agent.")
}

/// Team roles and members (seed 000, Docs/Emulator.md "Team members and roles"): the owner-only endpoints, the
/// member endpoints an Owner invites and removes with, each member's sign-in link, and the rule that the team always
/// has an Owner.
extension EmulatorState {
    /// Whether the admin endpoint `method` `path` (after `admin`) is an Owner's: the identity secret (reveal,
    /// rotate, remove), app settings (`PATCH app`: identity, app switch, App Store ID, notification content and offer
    /// pushes, polling), publishing Chat appearance and its images (seed 001: an Owner turns on Show team photos and
    /// names), the APNs key, the team, a device's Reset support, deletion, Mark unverified and test push, and the
    /// emulator's state (snapshot export and import, reset). Everything else an Agent may call.
    static func isOwnerOnly(_ method: String, _ path: [String]) -> Bool {
        switch (method, path) {
        case (_, ["identity-secret"]), ("PATCH", ["app"]), (_, ["apns"]), ("PUT", ["team"]), (_, ["snapshot"]),
            ("POST", ["reset"]):
            return true
        case ("PUT", let p) where p.first == "appearance":
            return true
        case (_, let p) where p.count >= 2 && p[0] == "team" && p[1] == "members":
            return true
        case (let m, let p) where p.count >= 2 && p[0] == "devices":
            let rest = Array(p.dropFirst(2))
            return (m == "DELETE" && rest.isEmpty) || (m == "POST" && [["reset"], ["unverify"], ["test-push"]].contains(rest))
        default:
            return false
        }
    }

    /// The caller of a dashboard data call: the member its session names. A session whose member was removed is
    /// signed out (401).
    func dashboardCaller(_ request: HTTPRequest) throws -> TeamCaller {
        guard let session = dashboard.session(of: request),
            let row = try db.row("SELECT name, role FROM team WHERE id = ?", [.text(session.memberId)])
        else { throw Self.dashboardSignedOut }
        return TeamCaller(
            memberId: session.memberId, name: row.text("name"), role: TeamRole(rawValue: row.text("role") ?? "") ?? .agent)
    }

    /// Refuses an Agent's call of an owner-only endpoint (403 `owner_required`).
    func checkRole(_ caller: TeamCaller, _ method: String, _ path: [String]) throws(APIError) {
        if caller.role == .agent, Self.isOwnerOnly(method, path) { throw APIError.ownerRequired }
    }

    /// Makes sure the team has an Owner: when none is left (a new data folder, an older one from before roles, an
    /// imported snapshot without one), the member `owner` ("Owner") becomes one, added if missing.
    func ensureOwner() throws {
        guard try db.row("SELECT id FROM team WHERE role = 'owner' LIMIT 1") == nil else { return }
        try db.query(
            "INSERT INTO team (id, name, role) VALUES ('owner', 'Owner', 'owner') ON CONFLICT (id) DO UPDATE SET role = 'owner'")
    }

    /// Signs out the browsers and forgets the links of members no longer in the team.
    func forgetRemovedMembers() throws {
        dashboard.forget(keeping: Set(try db.query("SELECT id FROM team").compactMap { $0.text("id") }))
    }

    /// The sign-in URL of `memberId` (made on first use, new on every start).
    func signInURL(memberId: String) -> String {
        "\(baseURL)/dashboard/sign-in/\(dashboard.link(for: memberId) { configuration.randomText(40) })"
    }

    /// The URL printed at start: the sign-in link of the team's first Owner.
    var dashboardURL: String {
        guard let owner = try? db.row("SELECT id FROM team WHERE role = 'owner' ORDER BY rowid LIMIT 1")?.text("id")
        else { return "" }
        return signInURL(memberId: owner)
    }

    /// The name of the team's first Owner, printed beside the sign-in URL.
    var dashboardOwnerName: String {
        (try? db.row("SELECT name FROM team WHERE role = 'owner' ORDER BY rowid LIMIT 1")?.text("name")) ?? ""
    }

    /// `/admin/team/members…` (all owner-only): invite (`POST`), change (`PATCH <id>`), remove (`DELETE <id>`), and a
    /// member's sign-in link (`POST <id>/sign-in-link`).
    func routeTeamMembers(_ request: HTTPRequest, _ rest: [String]) throws -> HTTPResponse {
        switch (request.method, rest) {
        case ("POST", []): return try inviteMember(request)
        case ("POST", let p) where p.count == 2 && p[1] == "sign-in-link":
            _ = try memberRow(p[0])
            return .json(200, ["signInURL": .string(signInURL(memberId: p[0]))])
        case ("PATCH", let p) where p.count == 1: return try updateMember(request, id: p[0])
        case ("DELETE", let p) where p.count == 1:
            let row = try memberRow(p[0])
            if row.text("role") == TeamRole.owner.rawValue { try checkAnotherOwner(besides: p[0]) }
            try db.query("DELETE FROM team WHERE id = ?", [.text(p[0])])
            try forgetRemovedMembers()
            return .json(200, ["members": .array(try teamMembersJSON())])
        default: throw APIError.notFound
        }
    }

    /// Longest member name and ID accepted by the member endpoints.
    static let memberTextLimit = 200

    /// `POST /admin/team/members` `{name, role, id?}`: a new member (ID `tm_…` unless given) → 201 `{member,
    /// signInURL}`, the link the Owner passes on. An ID in use is 409 `member_exists`.
    private func inviteMember(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try request.jsonObject()
        let name = try Self.memberName(body)
        guard let roleValue = body["role"] else { throw APIError.invalidRequest("role is \"owner\" or \"agent\"") }
        let role = try TeamRole(json: roleValue)
        let id = try body.optionalString("id") ?? newID("tm_")
        guard !id.isEmpty, id.utf16.count <= Self.memberTextLimit, !id.containsNUL, !id.contains("/") else {
            throw APIError.invalidRequest("id is 1–200 characters without \"/\" or U+0000")
        }
        guard try db.row("SELECT id FROM team WHERE id = ?", [.text(id)]) == nil else {
            throw APIError(409, "member_exists", "A team member has this ID.")
        }
        try db.query("INSERT INTO team (id, name, role) VALUES (?, ?, ?)", [.text(id), .text(name), .text(role.rawValue)])
        return .json(201, ["member": try memberJSON(id), "signInURL": .string(signInURL(memberId: id))])
    }

    /// `PATCH /admin/team/members/<id>` `{name?, role?}`. Making the last Owner an Agent is 409 `last_owner`.
    private func updateMember(_ request: HTTPRequest, id: String) throws -> HTTPResponse {
        let row = try memberRow(id)
        let body = try request.jsonObject()
        if body["name"] != nil {
            try db.query("UPDATE team SET name = ? WHERE id = ?", [.text(try Self.memberName(body)), .text(id)])
        }
        if let value = body["role"] {
            let role = try TeamRole(json: value)
            if role == .agent, row.text("role") == TeamRole.owner.rawValue { try checkAnotherOwner(besides: id) }
            try db.query("UPDATE team SET role = ? WHERE id = ?", [.text(role.rawValue), .text(id)])
        }
        return .json(200, ["member": try memberJSON(id)])
    }

    private static func memberName(_ body: [String: JSONValue]) throws(APIError) -> String {
        guard let name = body["name"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty,
            name.utf16.count <= memberTextLimit, !name.containsNUL
        else { throw APIError.invalidRequest("name is 1–200 characters without U+0000") }
        return name
    }

    private func memberRow(_ id: String) throws -> SQLRow {
        guard let row = try db.row("SELECT id, role FROM team WHERE id = ?", [.text(id)]) else {
            throw APIError(404, "member_not_found", "No team member has this ID.")
        }
        return row
    }

    /// 409 `last_owner` unless an Owner other than `id` is left: the team always has an Owner.
    private func checkAnotherOwner(besides id: String) throws {
        guard try db.row("SELECT id FROM team WHERE role = 'owner' AND id <> ? LIMIT 1", [.text(id)]) != nil else {
            throw APIError(409, "last_owner", "The team needs an Owner: make another member an Owner first.")
        }
    }

    private func memberJSON(_ id: String) throws -> JSONValue {
        try teamMembersJSON().first { $0["id"]?.stringValue == id } ?? .null
    }
}
