/// A team member who wrote agent replies (spec 4.5).
public struct TeamMember: Codable, Hashable, Sendable {
    /// Matches `Message.authorId`.
    public var id: String
    /// The member's first name; its first letter is the placeholder avatar.
    public var name: String
    /// A short-lived signed photo link, or `nil` when the member has no photo.
    public var photoUrl: String?
    /// A stable ID of the photo content: the cache key, so a re-signed link does not cause a download.
    /// Older services omit it; the full link is then the key.
    public var photoId: String?

    /// Makes a team member.
    @inline(never)
    @_optimize(size) public init(id: String, name: String, photoUrl: String? = nil, photoId: String? = nil) {
        self.id = id
        self.name = name
        self.photoUrl = photoUrl
        self.photoId = photoId
    }

    /// The key a photo cache should use (spec 4.5), or `nil` when the member has no photo.
    @_optimize(size) public var photoCacheKey: String? { photoId ?? photoUrl }

    @inline(never) @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(id, forKey: "id")
        try c.encode(name, forKey: "name")
        // `photoUrl` is nullable rather than optional on the wire: always present.
        try c.encode(photoUrl, forKey: "photoUrl")
        try c.encodeIfPresent(photoId, forKey: "photoId")
    }

    /// Hashes the ID only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension TeamMember {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        id = try c.decode(String.self, forKey: "id")
        name = try c.decode(String.self, forKey: "name")
        photoUrl = try c.decodeIfPresent(String.self, forKey: "photoUrl")
        photoId = try c.decodeIfPresent(String.self, forKey: "photoId")
    }
}
