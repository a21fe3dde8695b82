/// What a photo's colour conversion builds before its first pixel, once per photo or once per process: the
/// conversion for a profile, its `RGBTables`, sRGB's encoding curve and the matrix arithmetic. Compiled for size
/// (`scripts/cold-code`); the per-pixel `apply` and `convert` stay at `-O` in their own files. Loops rather than
/// closures throughout, because a closure is compiled at the host's `-O` whatever encloses it, and the process's
/// constant tables are built by functions, not by closures in their `static let`, for the same reason. The numbers
/// are those the closures computed, in the same order (`scripts/arm-lab --check`: byte-identical output).
extension SRGBConversion {
    /// What converts pixels of `format` described by `profile` (nil: sRGB) to sRGB.
    @_optimize(size) public init(profile: [UInt8]?, format: BitmapFormat) {
        guard let profile else { self = .none; return }
        guard let parsed = ICCProfile(profile) else { self = .unreadable; return }
        self.init(parsed, format: format)
    }

    /// What converts pixels of `format` described by `profile` to sRGB.
    @_optimize(size) package init(_ profile: ICCProfile, format: BitmapFormat) {
        switch (profile.colours, format) {
        case (.grey(let curve), .gray8):
            var table = [UInt8](repeating: 0, count: 256)
            var identity = true
            for value in 0..<256 {
                table[value] = SRGBCurve.byte(forLinear: curve.linear(Double(value) / 255))
                if Int(table[value]) != value { identity = false }
            }
            self = identity ? .none : .grey(table)
        case (.rgb(let colorants, let curves), .rgb8), (.rgb(let colorants, let curves), .rgba8):
            guard let tables = RGBTables(colorants: colorants, curves: curves) else { self = .unreadable; return }
            self = tables.isIdentity ? .none : .rgb(tables)
        default:
            self = .unreadable
        }
    }
}

extension RGBTables {
    /// Tables for a profile with these colorants (columns r, g, b in XYZ D50) and curves; nil when the colorants
    /// cannot be inverted or give a coefficient of 4 or more in magnitude (no camera or editor space is that far
    /// from sRGB: ProPhoto's largest is about 2.0).
    @_optimize(size) init?(colorants: [Double], curves: [ToneCurve]) {
        guard colorants.count == 9, curves.count == 3,
              let toSRGB = Matrix3.inverse(SRGBCurve.colorantsD50), Matrix3.inverse(colorants) != nil
        else { return nil }
        let matrix = Matrix3.multiply(toSRGB, colorants)
        for coefficient in matrix where !(coefficient > -3.99 && coefficient < 3.99) { return nil }
        let one = Double(1 << Self.linearBits)
        // linear[source * 256 + byte]: that byte's linear light through the source channel's curve.
        var linear = [Double](repeating: 0, count: 3 * 256)
        for source in 0..<3 {
            for byte in 0..<256 { linear[source * 256 + byte] = curves[source].linear(Double(byte) / 255) }
        }
        var packed = [UInt64](repeating: 0, count: 3 * 256)
        for source in 0..<3 {
            for byte in 0..<256 {
                var word: UInt64 = 0
                for output in 0..<3 {
                    let term = Int64((matrix[3 * output + source] * linear[source * 256 + byte] * one).rounded())
                    word |= UInt64(term + Self.bias) << (Self.fieldBits * UInt64(output))
                }
                packed[source * 256 + byte] = word
            }
        }
        self.packed = packed
        // sRGB itself (any of its variants): a matrix within 0.002 of the identity and curves that bring every
        // byte back to itself. Converting would move a few values by one step at most; skipping costs nothing.
        var identity = true
        for index in 0..<9 where abs(matrix[index] - (index % 4 == 0 ? 1 : 0)) > 0.002 { identity = false }
        if identity {
            for index in 0..<3 * 256 {
                let step = Int((linear[index] * Double(SRGBCurve.steps)).rounded())
                if Int(SRGBCurve.table[step]) != index % 256 {
                    identity = false
                    break
                }
            }
        }
        isIdentity = identity
    }
}

