@testable import ImagePipeline
@testable import JPEGCodec
import Foundation
import ReceptionCore
import Testing

/// Trellis quantisation (issue 21, `Options.trellis`), judged by libjpeg-turbo's `djpeg`: every file decodes
/// without a warning, λ = 0 reproduces plain rounding byte for byte, a huge λ keeps only DC, and on a photo the
/// files get smaller at the same quality for a bounded loss of luma PSNR.
@Suite struct TrellisEncoderTests {
    typealias Variant = ProgressiveEncoderTests.Variant

    struct Mode: CustomTestStringConvertible, Sendable {
        let progressive: Bool
        let optimize: Bool
        var testDescription: String { (progressive ? "progressive" : "baseline") + (optimize ? " optimised" : "") }
    }

    static let modes = [
        Mode(progressive: false, optimize: true), Mode(progressive: false, optimize: false),
        Mode(progressive: true, optimize: true),
    ]

    @Test("trellis files decode cleanly in djpeg and in our decoder, close to the source",
          arguments: ProgressiveEncoderTests.variants, [1, 50, 100])
    func decodesCleanly(variant: Variant, quality: Int) throws {
        let image = try ProgressiveEncoderTests.image(variant)
        for mode in Self.modes {
            var options = JPEGEncoder.Options(
                quality: quality, chroma: variant.chroma, optimizeHuffman: mode.optimize,
                restartInterval: variant.restart, progressive: mode.progressive)
            // Rounding on the tables the trellis mode writes: the trellis at λ = 0 (byte-identical to rounding).
            options.trellis = true
            options.trellisLambda = 0
            let plain = try JPEGEncoder(options: options).encodeJPEG(image, quality: quality)
            options.trellisLambda = nil
            let jpeg = try JPEGEncoder(options: options).encodeJPEG(image, quality: quality)
            #expect(Reference.segment(mode.progressive ? 0xC2 : 0xC0, in: jpeg) != nil, "\(mode)")
            let theirs = try Reference.djpeg(jpeg, grey: variant.grey)
            let ours = try JPEGDecoder.decode(jpeg, eighths: 8)
            #expect(ours.pixels.width == variant.width && ours.pixels.height == variant.height)
            #expect(theirs.width == variant.width && theirs.height == variant.height)
            // Trellis trades a little error for bits; it never wrecks the picture: within 2.5 dB of rounding (the
            // largest drop on these crops is well under that at every quality).
            let rounded = Reference.lumaPSNR(image, try Reference.djpeg(plain, grey: variant.grey))
            let psnr = Reference.lumaPSNR(image, theirs)
            #expect(psnr > rounded - 2.5, "\(mode) q\(quality): \(psnr) dB against \(rounded) dB rounded")
        }
    }

    @Test("at λ = 0 the trellis keeps every rounded value: the bytes equal plain quantisation's",
          arguments: [false, true])
    func zeroLambdaIsRounding(progressive: Bool) throws {
        let image = try Reference.photo("coffee")
        for quality in [30, 75, 95] {
            var options = JPEGEncoder.Options(quality: quality, optimizeHuffman: false, progressive: progressive)
            let plain = try JPEGEncoder(options: options).encodeJPEG(image, quality: quality)
            options.trellis = true
            options.tables = .annexK
            options.trellisLambda = 0
            let trellis = try JPEGEncoder(options: options).encodeJPEG(image, quality: quality)
            let identical = trellis == plain
            #expect(identical, "q\(quality): \(trellis.count) B against \(plain.count) B")
        }
    }

