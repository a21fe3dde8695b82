/// Quantization tables: the ITU T.81 Annex K examples scaled by a 1...100 quality the way libjpeg scales them, so
/// "quality 85" produces the same tables a user gets from libjpeg-based tools.
struct QuantizationTable: Equatable {
    /// The 64 quantizer steps in natural (row-major) order, each 1...255 (baseline JPEG stores 8-bit steps).
    let steps: [UInt16]

    /// Annex K.1, Table K.1: luminance, natural order.
    static let annexKLuminance: [UInt16] = [
        16, 11, 10, 16, 24, 40, 51, 61,
        12, 12, 14, 19, 26, 58, 60, 55,
        14, 13, 16, 24, 40, 57, 69, 56,
        14, 17, 22, 29, 51, 87, 80, 62,
        18, 22, 37, 56, 68, 109, 103, 77,
        24, 35, 55, 64, 81, 104, 113, 92,
        49, 64, 78, 87, 103, 121, 120, 101,
        72, 92, 95, 98, 112, 100, 103, 99,
    ]

    /// Annex K.1, Table K.2: chrominance, natural order.
    static let annexKChrominance: [UInt16] = [
        17, 18, 24, 47, 99, 99, 99, 99,
        18, 21, 26, 66, 99, 99, 99, 99,
        24, 26, 56, 99, 99, 99, 99, 99,
        47, 66, 99, 99, 99, 99, 99, 99,
        99, 99, 99, 99, 99, 99, 99, 99,
        99, 99, 99, 99, 99, 99, 99, 99,
        99, 99, 99, 99, 99, 99, 99, 99,
        99, 99, 99, 99, 99, 99, 99, 99,
    ]

    /// The percentage applied to the Annex K steps for `quality` (1...100): below 50 the steps grow as 5000/q,
    /// above it they shrink linearly to zero at 100. This is the convention libjpeg made the de-facto standard.
    static func scalePercent(quality: Int) -> Int {
        quality < 50 ? 5000 / quality : 200 - 2 * quality
    }

    /// Scales `base` for `quality`, rounding to nearest and clamping each step to 1...255 for baseline output.
    init(base: [UInt16], quality: Int) {
        let percent = Self.scalePercent(quality: quality)
        steps = base.map { step in UInt16(clamping: min(255, max(1, (Int(step) * percent + 50) / 100))) }
    }
}

/// The zig-zag scan: `naturalIndex[k]` is the natural (row-major) position of the k-th coefficient in scan order.
enum ZigZag {
    static let naturalIndex: [Int] = [
        0, 1, 8, 16, 9, 2, 3, 10,
        17, 24, 32, 25, 18, 11, 4, 5,
        12, 19, 26, 33, 40, 48, 41, 34,
        27, 20, 13, 6, 7, 14, 21, 28,
        35, 42, 49, 56, 57, 50, 43, 36,
        29, 22, 15, 23, 30, 37, 44, 51,
        58, 59, 52, 45, 38, 31, 39, 46,
        53, 60, 61, 54, 47, 55, 62, 63,
    ]
}

/// Per-coefficient multipliers that turn a raw AAN DCT output into a quantized value in one multiplication: the
/// AAN transform leaves each output scaled by 8·s(u)·s(v), and dividing by the step is a multiply by its reciprocal.
struct QuantizationMultipliers {
    /// 64 multipliers in natural order.
    let values: [Float]

    /// s(0) = 1, s(k) = √2·cos(kπ/16): the per-frequency gain of the AAN factorisation.
    static let aanScale: [Double] = (0..<8).map { k in
        k == 0 ? 1.0 : 2.0.squareRoot() * cosine(Double(k) * Double.pi / 16)
    }

    init(table: QuantizationTable) {
        var values = [Float](repeating: 0, count: 64)
        for row in 0..<8 {
            for column in 0..<8 {
                let step = Double(table.steps[row * 8 + column])
                values[row * 8 + column] = Float(1 / (step * Self.aanScale[row] * Self.aanScale[column] * 8))
            }
        }
        self.values = values
    }
}

/// cos(x) without Foundation: a Taylor series after reducing x to [-π, π]; only used to build tables.
func cosine(_ x: Double) -> Double {
    var reduced = x.truncatingRemainder(dividingBy: 2 * Double.pi)
    if reduced > Double.pi { reduced -= 2 * Double.pi }
    if reduced < -Double.pi { reduced += 2 * Double.pi }
    var term = 1.0
    var sum = 1.0
    let square = reduced * reduced
    for n in stride(from: 2, through: 40, by: 2) {
        term *= -square / Double((n - 1) * n)
        sum += term
    }
    return sum
}
