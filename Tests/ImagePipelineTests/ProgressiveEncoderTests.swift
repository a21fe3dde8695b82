@testable import ImagePipeline
@testable import JPEGCodec
import Foundation
import ReceptionCore
import Testing

/// Progressive output (issue 21), judged by libjpeg-turbo's `djpeg`: a progressive file carries exactly the
/// coefficients of the baseline file at the same settings, so both must decode to the same pixels, without a
/// warning, and the progressive one must be the smaller.
@Suite struct ProgressiveEncoderTests {
    struct Variant: CustomTestStringConvertible, Sendable {
        let width: Int
        let height: Int
        let grey: Bool
        let chroma: JPEGEncoder.ChromaSubsampling
        let restart: Int
        var testDescription: String {
            "\(width)×\(height) \(grey ? "grey" : chroma == .halved ? "420" : "444") restart \(restart)"
        }
    }

    static let variants: [Variant] = [
        Variant(width: 1, height: 1, grey: false, chroma: .halved, restart: 0),
        Variant(width: 17, height: 9, grey: false, chroma: .halved, restart: 1),
        Variant(width: 33, height: 47, grey: true, chroma: .halved, restart: 0),
        Variant(width: 301, height: 203, grey: false, chroma: .halved, restart: 7),
        Variant(width: 301, height: 203, grey: false, chroma: .full, restart: 0),
        Variant(width: 130, height: 70, grey: true, chroma: .halved, restart: 3),
    ]

    /// A crop of a fixture photo at the variant's size, grey when asked.
    static func image(_ variant: Variant) throws -> Bitmap {
        let photo = try Reference.photo("chelsea")
        let channels = variant.grey ? 1 : 3
        var bytes = [UInt8](repeating: 0, count: variant.width * variant.height * channels)
        for y in 0..<variant.height {
            for x in 0..<variant.width {
                let from = (y % photo.height) * photo.bytesPerRow + (x % photo.width) * 3
                if variant.grey {
                    bytes[y * variant.width + x] = photo.bytes[from + 1]
                } else {
                    for c in 0..<3 { bytes[(y * variant.width + x) * 3 + c] = photo.bytes[from + c] }
                }
            }
        }
        return Bitmap(
            width: variant.width, height: variant.height, format: variant.grey ? .gray8 : .rgb8, bytes: bytes)
    }

    @Test("progressive and baseline files decode to the same pixels in djpeg and in our decoder",
          arguments: variants, [1, 50, 100])
    func sameCoefficientsAsBaseline(variant: Variant, quality: Int) throws {
        let image = try Self.image(variant)
        var options = JPEGEncoder.Options(quality: quality, chroma: variant.chroma, restartInterval: variant.restart)
        let baseline = try JPEGEncoder(options: options).encodeJPEG(image, quality: quality)
        options.progressive = true
        let progressive = try JPEGEncoder(options: options).encodeJPEG(image, quality: quality)
        #expect(Reference.segment(0xC2, in: progressive) != nil, "a progressive frame (SOF2)")
        #expect(Reference.segment(0xC0, in: progressive) == nil)
        let theirs = try Reference.djpeg(progressive, grey: variant.grey)
        #expect(theirs.bytes == (try Reference.djpeg(baseline, grey: variant.grey)).bytes)
        let ours = try JPEGDecoder.decode(progressive, eighths: 8)
        #expect(ours.pixels.bytes == (try JPEGDecoder.decode(baseline, eighths: 8)).pixels.bytes)
    }

