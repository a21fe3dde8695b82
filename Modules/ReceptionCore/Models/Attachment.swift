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

    /// Makes an attachment.
    public init(id: String, url: String, contentType: String, width: Int? = nil, height: Int? = nil) {
        self.id = id
        self.url = url
        self.contentType = contentType
        self.width = width
        self.height = height
    }
}
