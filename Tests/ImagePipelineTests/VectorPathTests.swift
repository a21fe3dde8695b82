@testable import ImagePipeline
@testable import JPEGCodec
import ReceptionCore
import ReceptionTesting
import Testing

/// The codec's x86-64 vector paths against the portable code they stand in for. Decoder: the 16-bit SSE2 inverse
/// DCT (the same bytes for every block an encoder writes) and SSE2 YCbCr → RGB (every YCbCr triple). Encoder: SSE2
/// quantisation and the SSE2 4:2:0 colour conversion of RGB pixels (RGBA input still takes the portable
/// conversion, so opaque RGBA must give RGB's bytes). On other machines the portable code is the codec, and these
/// tests compare it with itself.
@Suite struct VectorPathTests {
    /// cos((2x + 1)uπ/16) · C(u) / 2 at [u * 8 + x].
    static let basis: [Double] = (0..<64).map { i in
        let u = i >> 3, x = i & 7
        return cosine(Double(2 * x + 1) * Double(u) * Double.pi / 16) * (u == 0 ? 1 / 2.0.squareRoot() : 1) / 2
    }

    /// T.81 A.3.3's forward DCT of one 8×8 block of samples (level-shifted here), rows then columns, in doubles.
    static func forwardDCT(_ samples: [Int]) -> [Double] {
        var rows = [Double](repeating: 0, count: 64), out = rows
        for y in 0..<8 {
            for u in 0..<8 {
                rows[y * 8 + u] = (0..<8).reduce(0.0) { $0 + Double(samples[y * 8 + $1] - 128) * basis[u * 8 + $1] }
            }
        }
        for v in 0..<8 {
            for u in 0..<8 { out[v * 8 + u] = (0..<8).reduce(0.0) { $0 + rows[$1 * 8 + u] * basis[v * 8 + $1] } }
        }
        return out
    }

    /// One block of samples of a kind photos have: noise, a hard edge, a gradient, a checkerboard, or flat.
    static func samples(_ kind: Int, using generator: inout SeededRandomNumberGenerator) -> [Int] {
        let level = Int.random(in: 0...255, using: &generator)
        return (0..<64).map { i in
            let x = i & 7, y = i >> 3
            switch kind {
            case 0: return Int.random(in: 0...255, using: &generator)
            case 1: return x + y < 7 ? 0 : 255
            case 2: return min(255, level / 2 + 16 * x + 8 * y)
            case 3: return (x + y) & 1 == 0 ? 0 : 255
            default: return level
            }
        }
    }

    @Test("the 16-bit inverse DCT gives the 32-bit transform's samples for encoder-made blocks at any quality")
    func integerTransformsAgree() {
        var generator = SeededRandomNumberGenerator.fromEnvironment()
        let block = UnsafeMutablePointer<Int32>.allocate(capacity: 65)
        defer { block.deallocate() }
        var vector = [UInt8](repeating: 0, count: 64), portable = vector
        var compared = 0, mismatches = 0
        for trial in 0..<3_000 {
            let coefficients = Self.forwardDCT(Self.samples(trial % 5, using: &generator))
            // Quantisation steps from 1 (q100) to 255 (the coarsest 8-bit table), one per coefficient.
            let coarse = Int.random(in: 1...255, using: &generator)
            for k in 0..<64 {
                let step = Double(k == 0 ? max(1, coarse / 2) : Int.random(in: 1...coarse, using: &generator))
                block[k] = Int32((coefficients[k] / step).rounded() * step)
            }
            // Every row bound the block loop passes (rows past it are zero in the real decoder too).
            for rows in [8, Int.random(in: 1...7, using: &generator)] {
                for v in rows..<8 { (block + v * 8).update(repeating: 0, count: 8) }
                vector.withUnsafeMutableBufferPointer { out in
                    InverseDCT.transform8(block, rows: rows, into: out.baseAddress!, stride: 8)
                }
                portable.withUnsafeMutableBufferPointer { out in
                    InverseDCT.transform8Integer(block, rows: rows, into: out.baseAddress!, stride: 8)
                }
                compared += 1
                if vector != portable { mismatches += 1 }
            }
        }
        #expect(compared == 6_000)
        #expect(mismatches == 0, "\(mismatches) blocks differ; \(generator.reproduction)")
    }