    @Test("the scan script: DC first, AC bands with two bits held back, then each bit plane")
    func scanScript() throws {
        let photo = try Reference.photo("coffee")
        let jpeg = try JPEGEncoder(options: .init(progressive: true)).encodeJPEG(photo, quality: 85)
        // Every start of scan: (components, Ss, Se, Ah << 4 | Al).
        var scans: [[UInt8]] = []
        var index = 2
        while index + 4 <= jpeg.count, jpeg[index] == 0xFF {
            let marker = jpeg[index + 1]
            let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
            if marker == 0xDA {
                let count = Int(jpeg[index + 4])
                let tail = index + 5 + 2 * count
                scans.append([UInt8(count), jpeg[tail], jpeg[tail + 1], jpeg[tail + 2]])
                // Skip the entropy-coded data: up to the next marker that is neither stuffing nor a restart.
                index += 2 + length
                while index + 1 < jpeg.count,
                      !(jpeg[index] == 0xFF && jpeg[index + 1] != 0 && !(0xD0...0xD7).contains(jpeg[index + 1])) {
                    index += 1
                }
            } else {
                index += 2 + length
            }
        }
        #expect(scans == [
            [3, 0, 0, 0x01], [1, 1, 5, 0x02], [1, 1, 63, 0x01], [1, 1, 63, 0x01], [1, 6, 63, 0x02],
            [1, 1, 63, 0x21], [3, 0, 0, 0x10], [1, 1, 63, 0x10], [1, 1, 63, 0x10], [1, 1, 63, 0x10],
        ])
    }

    /// At the first qualities of the preparation ladder. (On these 512-pixel photos at quality 60 the extra tables
    /// and scan headers, about 400 bytes, cost more than progressive coding saves; ImageBench reports the 2048-pixel
    /// figures from quality 60 up.)
    @Test("photos: a progressive file is smaller than the optimised baseline and than cjpeg -optimize",
          arguments: Reference.photoNames, [75, 85])
    func smallerThanBaseline(name: String, quality: Int) throws {
        let photo = try Reference.photo(name)
        let baseline = try JPEGEncoder().encodeJPEG(photo, quality: quality)
        let progressive = try JPEGEncoder(options: .init(progressive: true)).encodeJPEG(photo, quality: quality)
        let cjpeg = try Reference.cjpeg(photo, quality: quality, chroma: .halved, optimize: true)
        #expect(progressive.count < baseline.count, "\(progressive.count) B vs baseline \(baseline.count) B")
        #expect(progressive.count < cjpeg.count, "\(progressive.count) B vs cjpeg -optimize \(cjpeg.count) B")
        #expect(try Reference.djpeg(progressive).bytes == (try Reference.djpeg(baseline)).bytes)
    }

    /// Faint noise on flat grey: at high quality most AC coefficients are 0 or ±1, so the last refinement scans
    /// have long zero runs before newly non-zero coefficients (ZRL inside a refinement block, with the corrections
    /// before it) next to blocks whose corrections all follow one symbol: both paths of the refinement coder.
    @Test("refinement scans with long zero runs carry the baseline coefficients", arguments: [false, true], [90, 100])
    func sparseRefinement(grey: Bool, quality: Int) throws {
        let (width, height) = (96, 80)
        let channels = grey ? 1 : 3
        var bytes = [UInt8](repeating: 0, count: width * height * channels)
        var state: UInt32 = 12_345
        for index in bytes.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            // Mostly 128, sometimes ±1…±3: sparse small coefficients, a few larger ones.
            let r = Int(state >> 24)
            bytes[index] = UInt8(128 + (r < 200 ? 0 : r % 7 - 3))
        }
        let image = Bitmap(width: width, height: height, format: grey ? .gray8 : .rgb8, bytes: bytes)
        var options = JPEGEncoder.Options(quality: quality, chroma: .halved)
        let baseline = try JPEGEncoder(options: options).encodeJPEG(image, quality: quality)
        options.progressive = true
        let progressive = try JPEGEncoder(options: options).encodeJPEG(image, quality: quality)
        let theirs = try Reference.djpeg(progressive, grey: grey)
        #expect(theirs.bytes == (try Reference.djpeg(baseline, grey: grey)).bytes)
        let ours = try JPEGDecoder.decode(progressive, eighths: 8)
        #expect(ours.pixels.bytes == (try JPEGDecoder.decode(baseline, eighths: 8)).pixels.bytes)
    }

    @Test("progressive working memory depends on the width only, like baseline")
    func workingMemory() {
        let encoder = JPEGEncoder(options: .init(progressive: true))
        let baseline = JPEGEncoder().workingMemoryBytes(width: 2048, height: 1536, format: .rgb8)
        let progressive = encoder.workingMemoryBytes(width: 2048, height: 1536, format: .rgb8)
        let tall = encoder.workingMemoryBytes(width: 2048, height: 65_535, format: .rgb8)
        #expect(progressive == tall)
        // Every scan codes each strip as it is transformed: per block row three masks (2048 px at 4:2:0: 256 luma
        // blocks in two rows, 128 per chroma plane: 18,432 B), per scan 8 KiB of code tables and, after the
        // first, a 16 KiB initial buffer — not the 11.2 MB a whole-frame coefficient store took.
        #expect(progressive - baseline == 18_432 + 10 * 8_192 + 9 * 16_384)
    }
}