    @Test("a huge λ zeroes every AC coefficient: each 8×8 block decodes flat", arguments: [false, true])
    func hugeLambdaKeepsOnlyDC(progressive: Bool) throws {
        let photo = try Reference.photo("chelsea")
        let grey = try ProgressiveEncoderTests.image(
            Variant(width: photo.width, height: photo.height, grey: true, chroma: .halved, restart: 0))
        var options = JPEGEncoder.Options(quality: 90, progressive: progressive, trellis: true)
        options.trellisLambda = 1e9
        let jpeg = try JPEGEncoder(options: options).encodeJPEG(grey, quality: 90)
        let decoded = try Reference.djpeg(jpeg, grey: true)
        var unevenBlocks = 0
        for blockY in 0..<(grey.height / 8) {
            for blockX in 0..<(grey.width / 8) {
                let first = decoded.bytes[blockY * 8 * decoded.bytesPerRow + blockX * 8]
                var flat = true
                for y in 0..<8 {
                    for x in 0..<8 where decoded.bytes[(blockY * 8 + y) * decoded.bytesPerRow + blockX * 8 + x] != first {
                        flat = false
                    }
                }
                if !flat { unevenBlocks += 1 }
            }
        }
        #expect(unevenBlocks == 0)
        let plain = try JPEGEncoder(options: .init(quality: 90, progressive: progressive)).encodeJPEG(grey, quality: 90)
        #expect(jpeg.count * 4 < plain.count, "\(jpeg.count) B against \(plain.count) B")
    }

    @Test("on photos trellis files are smaller than rounded ones at the same quality, luma PSNR within 1 dB",
          arguments: ["astronaut", "coffee"], [60, 75, 90])
    func smallerOnPhotos(name: String, quality: Int) throws {
        let image = try Reference.photo(name)
        for progressive in [false, true] {
            var options = JPEGEncoder.Options(quality: quality, progressive: progressive)
            let plain = try JPEGEncoder(options: options).encodeJPEG(image, quality: quality)
            options.trellis = true
            // The trellis alone, on the same tables (TunedTablesTests judges the mode with its own tables).
            options.tables = .annexK
            let trellis = try JPEGEncoder(options: options).encodeJPEG(image, quality: quality)
            let plainPSNR = Reference.lumaPSNR(image, try Reference.djpeg(plain))
            let trellisPSNR = Reference.lumaPSNR(image, try Reference.djpeg(trellis))
            let label = "\(name) q\(quality) \(progressive ? "progressive" : "baseline")"
            #expect(
                Double(trellis.count) < 0.97 * Double(plain.count),
                "\(label): \(trellis.count) B against \(plain.count) B")
            #expect(trellisPSNR > plainPSNR - 1.0, "\(label): \(trellisPSNR) dB against \(plainPSNR) dB")
        }
    }
}

