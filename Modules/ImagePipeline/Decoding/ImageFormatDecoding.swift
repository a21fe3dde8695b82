import JPEGCodec

/// One still-image format's decoder behind preparation's seam (Nuke's decoder registry is the model): it recognises
/// its files by their signature and decodes the first (or only) picture. `ImageDecoder.formats` lists them; a new
/// format adds a conforming type and one entry there, nothing else.
///
/// Every decoder checks the sizes its header declares with `DecodeLimits.check` before it allocates pixels, throws
/// only `CodecError` (`invalid_image`, `image_too_large`), reports the file's embedded ICC profile when it has one
/// (`DecodedImage.iccProfile`, nil = sRGB), and hands over pixels only: no metadata of the file goes further.
protocol ImageFormatDecoding {
    /// Whether `file` starts with this format's signature (cheap: no decoding).
    static func matches(_ file: UnsafeBufferPointer<UInt8>) -> Bool

    /// Decodes the file's first picture. A decoder that can decode at a reduced scale cheaply (JPEG's DCT scaling,
    /// ImageIO's thumbnails) may stop at the smallest scale whose longer edge is still at least
    /// `minimumLongestEdge`; the others ignore it.
    static func decode(_ file: UnsafeBufferPointer<UInt8>, minimumLongestEdge: Int?) throws(CodecError)
        -> DecodedImage

    /// The stored pixel size the header declares, read without decoding; nil when the header cannot be read
    /// cheaply or the decoder turns the picture itself (libheif applies a HEIF file's rotation).
    static func declaredSize(_ bytes: [UInt8]) -> (width: Int, height: Int)?
}

extension ImageFormatDecoding {
    /// No cheap header reading: preparation then sizes from the decoded picture.
    @_optimize(size) package static func declaredSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? { nil }
}

/// PNG: our own decoder over the system zlib.
extension PNGDecoder: ImageFormatDecoding {
    /// A full-size decode (PNG has no cheaper reduced one).
    @inline(never) @_optimize(size)
    package static func decode(_ file: UnsafeBufferPointer<UInt8>, minimumLongestEdge: Int?) throws(CodecError)
        -> DecodedImage
    {
        try decode(file, verifiesChecksums: true)
    }

    /// IHDR's width and height (bytes 16–23, big-endian).
    @inline(never) @_optimize(size) package static func declaredSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 24, bytes.starts(with: signature) else { return nil }
        return bytes.withUnsafeBufferPointer { (PNGChunks.bigEndian32($0, 16), PNGChunks.bigEndian32($0, 20)) }
    }
}

/// JPEG: the codec's own decoder, at the smallest DCT scale that covers `minimumLongestEdge`.
extension JPEGDecoder: ImageFormatDecoding {}

/// A GIF's logical screen or an animated WebP's canvas may be larger than its first frame, and the part the frame
/// leaves uncovered costs memory without costing the file a byte. So a canvas larger than its first frame must be
/// backed by the file's size: at most 4,096 pixels per byte (about the densest a GIF's LZW can be), else the header
/// is taken for a lie (`invalid_image`) before the canvas is allocated.
enum CanvasLimit {
    static let pixelsPerByte = 4096

    @inline(never) @_optimize(size)
    static func check(canvas: (width: Int, height: Int), frame: (width: Int, height: Int), fileSize: Int)
        throws(CodecError)
    {
        let area = canvas.width * canvas.height
        guard area <= frame.width * frame.height || area <= fileSize * pixelsPerByte else { throw .invalidImage }
    }
}
