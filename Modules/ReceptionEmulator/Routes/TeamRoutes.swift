import Digest

/// A team member's photo as `PUT /admin/team` takes it: JPEG or PNG bytes (spec 4.5, 3.18).
struct TeamPhoto {
    /// Largest accepted photo: 512 KiB of decoded bytes.
    static let byteLimit = 512 * 1024

    let data: [UInt8]
    let contentType: String
    /// spec 4.5: a stable identifier of the photo content — the first 32 hex digits of its SHA-256 — so the same
    /// bytes keep their `photoId` however often the URL is re-signed.
    let id: String

    init(data: [UInt8], contentType: String) {
        self.data = data
        self.contentType = contentType
        id = String(Hex.encode(SHA256.hash(data)).prefix(32))
    }

    /// Decodes standard Base64 (with padding) of a JPEG or PNG of at most ``byteLimit`` bytes.
    init(base64 text: String) throws(APIError) {
        // Four characters per three bytes: a longer text cannot be within the limit, so it is not decoded.
        guard text.utf8.count <= (Self.byteLimit + 2) / 3 * 4 else {
            throw APIError.invalidRequest("a photo is at most 524,288 bytes")
        }
        guard let data = Base64.decode(text, alphabet: .standard) else {
            throw APIError.invalidRequest("photo must be standard Base64 of a JPEG or PNG")
        }
        guard data.count <= Self.byteLimit else { throw APIError.invalidRequest("a photo is at most 524,288 bytes") }
        if data.starts(with: [0xFF, 0xD8, 0xFF]) {
            self.init(data: data, contentType: "image/jpeg")
        } else if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self.init(data: data, contentType: "image/png")
        } else {
            throw APIError.invalidRequest("photo must be standard Base64 of a JPEG or PNG")
        }
    }
}

/// The team (authors of agent replies) with names and photos: `PUT /admin/team`, the `team` array of conversation
/// responses (spec 3.6, 3.7, 4.5) and the signed photo downloads (spec 3.18).
extension EmulatorState {
    /// `PUT /admin/team` `{members: [{id, name, role?, photo?}]}`: replaces the team. `photo` is standard Base64 of
    /// a JPEG or PNG (≤ 512 KiB), `null` removes the member's photo, and an absent key keeps the photo that member ID
    /// has. `role` is `"owner"` or `"agent"`; absent keeps the role that member ID has, and a new ID is an Agent. The
    /// team always has an Owner: a list that names none keeps the current Owners. Removed members are signed out.
    func setTeam(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let members = try request.jsonObject()["members"]?.arrayValue else {
            throw APIError.invalidRequest("members must be an array")
        }
        let team = try db.transaction { () throws -> [TeamEntry] in
            // Every member is read (and a kept photo and role fetched) before the old rows go.
            let team = try members.map { member throws -> TeamEntry in
                guard let id = member["id"]?.stringValue, let name = member["name"]?.stringValue, !id.isEmpty,
                    !id.containsNUL
                else { throw APIError.invalidRequest("a member is {id (no U+0000), name, role?, photo?}") }
                let stored = try db.row("SELECT role FROM team WHERE id = ?", [.text(id)])?.text("role")
                let role = try member["role"].map { value throws(APIError) in try TeamRole(json: value) }
                    ?? TeamRole(rawValue: stored ?? "") ?? .agent
                switch member["photo"] {
                case nil: return TeamEntry(id: id, name: name, role: role, photo: try teamPhoto(memberId: id))
                case .null?: return TeamEntry(id: id, name: name, role: role, photo: nil)
                case let value?:
                    guard let text = value.stringValue else {
                        throw APIError.invalidRequest("photo must be standard Base64 of a JPEG or PNG, or null")
                    }
                    return TeamEntry(id: id, name: name, role: role, photo: try TeamPhoto(base64: text))
                }
            }
            let namesOwner = team.contains { $0.role == .owner }
            try db.query(namesOwner ? "DELETE FROM team" : "DELETE FROM team WHERE role <> 'owner'")
            for member in team {
                try db.query(
                    "INSERT OR REPLACE INTO team (id, name, role, photo_id, photo_type, photo) VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        .text(member.id), .text(member.name), .text(member.role.rawValue), .optional(member.photo?.id),
                        .optional(member.photo?.contentType), member.photo.map { .blob($0.data) } ?? .null,
                    ])
            }
            return team
        }
        try forgetRemovedMembers()
        return .json(
            200,
            [
                "members": .array(
                    team.map {
                        [
                            "id": .string($0.id), "name": .string($0.name), "role": .string($0.role.rawValue),
                            "photoId": .optional($0.photo?.id),
                        ]
                    })
            ])
    }

    /// One member of a `PUT /admin/team` list, as it is stored.
    private struct TeamEntry {
        var id: String
        var name: String
        var role: TeamRole
        var photo: TeamPhoto?
    }

    /// The stored photo of member `memberId`, if it has one.
    private func teamPhoto(memberId: String) throws -> TeamPhoto? {
        guard let row = try db.row("SELECT photo_type, photo FROM team WHERE id = ?", [.text(memberId)]),
            let type = row.text("photo_type"), let data = row.blob("photo")
        else { return nil }
        return TeamPhoto(data: data, contentType: type)
    }

    /// The team members who wrote messages in `conversationId` (spec 4.5, 8.2), only while the published
    /// appearance enables `showsTeamNames` or `showsTeamPhotos` (spec 7.20); otherwise `[]`. `photoUrl` (signed,
    /// expiring) and `photoId` only when `showsTeamPhotos` is on and the member has a photo.
    func teamJSON(conversationId: String?) throws -> JSONValue {
        let appearance = try? JSONValue.parse(settings.appearance)
        let showsPhotos = appearance?["showsTeamPhotos"]?.boolValue == true
        let showsNames = appearance?["showsTeamNames"]?.boolValue == true
        guard let conversationId, showsNames || showsPhotos else { return .array([]) }
        return .array(
            try db.query(
                """
                SELECT id, name, photo_id FROM team WHERE id IN
                (SELECT DISTINCT author_id FROM messages WHERE conversation_id = ?) ORDER BY id
                """, [.text(conversationId)]
            ).map { row in
                var member: [String: JSONValue] = [
                    "id": .optional(row.text("id")), "name": .optional(row.text("name")), "photoUrl": .null,
                ]
                if showsPhotos, let photoId = row.text("photo_id") {
                    member["photoUrl"] = .string(
                        signedLink(
                            route: "team-photos", purpose: "team-photo", id: photoId,
                            lifetime: configuration.teamPhotoURLLifetime))
                    member["photoId"] = .string(photoId)
                }
                return .object(member)
            })
    }

    /// `GET /team-photos/<photoId>?expires=&sig=` (spec 3.18): the photo bytes with their `Content-Type`; 403
    /// `expired_link` for an expired or wrong signature, 404 when no member has that photo (any more).
    func teamPhotoGet(_ request: HTTPRequest, photoId: String) throws -> HTTPResponse {
        try checkSignedLink(request, purpose: "team-photo", id: photoId)
        return try storedBytes(
            "SELECT photo_type AS content_type, photo AS data FROM team WHERE photo_id = ? LIMIT 1", [.text(photoId)],
            what: "photo", defaultType: "image/jpeg")
    }
}