    @Test("corrupt coefficients far outside any encoder's range stay clamped samples (no trap)")
    func corruptCoefficients() {
        var generator = SeededRandomNumberGenerator.fromEnvironment()
        let block = UnsafeMutablePointer<Int32>.allocate(capacity: 65)
        defer { block.deallocate() }
        var out = [UInt8](repeating: 7, count: 64)
        var written = 0
        for _ in 0..<500 {
            for k in 0..<64 { block[k] = Int32.random(in: Int32.min...Int32.max, using: &generator) }
            out.withUnsafeMutableBufferPointer { InverseDCT.transform8(block, rows: 8, into: $0.baseAddress!, stride: 8) }
            written += out.count
        }
        // A trap ends the process; reaching here with every block written is the outcome.
        #expect(written == 500 * 64, "\(generator.reproduction)")
    }

    @Test("YCbCr → RGB gives the one-by-one bytes for every (Y, Cb, Cr) and at every row length")
    func colourConversionAgrees() {
        // All 2²⁴ triples: Y runs along a row, Cb and Cr are fixed per row; 256 + 5 pixels so the tail runs too.
        let width = 261
        var luma = [UInt8](repeating: 0, count: width), cb = luma, cr = luma
        var fast = [UInt8](repeating: 0, count: 3 * width), reference = fast
        var mismatches = 0, rows = 0
        for b in 0...255 {
            for r in 0...255 {
                for x in 0..<width {
                    luma[x] = UInt8(truncatingIfNeeded: x)
                    cb[x] = UInt8(truncatingIfNeeded: b &+ x / 256)
                    cr[x] = UInt8(r)
                }
                fast.withUnsafeMutableBufferPointer { out in
                    YCbCr.convert(luma, cb, cr, count: width, into: out.baseAddress!)
                }
                reference.withUnsafeMutableBufferPointer { out in
                    YCbCr.convertOneByOne(luma, cb, cr, range: 0..<width, into: out.baseAddress!)
                }
                rows += 1
                if fast != reference { mismatches += 1 }
            }
        }
        #expect(rows == 65_536)
        #expect(mismatches == 0)
        // Short rows (no whole group, one group and a tail) leave no byte past 3 × count touched.
        for count in [0, 1, 15, 16, 17, 31, 32, 33] {
            var out = [UInt8](repeating: 0xA5, count: 3 * count + 64)
            let source = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37) }
            out.withUnsafeMutableBufferPointer { YCbCr.convert(source, source, source, count: count, into: $0.baseAddress!) }
            #expect(out[(3 * count)...].allSatisfy { $0 == 0xA5 }, "row of \(count) wrote past its end")
            var expected = [UInt8](repeating: 0, count: 3 * count)
            expected.withUnsafeMutableBufferPointer {
                YCbCr.convertOneByOne(source, source, source, range: 0..<count, into: $0.baseAddress!)
            }
            #expect(Array(out[..<(3 * count)]) == expected, "row of \(count)")
        }
    }

    @Test("SSE2 quantisation gives the portable coefficients and non-zero masks")
    func quantisationAgrees() {
        var generator = SeededRandomNumberGenerator.fromEnvironment()
        let block = UnsafeMutablePointer<SIMD8<Float>>.allocate(capacity: 64)
        let fast = UnsafeMutablePointer<SIMD8<Int32>>.allocate(capacity: 66)
        let reference = UnsafeMutablePointer<SIMD8<Int32>>.allocate(capacity: 66)
        defer { block.deallocate(); fast.deallocate(); reference.deallocate() }
        let scanOrder = (0..<64).map { Int32(naturalOrder[$0]) }
        var mismatches = 0
        for trial in 0..<2_000 {
            // AAN-scaled coefficients of 8-bit samples reach a few thousand; many are near zero, as in photos.
            let scale = Float([0.3, 4, 60, 2_000][trial % 4])
            for k in 0..<64 {
                for lane in 0..<8 { block[k][lane] = Float.random(in: -scale...scale, using: &generator) }
            }
            let multipliers = (0..<64).map { _ in Float.random(in: 0.0005...0.125, using: &generator) }
            multipliers.withUnsafeBufferPointer { m in
                scanOrder.withUnsafeBufferPointer { order in
                    ForwardDCT.quantize(
                        block, multipliers: m.baseAddress!, scanOrder: order.baseAddress!, clampAC: false, into: fast)
                    ForwardDCT.quantizePortable(
                        block, multipliers: m.baseAddress!, scanOrder: order.baseAddress!, clampAC: false,
                        into: reference)
                }
            }
            if (0..<66).contains(where: { fast[$0] != reference[$0] }) { mismatches += 1 }
        }
        #expect(mismatches == 0, "\(mismatches) of 2,000 groups differ; \(generator.reproduction)")
    }

    @Test("4:2:0 RGB (SSE2 conversion) and opaque RGBA (portable) encode to the same bytes at every width")
    func colourConversionPathsAgree() throws {
        var generator = SeededRandomNumberGenerator.fromEnvironment()
        // Widths around the SSE2 path's edge (a group of 64 pixels needs 16 bytes readable from each pixel).
        for width in [5, 63, 69, 70, 71, 128, 133, 134, 197] {
            let height = 37
            // Smooth ramps with noise: enough detail that every coefficient path runs.
            var rgb: [UInt8] = [], rgba: [UInt8] = []
            for y in 0..<height {
                for x in 0..<width {
                    let noise = Int.random(in: -20...20, using: &generator)
                    let pixel = [x * 255 / width, y * 255 / height, (x + y) * 3].map { UInt8(clamping: $0 + noise) }
                    rgb += pixel
                    rgba += pixel + [255]
                }
            }
            let encoder = JPEGEncoder(options: .init(quality: 80, chroma: .halved))
            let fromRGB = try encoder.encodeJPEG(
                Bitmap(width: width, height: height, format: .rgb8, bytes: rgb), quality: 80)
            let fromRGBA = try encoder.encodeJPEG(
                Bitmap(width: width, height: height, format: .rgba8, bytes: rgba), quality: 80)
            #expect(fromRGB == fromRGBA, "width \(width); \(generator.reproduction)")
        }
    }

    @Test("RGBA encodes to the bytes of the RGB image its flattening onto white gives, at the vector paths' edges")
    func rgbaTakesTheRGBPaths() throws {
        var generator = SeededRandomNumberGenerator.fromEnvironment()
        // Widths around the vector paths' edges, heights that end inside a strip; alpha 0, 255, ½ and any.
        for width in [1, 5, 9, 63, 64, 65, 70, 71, 133, 134, 197] {
            for height in [1, 17, 37] {
                var rgb: [UInt8] = [], rgba: [UInt8] = []
                for y in 0..<height {
                    for x in 0..<width {
                        let noise = Int.random(in: -40...40, using: &generator)
                        let pixel = [x * 255 / width, y * 255 / height, (x + y) * 3].map { UInt8(clamping: $0 + noise) }
                        let choices: [UInt8] = [0, 255, 128, UInt8.random(in: 0...255, using: &generator)]
                        let alpha = choices[Int.random(in: 0...3, using: &generator)]
                        rgba += pixel
                        rgba.append(alpha)
                        // Over white: 255 − (255 − c)·α/255, rounded to nearest.
                        for c in pixel {
                            let flattened: Int = 255 - ((255 - Int(c)) * Int(alpha) + 127) / 255
                            rgb.append(UInt8(flattened))
                        }
                    }
                }
                for chroma in [JPEGEncoder.ChromaSubsampling.halved, .full] {
                    for progressive in [false, true] {
                        var options = JPEGEncoder.Options(quality: 80, chroma: chroma)
                        options.progressive = progressive
                        let encoder = JPEGEncoder(options: options)
                        let fromRGB = try encoder.encodeJPEG(
                            Bitmap(width: width, height: height, format: .rgb8, bytes: rgb), quality: 80)
                        let fromRGBA = try encoder.encodeJPEG(
                            Bitmap(width: width, height: height, format: .rgba8, bytes: rgba), quality: 80)
                        #expect(
                            fromRGB == fromRGBA,
                            "\(width)×\(height) \(chroma) progressive \(progressive); \(generator.reproduction)")
                    }
                }
            }
        }
    }

    @Test("the triangle upsampling's vector step gives the one-by-one bytes at every row length")
    func triangleAgrees() {
        var generator = SeededRandomNumberGenerator.fromEnvironment()
        var mismatches = 0
        for count in 1...70 {
            for (bias, shift) in [((Int16(8), Int16(7)), Int16(4)), ((1, 2), 2)] {
                // Vertical sums (3·near + far, up to 1,020) for 4:2:0, plain samples for 4:2:2.
                let top: Int16 = shift == 4 ? 1_020 : 255
                let sums = UnsafeMutablePointer<Int16>.allocate(capacity: count)
                defer { sums.deallocate() }
                for i in 0..<count { sums[i] = Int16.random(in: 0...top, using: &generator) }
                var fast = [UInt8](repeating: 0, count: 2 * count), reference = fast
                fast.withUnsafeMutableBufferPointer {
                    UpsampledRow.triangle(sums, count: count, into: $0.baseAddress!, bias: bias, shift: shift)
                }
                reference.withUnsafeMutableBufferPointer { out in
                    let last = count - 1
                    for i in [0, last] {
                        let left = sums[max(i - 1, 0)], right = sums[min(i + 1, last)]
                        out[2 * i] = UInt8((3 * sums[i] + left + bias.0) >> shift)
                        out[2 * i + 1] = UInt8((3 * sums[i] + right + bias.1) >> shift)
                    }
                    if last > 1 {
                        UpsampledRow.triangleOneByOne(
                            sums, range: 1..<last, into: out.baseAddress!, bias: bias, shift: shift)
                    }
                }
                if fast != reference { mismatches += 1 }
            }
        }
        #expect(mismatches == 0, "\(mismatches) rows differ; \(generator.reproduction)")
    }

    @Test("the area resampler's vector passes give the one-by-one integer sums (RGB, grey, RGBA, 1 to 40 taps)")
    func resamplerAgrees() {
        var generator = SeededRandomNumberGenerator.fromEnvironment()
        var mismatches = 0
        let sizes = [(97, 61, 40, 25), (3640, 24, 2048, 13), (120, 80, 67, 45), (64, 64, 64, 21), (64, 64, 17, 64),
                     (200, 9, 113, 5), (31, 257, 8, 99), (1001, 3, 1000, 3), (50, 40, 1, 1), (333, 77, 111, 30)]
        for (sw, sh, tw, th) in sizes {
            for format in [BitmapFormat.rgb8, .gray8, .rgba8] {
                let bytes = (0..<(sw * sh * format.bytesPerPixel)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let image = Bitmap(width: sw, height: sh, format: format, bytes: bytes)
                let fast = AreaResampler.resize(image, width: tw, height: th)
                let reference = AreaResampler.resizeOneByOne(image, width: tw, height: th)
                if fast.bytes != reference.bytes || fast.width != tw || fast.height != th { mismatches += 1 }
            }
        }
        #expect(mismatches == 0, "\(mismatches) resizes differ; \(generator.reproduction)")
    }
}
