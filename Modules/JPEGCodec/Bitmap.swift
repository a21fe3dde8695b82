/// Why the codec refused its input. The codec's only error: `ImagePipeline` maps each case to a `ReceptionError`
/// code (`invalid_image`, `image_too_large`) at its seam, so an app using the codec alone needs nothing else.
public enum CodecError: Error, Sendable, Hashable {
    /// The bytes are not an image the codec reads (not a JPEG, truncated, lossless or arithmetic-coded, 12-bit,
    /// inconsistent headers), or a bitmap's geometry is unusable, or an option is out of range.
    case invalidImage
    /// The file declares more pixels than `DecodeLimits.maximumPixels`: refused before any pixel buffer exists.
    case imageTooLarge
}

/// The layout of one pixel in a `Bitmap`.
public enum BitmapFormat: Sendable, Hashable {
    /// Red, green, blue, alpha: four bytes per pixel, straight (not premultiplied) alpha.
    case rgba8
    /// Red, green, blue: three bytes per pixel.
    case rgb8
    /// One grey byte per pixel.
    case gray8

    /// Bytes one pixel occupies.
    public var bytesPerPixel: Int {
        switch self {
        case .rgba8: 4
        case .rgb8: 3
        case .gray8: 1
        }
    }
}

/// Pixels in memory: rows top to bottom, each `bytesPerRow` bytes apart. What the encoder reads and the decoder and
/// the resampler write.
///
/// It is not validated when it is made, so a caller can wrap whatever it has; the encoder checks it (`validate()`)
/// and answers bad geometry with `CodecError.invalidImage` instead of reading out of bounds.
public struct Bitmap: Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Distance in bytes from the start of one row to the start of the next (at least `width * bytesPerPixel`).
    public var bytesPerRow: Int
    /// The pixel layout.
    public var format: BitmapFormat
    /// The pixel bytes; the last row needs only `width * bytesPerPixel` bytes, not a full stride.
    public var bytes: [UInt8]

    /// Wraps pixel bytes; `bytesPerRow` defaults to tightly packed rows.
    public init(width: Int, height: Int, format: BitmapFormat, bytesPerRow: Int? = nil, bytes: [UInt8]) {
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = bytesPerRow ?? width &* format.bytesPerPixel
        self.bytes = bytes
    }

    /// The largest width or height: JPEG stores dimensions in 16 bits.
    public static let maximumDimension = 65_535

    /// Throws `invalidImage` unless the geometry is usable: both dimensions in 1...65,535, a stride that holds a
    /// row, and enough bytes for every row. Overflow-checked, so absurd values cannot wrap around to "valid".
    public func validate() throws(CodecError) {
        let maximum = Self.maximumDimension
        guard (1...maximum).contains(width), (1...maximum).contains(height) else { throw .invalidImage }
        let rowBytes = width * format.bytesPerPixel  // cannot overflow: width ≤ 65,535
        guard bytesPerRow >= rowBytes else { throw .invalidImage }
        let (leading, overflow) = (height - 1).multipliedReportingOverflow(by: bytesPerRow)
        guard !overflow else { throw .invalidImage }
        let (needed, overflow2) = leading.addingReportingOverflow(rowBytes)
        guard !overflow2, bytes.count >= needed else { throw .invalidImage }
    }
}
