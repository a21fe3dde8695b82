
/// What a decoder hands to photo preparation: the pixels (rows top to bottom as stored in the file) and the
/// orientation the file asks the viewer to apply (EXIF tag 0x0112), which preparation applies after resizing.
public struct DecodedImage: Sendable {
    /// The decoded pixels: `gray8`, `rgb8`, or `rgba8` with straight alpha.
    public var pixels: Bitmap
    /// The stored orientation; `.up` when the file says nothing.
    public var orientation: Orientation
    /// The ICC colour profile embedded in the file, as its bytes (JPEG APP2, PNG `iCCP`, WebP `ICCP`, TIFF tag
    /// 34675, HEIF `colr`); nil when the file carries none, which means sRGB.
    public var iccProfile: [UInt8]?

    /// Pairs decoded pixels with the orientation their file asked for and its embedded colour profile.
    public init(pixels: Bitmap, orientation: Orientation = .up, iccProfile: [UInt8]? = nil) {
        self.pixels = pixels
        self.orientation = orientation
        self.iccProfile = iccProfile
    }
}

/// The eight EXIF orientations (TIFF tag 0x0112): how the stored pixels must be turned to look right.
public enum Orientation: Int, Sendable, Hashable {
    /// 1: stored as it is seen.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored
    /// 3: turned 180°.
    case down
    /// 4: mirrored top to bottom.
    case downMirrored
    /// 5: mirrored along the top-left to bottom-right diagonal.
    case leftMirrored
    /// 6: must be turned 90° clockwise to look right (a phone held upright).
    case right
    /// 7: mirrored along the top-right to bottom-left diagonal.
    case rightMirrored
    /// 8: must be turned 90° counter-clockwise to look right.
    case left

    /// Whether applying this orientation swaps width and height.
    public var swapsAxes: Bool { rawValue >= 5 }
}

/// Limits every decoder enforces before allocating, so a header that lies cannot make memory grow.
public enum DecodeLimits {
    /// The most pixels (width × height) a file may declare: 64 MP covers the 48–50 MP sensors of current phones.
    /// A larger header is refused with `image_too_large` before any pixel buffer exists.
    public static let maximumPixels = 64 * 1024 * 1024

    /// Throws unless both dimensions are in 1...65,535 (`invalid_image`) and their product is within
    /// `maximumPixels` (`image_too_large`).
    package static func check(width: Int, height: Int) throws(CodecError) {
        guard (1...Bitmap.maximumDimension).contains(width), (1...Bitmap.maximumDimension).contains(height)
        else { throw .invalidImage }
        guard width * height <= maximumPixels else { throw .imageTooLarge }
    }

}
