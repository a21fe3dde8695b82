import Foundation
import ImagePipeline
import JPEGCodec
import PixmapFiles
import ReceptionCore
import Testing

/// Progressive JPEGs decoded at 1/2, 1/4 and 1/8 (issue 15): the decoder keeps only the coefficients that scale's
/// inverse DCT reads (plus what AC refinement scans need to be parsed), so its buffers stay well under one
/// full-size picture; and dropping coefficients changes no pixel: every scaled progressive decode equals the scaled
/// decode of the same coefficients stored as a baseline file (`jpegtran -progressive` rewrites a baseline file
/// into progressive scans without touching a coefficient), which never stores coefficients at all.
@Suite struct ProgressiveScaledDecodeTests {
    /// A scan script that splits bands across the kept top-left corner of every scale (zig-zag 0–1 at 1/8 chroma,
    /// 0, 1, 2, 4 at 1/4, 0–9 plus parts of 10–24 at 1/2), with successive approximation on DC and on AC bands that
    /// straddle it, interleaved with the other components' scans.
    static let splitScans = """
        0,1,2: 0-0, 0, 2;
        0: 1-1, 0, 1;
        0: 2-6, 0, 2;
        1: 1-3, 0, 0;
        0: 7-30, 0, 1;
        2: 1-63, 0, 0;
        0,1,2: 0-0, 2, 1;
        0: 31-63, 0, 1;
        1: 4-63, 0, 1;
        0: 2-6, 2, 1;
        0,1,2: 0-0, 1, 0;
        1: 4-63, 1, 0;
        0: 1-63, 1, 0;
        """

    /// A baseline file and its lossless progressive rewrite (`jpegtran` arguments), removed by the caller.
    static func pair(source: String, cjpeg: [String], jpegtran: [String]) throws
        -> (baseline: String, progressive: String)
    {
        let baseline = Reference.temporaryPath(UUID().uuidString + ".jpg")
        let progressive = Reference.temporaryPath(UUID().uuidString + ".jpg")
        let made = try Reference.run("cjpeg", cjpeg + ["-outfile", baseline, source])
        #expect(made.status == 0, "cjpeg failed: \(made.stderr)")
        let rewritten = try Reference.run("jpegtran", jpegtran + ["-outfile", progressive, baseline])
        #expect(rewritten.status == 0, "jpegtran failed: \(rewritten.stderr)")
        return (baseline, progressive)
    }

    /// One file layout: `cjpeg` arguments for the baseline file, `jpegtran` arguments for its progressive rewrite
    /// (`nil` scans: jpegtran's default progression, which refines every AC band by successive approximation).
    struct Layout: Sendable, CustomTestStringConvertible {
        let cjpeg: [String]
        var splitScans = false
        var restartInterval: Int?
        var testDescription: String {
            cjpeg.joined(separator: " ") + (splitScans ? " split scans" : "")
                + (restartInterval.map { " restart \($0)" } ?? "")
        }
    }

    static let layouts: [Layout] = [
        Layout(cjpeg: ["-sample", "2x2"]), Layout(cjpeg: ["-sample", "2x1"]), Layout(cjpeg: ["-sample", "1x1"]),
        Layout(cjpeg: ["-sample", "4x1"]), Layout(cjpeg: ["-grayscale"]),
        Layout(cjpeg: ["-sample", "2x2"], restartInterval: 1),
        Layout(cjpeg: ["-sample", "2x2"], splitScans: true), Layout(cjpeg: ["-sample", "1x1"], splitScans: true),
    ]