/// sRGB's encoding curve (IEC 61966-2-1) as a table from linear light in 1/16,384 steps to bytes.
enum SRGBCurve {
    /// Linear light is indexed in this many steps over 0…1.
    static let steps = 16384

    /// The byte for linear light `value` (0…1).
    @_optimize(size) static func byte(forLinear value: Double) -> UInt8 {
        let encoded = value <= 0.003_130_8 ? 12.92 * value : 1.055 * PortableMath.power(value, 1 / 2.4) - 0.055
        return UInt8(min(max((encoded * 255).rounded(), 0), 255))
    }

    /// `steps + 1` bytes: entry i is the byte for linear light i / `steps`. Built from the other side, once per
    /// process: the encoding rounds to byte b from where it reaches b − ½, which is linear light
    /// decode((b − ½) / 255), so 255 powers mark every boundary (16,385 encodings took 14 M instructions).
    static let table: [UInt8] = makeTable()

    @inline(never) @_optimize(size) private static func makeTable() -> [UInt8] {
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
    }

    /// `table` indexed by a packed field of `RGBTables` shifted right by two: entry i is the byte for linear light
    /// (i − 3 · 2¹⁶) / `steps`, clipped to 0…1 — the three biases of 2¹⁸ (2¹⁶ after the shift) taken off and the
    /// clipping done by the table itself, so the per-pixel loop needs neither. 2¹⁹ entries (512 KiB, built once
    /// per process on the first converted photo) cover every value a 19-bit field can hold; the ones a photo
    /// reaches are the 16 KiB of `table` and, for colours outside sRGB, a few lines beyond either end.
    static let biasedTable: [UInt8] = makeBiasedTable()

    @inline(never) @_optimize(size) private static func makeBiasedTable() -> [UInt8] {
        let offset = 3 * Int(RGBTables.bias >> 2)
        var biased = [UInt8](repeating: table[steps], count: 1 << 19)
        for index in 0..<offset { biased[index] = table[0] }
        for (index, byte) in table.enumerated() { biased[offset + index] = byte }
        return biased
    }

    /// The 3×3 matrix whose columns are sRGB's red, green and blue in XYZ adapted to D50 by Bradford, as littleCMS
    /// builds its sRGB profile: primaries (0.64, 0.33), (0.30, 0.60), (0.15, 0.06), white D65 (0.3127, 0.3290),
    /// PCS white D50 (0.9642, 1, 0.8249).
    static let colorantsD50: [Double] = makeColorantsD50()

    @inline(never) @_optimize(size) private static func makeColorantsD50() -> [Double] {
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
    }

    /// XYZ at Y = 1 of chromaticity (x, y).
    @_optimize(size) private static func xyz(_ x: Double, _ y: Double) -> [Double] { [x / y, 1, (1 - x - y) / y] }
}

/// Row-major 3×3 matrices in `Double`, for building the tables (never per pixel).
enum Matrix3 {
    @_optimize(size) static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        var result = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                result[3 * row + column] =
                    a[3 * row] * b[column] + a[3 * row + 1] * b[3 + column] + a[3 * row + 2] * b[6 + column]
            }
        }
        return result
    }

    @_optimize(size) static func apply(_ m: [Double], _ v: [Double]) -> [Double] {
        var result = [Double](repeating: 0, count: 3)
        for row in 0..<3 { result[row] = m[3 * row] * v[0] + m[3 * row + 1] * v[1] + m[3 * row + 2] * v[2] }
        return result
    }

    /// The inverse, or nil for a (nearly) singular matrix.
    @_optimize(size) static func inverse(_ m: [Double]) -> [Double]? {
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
    @_optimize(size) static func bradford(from source: [Double], to destination: [Double]) -> [Double] {
        let cone: [Double] = [0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296]
        guard let inverseCone = inverse(cone) else { return [1, 0, 0, 0, 1, 0, 0, 0, 1] }
        let s = apply(cone, source), d = apply(cone, destination)
        let gain: [Double] = [d[0] / s[0], 0, 0, 0, d[1] / s[1], 0, 0, 0, d[2] / s[2]]
        return multiply(inverseCone, multiply(gain, cone))
    }
}
