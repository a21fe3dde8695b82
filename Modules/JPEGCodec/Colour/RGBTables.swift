/// The per-photo tables of an RGB profile's conversion to sRGB (see `SRGBConversion`): for each source channel and
/// byte, that byte's linear light multiplied by the three matrix coefficients of its column, in 2⁻¹⁶ units, packed
/// into one 64-bit word — so a pixel costs three loads and two additions for all three output channels.
///
/// Packing: output channel k occupies bits 21k…21k+20 and holds its term plus a bias of 2¹⁸, which keeps it positive
/// (coefficients are below 4 in magnitude and linear light at most 1, so a term lies within ±2¹⁸); the sum of three
/// biased terms stays below 3 · 2¹⁹ < 2²¹, so no field carries into the next, and the bias is taken off after
/// adding. Integer arithmetic only: the same bytes on every processor.
public struct RGBTables: Sendable {
    /// Three tables of 256 packed words: `packed[source * 256 + byte]`.
    let packed: [UInt64]
    /// Whether the conversion leaves every byte as it is (an sRGB profile): checked once when building.
    let isIdentity: Bool

    /// Linear light is held in 2⁻¹⁶ units; the table `SRGBCurve.table` is indexed in 2⁻¹⁴.
    static let linearBits = 16
    static let fieldBits: UInt64 = 21
    /// Added to every term; three of them (3 · 2¹⁸) are taken off by `SRGBCurve.biasedTable`.
    static let bias = Int64(1) << 18

    /// Tables for a profile with these colorants (columns r, g, b in XYZ D50) and curves; nil when the colorants
    /// cannot be inverted or give a coefficient of 4 or more in magnitude (no camera or editor space is that far
    /// from sRGB: ProPhoto's largest is about 2.0).
    init?(colorants: [Double], curves: [ToneCurve]) {
        guard colorants.count == 9, curves.count == 3,
              let toSRGB = Matrix3.inverse(SRGBCurve.colorantsD50), Matrix3.inverse(colorants) != nil
        else { return nil }
        let matrix = Matrix3.multiply(toSRGB, colorants)
        guard matrix.allSatisfy({ $0 > -3.99 && $0 < 3.99 }) else { return nil }
        let one = Double(1 << Self.linearBits)
        let linear = curves.map { curve in (0..<256).map { curve.linear(Double($0) / 255) } }
        var packed = [UInt64](repeating: 0, count: 3 * 256)
        for source in 0..<3 {
            for byte in 0..<256 {
                var word: UInt64 = 0
                for output in 0..<3 {
                    let term = Int64((matrix[3 * output + source] * linear[source][byte] * one).rounded())
                    word |= UInt64(term + Self.bias) << (Self.fieldBits * UInt64(output))
                }
                packed[source * 256 + byte] = word
            }
        }
        self.packed = packed
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
        // Each field, rounded to the 2⁻¹⁴ steps of linear light (+2, then >> 2: the rounding constant cannot carry
        // out of a field, which stays below 3 · 2¹⁹ + 2), indexes `SRGBCurve.biasedTable`, which takes off the
        // biases and clips: no arithmetic per channel but a shift and a mask.
        let bits = Self.fieldBits, mask: UInt64 = (1 << (Self.fieldBits - 2)) - 1
        let rounding: UInt64 = 2 | 2 << Self.fieldBits | 2 << (2 * Self.fieldBits)
        packed.withUnsafeBufferPointer { packed in
            SRGBCurve.biasedTable.withUnsafeBufferPointer { curve in
                guard let t = packed.baseAddress, let encode = curve.baseAddress else { return }
                var pixel = row
                for _ in 0..<width {
                    let sum = t[Int(pixel[0])] &+ t[256 + Int(pixel[1])] &+ t[512 + Int(pixel[2])] &+ rounding
                    pixel[0] = encode[Int((sum >> 2) & mask)]
                    pixel[1] = encode[Int((sum >> (bits + 2)) & mask)]
                    pixel[2] = encode[Int((sum >> (2 * bits + 2)) & mask)]
                    pixel += step
                }
            }
        }
    }
}
