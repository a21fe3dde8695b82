/// Quantization tables: the ITU T.81 Annex K examples scaled by a 1...100 quality the way libjpeg scales them, so
/// "quality 85" produces the same tables a user gets from libjpeg-based tools.
struct QuantizationTable {
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
    @_optimize(size) static func scalePercent(quality: Int) -> Int {
        quality < 50 ? 5000 / quality : 200 - 2 * quality
    }

    /// Scales `base` for `quality`, rounding to nearest and clamping each step to 1...255 for baseline output.
    @_optimize(size) init(base: [UInt16], quality: Int) {
        let percent = Self.scalePercent(quality: quality)
        steps = base.map { step in UInt16(clamping: min(255, max(1, (Int(step) * percent + 50) / 100))) }
    }

    /// `steps` (natural order, each 1...255) as they are.
    @_optimize(size) init(steps: [UInt16]) {
        self.steps = steps
    }

    /// `scaled` (natural order) rounded to nearest and clamped to 1...255.
    @_optimize(size) init(rounding scaled: [Double]) {
        steps = scaled.map { value in UInt16(clamping: min(255, max(1, Int((value + 0.5).rounded(.down))))) }
    }
}

/// The smaller-files mode's luma table (issue 21, `JPEGEncoder.QuantizationTables.ssimTuned`): ours, fitted by
/// `scripts/tune-quant-tables` for the fewest bytes at equal luma SSIM on a training set of photos (see
/// Docs/ImagePipeline.md, "Tuned quantisation tables"). Chroma keeps the Annex K table at the same quality.
///
/// The table is a smooth function of the frequency (u horizontal, v vertical, 0...7) with five parameters,
///
///     log step(u, v) = a·r + b·r² + c·u·v/49 + e·(v − u)/7,   r = √(u² + v²)/7,   log step(0, 0) = d,
///
/// normalised to a geometric mean of 1, times a multiplier m(quality) calibrated so that the training photos' SSIM
/// at quality q is cjpeg's (its dip-free frontier) at q, then rounded and clamped to 1...255; the DC step is then
/// moved to the nearest flat-safe one (`flatSafeDC`). The training photos' median holds the calibration; a very
/// smooth photo lands lower (scikit-image's moon at q60 has cjpeg's SSIM at q≈40).
enum TunedQuantization {
    /// (a, b, c, d, e) of the family above, as fitted.
    static let parameters = (a: -0.3750, b: 0.6202, c: 0.7682, d: -0.0284, e: 0.0179)

    /// m(q) at q = 50, 55, ..., 95, as calibrated by the script (the table with rounding); between knots it is
    /// linear, below 50 it grows as libjpeg's scale does (50/q times m(50)) and above 95 it falls linearly to 0 at
    /// q100 (every step 1).
    static let knots: [Double] = [31.29, 28.89, 27.13, 24.48, 22.10, 19.54, 16.54, 13.20, 9.438, 5.238]
    /// The same for trellis quantisation, which lowers SSIM at a given table: `knots` read at the quality whose
    /// SSIM the trellis files reached (`ImageBench --size-at-ssim`, the training photos' median "q≈": 6.2
    /// qualities below at q60, 0.5 at q90, extrapolated linearly to q50 and to 0 at q95).
    static let trellisKnots: [Double] = [27.86, 26.08, 23.91, 22.05, 20.05, 17.68, 15.20, 12.22, 9.018, 5.238]

    /// The family's 64 values in natural order, geometric mean 1.
    static let shape: [Double] = makeShape()

    /// Builds `shape`, once per process. A function of its own, not a closure, so it is compiled for size: the
    /// process's one-time initializer is compiled at the host's `-O` and would take the loops in.
    @inline(never) @_optimize(size) private static func makeShape() -> [Double] {
        var logs = [Double](repeating: 0, count: 64)
        for v in 0..<8 {
            for u in 0..<8 {
                let r = (Double(u * u + v * v)).squareRoot() / 7
                logs[v * 8 + u] = u == 0 && v == 0 ? parameters.d
                    : parameters.a * r + parameters.b * r * r + parameters.c * Double(u * v) / 49
                        + parameters.e * Double(v - u) / 7
            }
        }
        var sum = 0.0
        for value in logs { sum += value }
        let mean = sum / 64
        for index in logs.indices { logs[index] = exponential(logs[index] - mean) }
        return logs
    }

    /// m(quality) for quality 1...100.
    @_optimize(size) static func multiplier(quality: Int, trellis: Bool) -> Double {
        let knots = trellis ? trellisKnots : knots
        let first = 50
        let spacing = 5
        let last = first + spacing * (knots.count - 1)
        if quality <= first { return knots[0] * Double(first) / Double(max(1, quality)) }
        if quality >= last { return (knots[knots.count - 1] * Double(100 - quality) / Double(100 - last)) }
        let index = (quality - first) / spacing
        let t = Double(quality - first - index * spacing) / Double(spacing)
        return knots[index] + t * (knots[index + 1] - knots[index])
    }

    /// The luma table for `quality` (1...100), for an encoding with or without trellis quantisation.
    @_optimize(size) static func luminance(quality: Int, trellis: Bool) -> QuantizationTable {
        let m = multiplier(quality: quality, trellis: trellis)
        var steps = QuantizationTable(rounding: shape.map { $0 * m }).steps
        steps[0] = flatSafeDC(near: steps[0])
        return QuantizationTable(steps: steps)
    }

    /// The DC step nearest `nominal` (the smaller on a tie) with which a flat black block (level −128: DC −1024 in
    /// T.81's scaling) decodes as 0 and a flat white one (DC 1016) as 255 again. With a step of 15, say, black
    /// comes back as level 1: where a photo is clipped to black, SSIM's mean term (its constant C1 is 6.5 squared
    /// levels) loses more for that one level than a whole quality step gains; libjpeg's SSIM dips at q52–54,
    /// q61–64 and q68–70 are its DC steps 15, 12 and 10. Steps 1...8 always qualify.
    @_optimize(size) static func flatSafeDC(near nominal: UInt16) -> UInt16 {
        @_optimize(size) func safe(_ step: Int) -> Bool {
            let black = (1024 + step / 2) / step * step  // round(1024 / step) · step
            let white = (1016 + step / 2) / step * step
            return black > 1020 && white >= 1012
        }
        let nominal = Int(nominal)
        for distance in 0..<256 {
            for step in [nominal - distance, nominal + distance] where (1...255).contains(step) && safe(step) {
                return UInt16(step)
            }
        }
        return 1
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

    @_optimize(size) init(table: QuantizationTable) {
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

/// e^x without Foundation: x = k·ln 2 + r with |r| ≤ ln 2 / 2, a Taylor series for e^r, times 2^k; only used to
/// build tables.
@_optimize(size) func exponential(_ x: Double) -> Double {
    let ln2 = 0.693_147_180_559_945_3
    let k = (x / ln2).rounded()
    let r = x - k * ln2
    var term = 1.0
    var sum = 1.0
    for n in 1...24 {
        term *= r / Double(n)
        sum += term
    }
    let power = Int(max(-1000, min(1000, k)))
    return sum * Double(sign: .plus, exponent: power, significand: 1)
}

/// cos(x) without Foundation: a Taylor series after reducing x to [-π, π]; only used to build tables.
@_optimize(size) func cosine(_ x: Double) -> Double {
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
