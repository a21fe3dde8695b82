import Foundation

/// What the chat knows of a teammate who wrote agent replies (spec 7.17 "Team profile cache"): the first name and,
/// once downloaded, the photo. Kept per session so names and photos show before any network answer.
public struct TeamProfile: Codable, Hashable, Sendable {
    /// Matches `Message.authorId`.
    public var id: String
    /// The first name.
    public var name: String
    /// The photo's cache key (`photoId`, else the link, spec 4.5); `nil` when the member has no photo.
    public var photoKey: String?
    /// The photo's bytes under `photoKey`, or `nil` until they are downloaded.
    public var photo: Data?

    /// Makes a profile.
    @inline(never) @_optimize(size) public init(id: String, name: String, photoKey: String? = nil, photo: Data? = nil) {
        self.id = id
        self.name = name
        self.photoKey = photoKey
        self.photo = photo
    }

    /// Spec 7.17: one team photo is at most 512 KiB.
    public static let maximumPhotoBytes = 512 * 1024

    /// The placeholder avatar: the name's first character, upper-cased (empty for an empty name).
    @_optimize(size) public var initial: String { name.first.map { String($0).uppercased() } ?? "" }

    /// Hashes the ID only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// Written rather than synthesized, compiled for size and never inlined: at `-O` the synthesized `==` takes
    /// in every field's comparison (Docs/Footprint.md). It compares every field (`WrittenEqualityTests`).
    @inline(never) @_optimize(size) public static func == (lhs: TeamProfile, rhs: TeamProfile) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name && lhs.photoKey == rhs.photoKey && lhs.photo == rhs.photo
    }
}

extension TeamProfile {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        id = try c.decode(String.self, forKey: "id")
        name = try c.decode(String.self, forKey: "name")
        photoKey = try c.decodeIfPresent(String.self, forKey: "photoKey")
        photo = try c.decodeIfPresent(Data.self, forKey: "photo")
    }

    @inline(never) @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(id, forKey: "id")
        try c.encode(name, forKey: "name")
        try c.encodeIfPresent(photoKey, forKey: "photoKey")
        try c.encodeIfPresent(photo, forKey: "photo")
    }
}
