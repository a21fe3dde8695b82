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

    /// What converts pixels of `format` described by `profile` (nil: sRGB) to sRGB.
    public init(profile: [UInt8]?, format: BitmapFormat) {
        guard let profile else { self = .none; return }
        guard let parsed = ICCProfile(profile) else { self = .unreadable; return }
        self.init(parsed, format: format)
    }

    /// What converts pixels of `format` described by `profile` to sRGB.
    package init(_ profile: ICCProfile, format: BitmapFormat) {
        switch (profile.colours, format) {
        case (.grey(let curve), .gray8):
            let table = (0..<256).map { SRGBCurve.byte(forLinear: curve.linear(Double($0) / 255)) }
            self = table.enumerated().allSatisfy({ Int($1) == $0 }) ? .none : .grey(table)
        case (.rgb(let colorants, let curves), .rgb8), (.rgb(let colorants, let curves), .rgba8):
            guard let tables = RGBTables(colorants: colorants, curves: curves) else { self = .unreadable; return }
            self = tables.isIdentity ? .none : .rgb(tables)
        default:
            self = .unreadable
        }
    }

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

/// sRGB's encoding curve (IEC 61966-2-1) as a table from linear light in 1/16,384 steps to bytes.
enum SRGBCurve {
    /// Linear light is indexed in this many steps over 0…1.
    static let steps = 16384

    /// The byte for linear light `value` (0…1).
    static func byte(forLinear value: Double) -> UInt8 {
        let encoded = value <= 0.003_130_8 ? 12.92 * value : 1.055 * PortableMath.power(value, 1 / 2.4) - 0.055
        return UInt8(min(max((encoded * 255).rounded(), 0), 255))
    }

    /// `steps + 1` bytes: entry i is the byte for linear light i / `steps`. Built from the other side, once per
    /// process: the encoding rounds to byte b from where it reaches b − ½, which is linear light
    /// decode((b − ½) / 255), so 255 powers mark every boundary (16,385 encodings took 14 M instructions).
    static let table: [UInt8] = {
        var table = [UInt8](repeating: 255, count: steps + 1)
        var index = 0
        for byte in 1...255 {
            let encoded = (Double(byte) - 0.5) / 255
            let threshold = encoded <= 0.040_45
                ? encoded / 12.92 : PortableMath.power((encoded + 0.055) / 1.055, 2.4)
            let first = min(Int((threshold * Double(steps)).rounded(.up)), steps + 1)
            while index < first {
                table[index] = UInt8(byte - 1)
                index += 1
            }
        }
        return table
    }()

    /// `table` indexed by a packed field of `RGBTables` shifted right by two: entry i is the byte for linear light
    /// (i − 3 · 2¹⁶) / `steps`, clipped to 0…1 — the three biases of 2¹⁸ (2¹⁶ after the shift) taken off and the
    /// clipping done by the table itself, so the per-pixel loop needs neither. 2¹⁹ entries (512 KiB, built once
    /// per process on the first converted photo) cover every value a 19-bit field can hold; the ones a photo
    /// reaches are the 16 KiB of `table` and, for colours outside sRGB, a few lines beyond either end.
    static let biasedTable: [UInt8] = {
        let offset = 3 * Int(RGBTables.bias >> 2)
        return [UInt8](repeating: table[0], count: offset) + table
            + [UInt8](repeating: table[steps], count: (1 << 19) - offset - table.count)
    }()

    /// The 3×3 matrix whose columns are sRGB's red, green and blue in XYZ adapted to D50 by Bradford, as littleCMS
    /// builds its sRGB profile: primaries (0.64, 0.33), (0.30, 0.60), (0.15, 0.06), white D65 (0.3127, 0.3290),
    /// PCS white D50 (0.9642, 1, 0.8249).
    static let colorantsD50: [Double] = {
        let primaries: [(Double, Double)] = [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)]
        let white = xyz(0.3127, 0.3290)
        // Primaries' XYZ at Y = 1 as columns, scaled so that their sum is the white.
        var columns = [Double](repeating: 0, count: 9)
        for (index, (x, y)) in primaries.enumerated() {
            let c = xyz(x, y)
            columns[index] = c[0]; columns[3 + index] = c[1]; columns[6 + index] = c[2]
        }
        guard let inverse = Matrix3.inverse(columns) else { return columns }
        let scale = Matrix3.apply(inverse, white)
        for row in 0..<3 { for column in 0..<3 { columns[3 * row + column] *= scale[column] } }
        let adaptation = Matrix3.bradford(from: white, to: [0.9642, 1, 0.8249])
        return Matrix3.multiply(adaptation, columns)
    }()

    /// XYZ at Y = 1 of chromaticity (x, y).
    private static func xyz(_ x: Double, _ y: Double) -> [Double] { [x / y, 1, (1 - x - y) / y] }
}

/// Row-major 3×3 matrices in `Double`, for building the tables (never per pixel).
enum Matrix3 {
    static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        var result = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                result[3 * row + column] =
                    a[3 * row] * b[column] + a[3 * row + 1] * b[3 + column] + a[3 * row + 2] * b[6 + column]
            }
        }
        return result
    }

    static func apply(_ m: [Double], _ v: [Double]) -> [Double] {
        (0..<3).map { m[3 * $0] * v[0] + m[3 * $0 + 1] * v[1] + m[3 * $0 + 2] * v[2] }
    }

    /// The inverse, or nil for a (nearly) singular matrix.
    static func inverse(_ m: [Double]) -> [Double]? {
        let c00 = m[4] * m[8] - m[5] * m[7], c01 = m[5] * m[6] - m[3] * m[8], c02 = m[3] * m[7] - m[4] * m[6]
        let determinant = m[0] * c00 + m[1] * c01 + m[2] * c02
        guard abs(determinant) > 1e-9 else { return nil }
        return [
            c00 / determinant, (m[2] * m[7] - m[1] * m[8]) / determinant, (m[1] * m[5] - m[2] * m[4]) / determinant,
            c01 / determinant, (m[0] * m[8] - m[2] * m[6]) / determinant, (m[2] * m[3] - m[0] * m[5]) / determinant,
            c02 / determinant, (m[1] * m[6] - m[0] * m[7]) / determinant, (m[0] * m[4] - m[1] * m[3]) / determinant,
        ]
    }

    /// The Bradford chromatic adaptation from white `source` to white `destination` (both XYZ).
    static func bradford(from source: [Double], to destination: [Double]) -> [Double] {
        let cone: [Double] = [0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296]
        guard let inverseCone = inverse(cone) else { return [1, 0, 0, 0, 1, 0, 0, 0, 1] }
        let s = apply(cone, source), d = apply(cone, destination)
        let gain: [Double] = [d[0] / s[0], 0, 0, 0, d[1] / s[1], 0, 0, 0, d[2] / s[2]]
        return multiply(inverseCone, multiply(gain, cone))
    }
}
