import Testing
@testable import JPEGCodec

/// The area resampler against the exact area mean, computed here in `Double` from the definition (each output
/// pixel the mean of the source rectangle it covers, partial pixels weighted by the part covered).
@Suite("Area resampler")
struct AreaResamplerTests {
    /// The exact mean of channel `c` over output pixel (`ox`, `oy`)'s source rectangle.
    static func exactMean(_ image: Bitmap, width: Int, height: Int, ox: Int, oy: Int, c: Int) -> Double {
        let sx = Double(image.width) / Double(width), sy = Double(image.height) / Double(height)
        let x0 = Double(ox) * sx, x1 = Double(ox + 1) * sx, y0 = Double(oy) * sy, y1 = Double(oy + 1) * sy
        var sum = 0.0
        for y in Int(y0)..<min(image.height, Int(y1.rounded(.up))) {
            let h = min(y1, Double(y + 1)) - max(y0, Double(y))
            for x in Int(x0)..<min(image.width, Int(x1.rounded(.up))) {
                let w = min(x1, Double(x + 1)) - max(x0, Double(x))
                sum += h * w * Double(image.bytes[y * image.bytesPerRow + x * image.format.bytesPerPixel + c])
            }
        }
        return sum / (sx * sy)
    }

    /// A seeded picture: smooth gradients with hard edges and noise, the worst case for rounded weights.
    static func picture(width: Int, height: Int, format: BitmapFormat, seed: UInt64) -> Bitmap {
        var state = seed
        var bytes = [UInt8](repeating: 0, count: width * height * format.bytesPerPixel)
        for i in bytes.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = UInt8(truncatingIfNeeded: state >> 56)
            let pixel = i / format.bytesPerPixel, x = pixel % width, y = pixel / width
            bytes[i] = (x / 3 + y / 2) % 2 == 0 ? noise : UInt8(truncatingIfNeeded: x * 7 + y * 3)
        }
        return Bitmap(width: width, height: height, format: format, bytes: bytes)
    }

    @Test("every output sample is within one level of the exact area mean, a quarter level on average", arguments: [
        (97, 61, 40, 25), (120, 80, 67, 45), (64, 64, 64, 21), (64, 64, 17, 64), (200, 9, 113, 5), (31, 257, 8, 99),
        (1001, 3, 1000, 3), (50, 40, 1, 1),
    ])
    func withinOneOfTheExactMean(_ size: (Int, Int, Int, Int)) {
        let (sw, sh, tw, th) = size
        for (index, format) in [BitmapFormat.rgb8, .gray8, .rgba8].enumerated() {
            let seed = UInt64(sw * 1_000_003 + sh * 1_009 + tw * 31 + th + index)
            let image = Self.picture(width: sw, height: sh, format: format, seed: seed)
            let out = image.resized(width: tw, height: th)
            #expect(out.width == tw && out.height == th && out.format == format)
            var worst = 0.0, total = 0.0
            for oy in 0..<th {
                for ox in 0..<tw {
                    for c in 0..<format.bytesPerPixel {
                        let exact = Self.exactMean(image, width: tw, height: th, ox: ox, oy: oy, c: c)
                        let error = abs(Double(out.bytes[(oy * tw + ox) * format.bytesPerPixel + c]) - exact)
                        worst = max(worst, error)
                        total += error
                    }
                }
            }
            // Fixed-point weights (1/256 vertically) can tip a sample over the rounding half, never a whole level;
            // on average the error is that of rounding the exact mean (a quarter level, over enough samples).
            let samples = tw * th * format.bytesPerPixel, mean = total / Double(samples)
            #expect(worst < 1 && (samples < 100 || mean < 0.3), "\(sw)×\(sh) → \(tw)×\(th) \(format), seed \(seed): worst \(worst), mean \(mean)")
        }
    }

    @Test("a flat picture stays exactly flat at every size")
    func flatStaysFlat() {
        for value in [0, 1, 127, 128, 254, 255] {
            let image = Bitmap(
                width: 83, height: 59, format: .rgb8, bytes: [UInt8](repeating: UInt8(value), count: 83 * 59 * 3))
            for (tw, th) in [(82, 59), (83, 20), (41, 29), (13, 7), (1, 1)] {
                let out = image.resized(width: tw, height: th)
                #expect(out.bytes.allSatisfy { Int($0) == value }, "\(value) at \(tw)×\(th)")
            }
        }
    }
}
