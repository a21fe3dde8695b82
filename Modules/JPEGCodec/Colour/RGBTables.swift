/// The per-photo tables of an RGB profile's conversion to sRGB (see `SRGBConversion`): for each output channel
/// and source channel, the source byte's linear light already multiplied by that matrix coefficient, in 2⁻¹⁶
/// units, so that an output channel's linear light is the sum of three loads.
public struct RGBTables: Sendable {
    /// Nine tables of 256 entries: `terms[(3 * output + source) * 256 + byte]`.
    let terms: [Int32]
    /// Whether the conversion leaves every byte as it is (an sRGB profile): checked once when building.
    let isIdentity: Bool

    /// Linear light is held in 2⁻¹⁶ units; the table `SRGBCurve.table` is indexed in 2⁻¹⁴.
    static let linearBits = 16
    private static let indexShift = Int32(linearBits - 14)

    /// Tables for a profile with these colorants (columns r, g, b in XYZ D50) and curves; nil when the colorants
    /// cannot be inverted or give coefficients beyond ±8 (no camera or editor space is that far from sRGB).
    init?(colorants: [Double], curves: [ToneCurve]) {
        guard colorants.count == 9, curves.count == 3,
              let toSRGB = Matrix3.inverse(SRGBCurve.colorantsD50), Matrix3.inverse(colorants) != nil
        else { return nil }
        let matrix = Matrix3.multiply(toSRGB, colorants)
        guard matrix.allSatisfy({ $0 > -8 && $0 < 8 }) else { return nil }
        let one = Double(1 << Self.linearBits)
        let linear = curves.map { curve in (0..<256).map { curve.linear(Double($0) / 255) } }
        var terms = [Int32](repeating: 0, count: 9 * 256)
        for output in 0..<3 {
            for source in 0..<3 {
                let coefficient = matrix[3 * output + source]
                for byte in 0..<256 {
                    terms[(3 * output + source) * 256 + byte] = Int32((coefficient * linear[source][byte] * one).rounded())
                }
            }
        }
        self.terms = terms
        // sRGB itself (any of its variants): a matrix within 0.002 of the identity and curves that bring every
        // byte back to itself. Converting would move a few values by one step at most; skipping costs nothing.
        let nearIdentity = (0..<9).allSatisfy { abs(matrix[$0] - ($0 % 4 == 0 ? 1 : 0)) <= 0.002 }
        isIdentity = nearIdentity && (0..<3).allSatisfy { channel in
            (0..<256).allSatisfy { byte in
                let index = Int((linear[channel][byte] * Double(SRGBCurve.steps)).rounded())
                return Int(SRGBCurve.table[index]) == byte
            }
        }
    }

    /// Converts `width` pixels of `step` bytes (RGB first) at `row` in place.
    func convert(row: UnsafeMutablePointer<UInt8>, width: Int, step: Int) {
        let maximum = Int32(SRGBCurve.steps), half = Int32(1) << (Self.indexShift - 1), shift = Self.indexShift
        terms.withUnsafeBufferPointer { terms in
            SRGBCurve.table.withUnsafeBufferPointer { curve in
                guard let t = terms.baseAddress, let encode = curve.baseAddress else { return }
                var pixel = row
                for _ in 0..<width {
                    let r = Int(pixel[0]), g = Int(pixel[1]) + 256, b = Int(pixel[2]) + 512
                    let red = (t[r] &+ t[g] &+ t[b] &+ half) >> shift
                    let green = (t[768 + r] &+ t[768 + g] &+ t[768 + b] &+ half) >> shift
                    let blue = (t[1536 + r] &+ t[1536 + g] &+ t[1536 + b] &+ half) >> shift
                    pixel[0] = encode[Int(min(max(red, 0), maximum))]
                    pixel[1] = encode[Int(min(max(green, 0), maximum))]
                    pixel[2] = encode[Int(min(max(blue, 0), maximum))]
                    pixel += step
                }
            }
        }
    }
}