    @Test("progressive decodes at every scale equal the baseline decode of the same coefficients", arguments: layouts)
    func progressiveEqualsBaseline(layout: Layout) throws {
        let source = Reference.temporaryPath(UUID().uuidString + ".ppm")
        try Data(PortablePixmap.encode(try Reference.photo("astronaut"))).write(to: URL(fileURLWithPath: source))
        let scripts = Reference.temporaryPath(UUID().uuidString + ".txt")
        try Data(Self.splitScans.utf8).write(to: URL(fileURLWithPath: scripts))
        defer { for path in [source, scripts] { try? FileManager.default.removeItem(atPath: path) } }
        var jpegtran = layout.splitScans ? ["-scans", scripts] : ["-progressive"]
        if let interval = layout.restartInterval { jpegtran += ["-restart", "\(interval)"] }
        let (baseline, progressive) = try Self.pair(
            source: source, cjpeg: layout.cjpeg + ["-quality", "92"], jpegtran: jpegtran)
        defer { for path in [baseline, progressive] { try? FileManager.default.removeItem(atPath: path) } }
        let baselineBytes = try DecodingReference.file(baseline)
        let progressiveBytes = try DecodingReference.file(progressive)
        #expect(Reference.segment(0xC2, in: progressiveBytes) != nil, "\(layout): jpegtran wrote no SOF2")
        for eighths in JPEGDecoder.scales {
            let expected = try JPEGDecoder.decode(baselineBytes, eighths: eighths).pixels
            let decoded = try JPEGDecoder.decode(progressiveBytes, eighths: eighths).pixels
            #expect(decoded.width == expected.width && decoded.height == expected.height)
            let differing = zip(decoded.bytes, expected.bytes).filter { $0 != $1 }.count
            let largest = DecodingReference.maximumDifference(decoded.bytes, expected.bytes)
            #expect(decoded.bytes.count == expected.bytes.count && differing == 0,
                    "\(layout) at \(eighths)/8: \(differing) samples differ, by up to \(largest)")
        }
    }

    /// PSNR in dB over every sample of two equally sized buffers.
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        let squared = zip(a, b).reduce(0.0) { $0 + Double((Int($1.0) - Int($1.1)) * (Int($1.0) - Int($1.1))) }
        return 10 * log10(255 * 255 / max(squared / Double(max(a.count, 1)), 1e-10))
    }

    @Test("a 4000×3000 progressive photo at 1/2, 3/8, 1/4 and 1/8 holds far less than one full-size picture")
    func scaledDecodeMemory() throws {
        let directory = try #require(Reference.fixtureDirectory)
        let (width, height) = (4000, 3000)
        let source = Reference.temporaryPath(UUID().uuidString + ".ppm")
        // The fixture photos tiled at their own resolution (real detail in every block, not an upscaled blur).
        let tile = """
            from PIL import Image
            photos = [Image.open(f'\(directory)/{n}.ppm') for n in ('astronaut', 'coffee', 'chelsea')]
            im = Image.new('RGB', (\(width), \(height)), 'white')
            y = row = 0
            while y < im.height:
                x, i, tallest = 0, row, 0
                while x < im.width:
                    p = photos[i % 3]; im.paste(p, (x, y)); x += p.width; tallest = max(tallest, p.height); i += 1
                y += tallest; row += 1
            im.save('\(source)')
            """
        let tiled = try Reference.run("python3", ["-c", tile])
        #expect(tiled.status == 0, "Pillow failed: \(tiled.stderr)")
        defer { try? FileManager.default.removeItem(atPath: source) }
        let (baseline, progressive) = try Self.pair(
            source: source, cjpeg: ["-quality", "92", "-sample", "2x2"], jpegtran: ["-progressive"])
        defer { for path in [baseline, progressive] { try? FileManager.default.removeItem(atPath: path) } }
        let bytes = try DecodingReference.file(progressive), baselineBytes = try DecodingReference.file(baseline)

        // 4:2:0 geometry (T.81 A.2): 16×16 MCUs, four luma blocks and one block of each chroma component in each.
        let mcus = ((width + 15) / 16) * ((height + 15) / 16)
        let fullPicture = width * height * 3
        for eighths in [4, 3, 2, 1] {
            let (image, peak) = try JPEGDecoder.decodeReportingMemory(bytes, eighths: eighths)
            let pixels = image.pixels
            #expect(pixels.width == (width * eighths + 7) / 8 && pixels.height == (height * eighths + 7) / 8)
            let output = pixels.width * pixels.height * 3
            // What this scale needs: luma blocks read their top-left eighths², chroma (half as fine) twice that
            // edge up to 8; 2 bytes a coefficient, plus one 64-bit non-zero word per block when some of a block's
            // coefficients are dropped (AC refinement must know which are non-zero to stay in step).
            func kept(_ edge: Int) -> Int { 2 * edge * edge + (edge > 1 && edge < 8 ? 8 : 0) }
            let coefficients = mcus * (4 * kept(eighths) + 2 * kept(min(8, 2 * eighths)))
            #expect(peak < fullPicture, "\(eighths)/8: \(peak) B held at once, a full-size picture is \(fullPicture) B")
            #expect(peak <= coefficients + output + output / 16,
                    "\(eighths)/8: \(peak) B held; kept coefficients \(coefficients) B, output \(output) B")

            // Dropping coefficients changes nothing: the same coefficients as a baseline file decode identically.
            let expected = try JPEGDecoder.decode(baselineBytes, eighths: eighths).pixels
            #expect(pixels.bytes == expected.bytes, "\(eighths)/8 differs from the baseline decode")

            // libjpeg's own scaled decode: the same picture, not the same filter, so not within ±2. djpeg's reduced
            // IDCTs give the mean of the full-size reconstruction (reading 7×7 coefficients at 1/2, 5×5 at 1/4);
            // ours is the N-point IDCT of the top-left N×N, a low-pass. Measured 40.6–48.1 dB apart on this file.
            // At 3/8 djpeg's IDCT also reads the top-left 3×3, so the two agree to rounding (≥ 55 dB).
            let scaled = try Reference.run("djpeg", ["-scale", "\(eighths)/8", "-ppm", progressive])
            #expect(scaled.status == 0, "djpeg failed: \(scaled.stderr)")
            let reference = try PortablePixmap.decode(scaled.stdout)
            #expect(reference.width == pixels.width && reference.height == pixels.height)
            #expect(pixels.format == .rgb8 && reference.format == .rgb8)  // both tightly packed
            let psnr = Self.psnr(pixels.bytes, reference.bytes)
            #expect(psnr >= (eighths == 3 ? 55 : 38), "\(eighths)/8: \(psnr) dB against djpeg -scale \(eighths)/8")
        }
    }
}
