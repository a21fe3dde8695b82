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
