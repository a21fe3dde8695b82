/// The layout of one pixel in a `PixelBuffer`.
public enum PixelFormat: Sendable, Hashable {
    /// Red, green, blue, alpha: four bytes per pixel, straight (not premultiplied) alpha.
    case rgba8
    /// Red, green, blue: three bytes per pixel.
    case rgb8
    /// One grey byte per pixel.
    case gray8

    /// Bytes one pixel occupies.
    @inline(never) @_optimize(size) public var bytesPerPixel: Int {
        switch self {
        case .rgba8: 4
        case .rgb8: 3
        case .gray8: 1
        }
    }
}

/// A decoded bitmap handed to an image encoder: rows of pixels, top to bottom, each `bytesPerRow` bytes apart.
///
/// The buffer is not validated when it is made, so a host can wrap whatever it decoded; an encoder checks it
/// (`validate()`) and answers bad geometry with `invalid_image` (spec 7.9 step 1) instead of reading out of bounds.
public struct PixelBuffer: Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Distance in bytes from the start of one row to the start of the next (at least `width * bytesPerPixel`).
    public var bytesPerRow: Int
    /// The pixel layout.
    public var format: PixelFormat
    /// The pixel bytes; the last row needs only `width * bytesPerPixel` bytes, not a full stride.
    public var bytes: [UInt8]

    /// Wraps pixel bytes; `bytesPerRow` defaults to tightly packed rows.
    @inline(never) @_optimize(size)
    public init(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int? = nil, bytes: [UInt8]) {
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = bytesPerRow ?? width &* format.bytesPerPixel
        self.bytes = bytes
    }

    /// The largest width or height an encoder accepts: JPEG stores dimensions in 16 bits.
    public static let maximumDimension = 65_535

    /// Throws `invalid_image` unless the geometry is usable: both dimensions in 1...65,535, a stride that holds a
    /// row, and enough bytes for every row. Overflow-checked, so absurd values cannot wrap around to "valid".
    @inline(never) @_optimize(size) public func validate() throws(ReceptionError) {
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

/// Turns a bitmap into JPEG bytes for upload (spec 7.9 step 4). The default is the pure-Swift encoder in
/// `ImagePipeline`; a host that prefers its platform's codec implements this and passes it in the configuration.
public protocol ImageEncoding: Sendable {
    /// Encodes `image` as a baseline JFIF JPEG at `quality` 1...100 (libjpeg's scale: 85 is the spec's 0.85),
    /// writing no metadata. Throws `invalid_image` for bad geometry or a quality outside 1...100.
    func encodeJPEG(_ image: PixelBuffer, quality: Int) throws(ReceptionError) -> [UInt8]
}