/// `TrellisQuantizer.refine` on synthetic groups of eight blocks: whatever it skips (settled leading candidates)
/// or decides, each value is the rounded one, one step toward zero (never zero itself that way), or zero, with its
/// sign, and the non-zero masks match the values; at a huge λ only DC is left.
@Suite struct TrellisRefineTests {
    @Test("refine keeps, lowers by one or zeroes each rounded AC value, and rewrites the masks to match",
          arguments: [Float(0.05), 1, 1e9], [Float(0), 0.5])
    func valuesMoveTowardZero(lambda: Float, weighting: Float) {
        let table = QuantizationTable(base: QuantizationTable.annexKLuminance, quality: 75)
        let quantizer = TrellisQuantizer(
            ac: [.luminanceAC, .chrominanceAC], quantization: [table], lambda: lambda, masking: 0,
            weighting: weighting)
        Self.refineRandomBlocks(quantizer, table: table) { rounded, coefficients in
            for lane in 0..<8 {
                var mask: UInt64 = 0
                for k in 0..<64 {
                    let before = rounded[k][lane]
                    let after = coefficients[k][lane]
                    if after != 0 { mask |= 1 << UInt64(k) }
                    let lowered = abs(before) > 1 && after == before - before.signum()
                    let allowed = after == before || after == 0 || lowered
                    #expect(allowed, "λ \(lambda) lane \(lane) k \(k): \(before) → \(after)")
                    if k == 0 || lambda > 1e8 { #expect(after == (k == 0 ? before : 0)) }
                }
                let stored = UInt64(UInt32(bitPattern: coefficients[65][lane])) << 32
                    | UInt64(UInt32(bitPattern: coefficients[64][lane]))
                #expect(stored == mask, "λ \(lambda) lane \(lane)")
            }
        }
    }

    @Test("the frequency weighting drops fewer values where the step is coarse and more where it is fine")
    func weightingFollowsTheSteps() {
        let table = QuantizationTable(base: QuantizationTable.annexKLuminance, quality: 75)
        let meanStep = Float((1..<64).map { table.steps[ZigZag.naturalIndex[$0]] }.reduce(0, +)) / 63
        // Values dropped at zig-zag positions whose step is below and above the table's mean AC step.
        func drops(weighting: Float) -> (fine: Int, coarse: Int) {
            let quantizer = TrellisQuantizer(
                ac: [.luminanceAC, .chrominanceAC], quantization: [table], lambda: 0.05, masking: 0,
                weighting: weighting)
            var counts = (fine: 0, coarse: 0)
            Self.refineRandomBlocks(quantizer, table: table) { rounded, coefficients in
                for k in 1..<64 {
                    let coarse = Float(table.steps[ZigZag.naturalIndex[k]]) > meanStep
                    for lane in 0..<8 where rounded[k][lane] != 0 && coefficients[k][lane] == 0 {
                        if coarse { counts.coarse += 1 } else { counts.fine += 1 }
                    }
                }
            }
            return counts
        }
        let plain = drops(weighting: 0), weighted = drops(weighting: 0.5)
        #expect(weighted.coarse < plain.coarse, "coarse steps: \(weighted.coarse) dropped against \(plain.coarse)")
        #expect(weighted.fine > plain.fine, "fine steps: \(weighted.fine) dropped against \(plain.fine)")
        #expect(TrellisQuantizer.weight(ratio: 4, exponent: 0) == 1)
        #expect(TrellisQuantizer.weight(ratio: 4, exponent: 0.25) == 2)
        #expect(TrellisQuantizer.weight(ratio: 4, exponent: 0.5) == 4)
        #expect(TrellisQuantizer.weight(ratio: 4, exponent: 0.6) == 4)
        #expect(TrellisQuantizer.weight(ratio: 4, exponent: 1) == 16)
    }

    /// Runs `quantizer` over 200 groups of eight pseudo-random blocks quantised with `table`, handing `check` each
    /// group's rounded values and its refined coefficients (zig-zag order, masks at 64 and 65).
    static func refineRandomBlocks(
        _ quantizer: TrellisQuantizer, table: QuantizationTable,
        check: ([SIMD8<Int32>], UnsafeMutablePointer<SIMD8<Int32>>) -> Void
    ) {
        let transformed = UnsafeMutablePointer<SIMD8<Float>>.allocate(capacity: 64)
        let coefficients = UnsafeMutablePointer<SIMD8<Int32>>.allocate(
            capacity: ForwardDCT.coefficientVectorsPerGroup)
        let multipliers = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        let scanOrder = UnsafeMutablePointer<Int32>.allocate(capacity: 64)
        defer {
            transformed.deallocate()
            coefficients.deallocate()
            multipliers.deallocate()
            scanOrder.deallocate()
        }
        // The multipliers quantisation uses for `table`, which the quantizer holds too (zig-zag order).
        let stepMultipliers = QuantizationMultipliers(table: table).values
        for k in 0..<64 {
            multipliers[k] = stepMultipliers[ZigZag.naturalIndex[k]]
            scanOrder[k] = Int32(ZigZag.naturalIndex[k])
        }
        // A fixed xorshift sequence, so a failure repeats.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Float {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Float(state >> 40) / Float(1 << 23) - 1
        }
        for round in 0..<200 {
            // Magnitudes (in steps) falling with frequency, as in photos; some blocks large enough to settle.
            let scale = Float(1 + round % 40)
            for natural in 0..<64 {
                var lanes = SIMD8<Float>()
                for lane in 0..<8 {
                    lanes[lane] = next() * scale / Float(1 + natural / 4) / stepMultipliers[natural]
                }
                transformed[natural] = lanes
            }
            ForwardDCT.quantize(
                transformed, multipliers: multipliers, scanOrder: scanOrder, clampAC: false, into: coefficients)
            let rounded = (0..<64).map { coefficients[$0] }
            quantizer.refine(transformed, coefficients: coefficients, lanes: 8, table: 0)
            check(rounded, coefficients)
        }
    }
}
