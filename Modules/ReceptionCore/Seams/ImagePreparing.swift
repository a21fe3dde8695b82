import Foundation

/// A photo ready to upload (spec 7.9, 3.14): JPEG bytes of at most 1 MiB, the pixel size the reservation reports,
/// and the checksum the reservation carries (standard Base64 of the SHA-256 of `jpeg`).
public struct PreparedPhoto: Sendable, Hashable {
    /// The JPEG bytes, no metadata.
    public var jpeg: Data
    /// Pixel width of the JPEG.
    public var width: Int
    /// Pixel height of the JPEG.
    public var height: Int
    /// Standard Base64 (with padding) of the SHA-256 of `jpeg`.
    public var checksum: String

    /// Written rather than synthesized, and compiled for size: the synthesized `==` takes in `Data`'s comparison,
    /// up to 0.7 kB on iOS (Docs/Footprint.md). It compares every field (`WrittenEqualityTests`).
    @inline(never) @_optimize(size) public static func == (lhs: PreparedPhoto, rhs: PreparedPhoto) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.checksum == rhs.checksum && lhs.jpeg == rhs.jpeg
    }

    /// Makes a prepared photo.
    @inline(never) @_optimize(size) public init(jpeg: Data, width: Int, height: Int, checksum: String) {
        self.jpeg = jpeg
        self.width = width
        self.height = height
        self.checksum = checksum
    }

    /// Hashes the checksum only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(checksum) }
}

/// Turns a photo the person picked (encoded file bytes: JPEG or PNG on Linux; anything the platform decodes on
/// Apple hosts) into an upload-ready JPEG (spec 7.9): orientation applied, transparency onto white, longest edge
/// at most 2,048 px, the quality ladder from 0.85 down until at most 1 MiB, then shrink rounds of ×0.75.
/// This is the only entry point the chat engine uses for photos.
///
/// Failures: `invalid_image` for an unreadable file or a zero/non-finite size ("Could not load this photo."),
/// `image_too_large` when nothing fits after every round.
public protocol ImagePreparing: Sendable {
    /// Prepares one photo for upload.
    func prepare(_ file: Data) throws(ReceptionError) -> PreparedPhoto
}
