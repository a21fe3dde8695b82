/// A photo attached to a message (spec 4.4).
public struct Attachment: Codable, Hashable, Sendable {
    /// The attachment ID (also used with `GET attachments/<id>` to refresh an expired link).
    public var id: String
    /// A signed link that may expire (403 then means "resolve again").
    public var url: String
    /// The MIME type, `image/jpeg` for photos the SDK uploads.
    public var contentType: String
    /// Pixel width, for the bubble's aspect ratio.
    public var width: Int?
    /// Pixel height.
    public var height: Int?

    /// The most bytes one photo download may bring, so a hostile link cannot make the SDK hold more (the
    /// service's uploads are at most 1 MiB; agents' photos get ten times that).
    public static let maximumDownloadBytes = 10 * 1024 * 1024

    /// Makes an attachment.
    @inline(never)
    @_optimize(size) public init(id: String, url: String, contentType: String, width: Int? = nil, height: Int? = nil) {
        self.id = id
        self.url = url
        self.contentType = contentType
        self.width = width
        self.height = height
    }

    /// Hashes the ID only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension Attachment {
    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        id = try c.decode(String.self, forKey: "id")
        url = try c.decode(String.self, forKey: "url")
        contentType = try c.decode(String.self, forKey: "contentType")
        width = try c.decodeIfPresent(Int.self, forKey: "width")
        height = try c.decodeIfPresent(Int.self, forKey: "height")
    }

    @inline(never) @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(id, forKey: "id")
        try c.encode(url, forKey: "url")
        try c.encode(contentType, forKey: "contentType")
        try c.encodeIfPresent(width, forKey: "width")
        try c.encodeIfPresent(height, forKey: "height")
    }
}
