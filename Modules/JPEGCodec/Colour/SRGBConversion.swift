/// Converts a picture from its embedded ICC profile to sRGB, as littleCMS does between two matrix/TRC profiles with
/// the relative colorimetric intent: each channel through its tone curve to linear light, a 3×3 matrix from the
/// source colorants (XYZ, D50) to linear sRGB, clipping, then sRGB's encoding curve. Grey goes through its `kTRC`
/// and sRGB's curve.
///
/// Everything per pixel is integer table work, identical on every processor: the matrix is folded into three
/// tables of packed linear light at 2⁻¹⁶ (`RGBTables`: a pixel costs three loads and three additions for all three
/// output channels), and each sum, clipped, indexes a table of sRGB bytes (a step of 1/16,384
/// in linear light, at most 0.2 of an 8-bit step even in sRGB's steepest part). The tables are built with
/// `PortableMath`, not the platform's `pow`, so x86-64 and arm64 hold the same bytes.
public enum SRGBConversion: Sendable {
    /// No profile, or one that is sRGB or indistinguishable from it at 8 bits: the pixels stay as they are.
    case none
    /// A profile this reader does not understand, or one that does not fit the pixels (a grey profile on colour
    /// pixels): the pixels stay as they are, read as sRGB. The caller logs it.
    case unreadable
    /// An RGB profile: the folded matrix tables.
    case rgb(RGBTables)
    /// A grey profile: each grey byte's sRGB grey byte.
    case grey([UInt8])

    /// Whether `apply` changes pixels.
    public var converts: Bool {
        switch self {
        case .none, .unreadable: false
        case .rgb, .grey: true
        }
    }

    /// Converts `bitmap`'s pixels in place (alpha untouched); nothing for `.none` and `.unreadable`, or when the
    /// bitmap's format is not the one the conversion was made for.
    public func apply(to bitmap: inout Bitmap) {
        let width = bitmap.width, height = bitmap.height, stride = bitmap.bytesPerRow
        guard width > 0, height > 0 else { return }
        switch (self, bitmap.format) {
        case (.grey(let table), .gray8):
            table.withUnsafeBufferPointer { map in
                bitmap.bytes.withUnsafeMutableBufferPointer { pixels in
                    guard let base = pixels.baseAddress, pixels.count >= (height - 1) * stride + width else { return }
                    for y in 0..<height {
                        let row = base + y * stride
                        for x in 0..<width { row[x] = map[Int(row[x])] }
                    }
                }
            }
        case (.rgb(let tables), .rgb8), (.rgb(let tables), .rgba8):
            let step = bitmap.format.bytesPerPixel
            bitmap.bytes.withUnsafeMutableBufferPointer { pixels in
                guard let base = pixels.baseAddress, pixels.count >= (height - 1) * stride + width * step else {
                    return
                }
                for y in 0..<height { tables.convert(row: base + y * stride, width: width, step: step) }
            }
        default:
            return
        }
    }
}
