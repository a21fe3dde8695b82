import Foundation
import ImagePipeline
import JPEGCodec
import PixmapFiles
import ReceptionCore
import Testing

/// Real photos encoded by libjpeg-turbo's `cjpeg` at test time in every layout a camera or editor produces, decoded
/// by us and by `djpeg`; our reduced (1/2, 1/4, 1/8) decodes against an area average of the full decode, and our 3/8
/// decodes against `djpeg -scale 3/8` (both the 3-point IDCT of each block's top-left 3×3 coefficients).
@Suite struct JPEGVariantTests {
    static let variants: [[String]] = [
        ["-sample", "2x2"], ["-sample", "2x1"], ["-sample", "1x2"], ["-sample", "1x1"], ["-sample", "4x1"],
        ["-sample", "2x2", "-progressive"], ["-sample", "1x1", "-progressive"], ["-sample", "2x2", "-restart", "3B"],
        ["-sample", "2x1", "-progressive", "-restart", "1"], ["-grayscale"], ["-grayscale", "-progressive"],
        ["-sample", "2x2", "-optimize", "-quality", "97"],
    ]

    static func cjpeg(_ photo: String, _ arguments: [String]) throws -> String {
        let source = Reference.temporaryPath(UUID().uuidString + ".ppm")
        try Data(PortablePixmap.encode(try Reference.photo(photo))).write(to: URL(fileURLWithPath: source))
        defer { try? FileManager.default.removeItem(atPath: source) }
        let output = Reference.temporaryPath(UUID().uuidString + ".jpg")
        let result = try Reference.run("cjpeg", arguments + ["-outfile", output, source])
        #expect(result.status == 0, "cjpeg failed: \(result.stderr)")
        return output
    }

    @Test("cjpeg variants of real photos decode within ±2 of djpeg", arguments: variants)
    func variantsMatchDjpeg(arguments: [String]) throws {
        let path = try Self.cjpeg("astronaut", arguments)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let decoded = try JPEGDecoder.decode(DecodingReference.file(path))
        let reference = try JPEGDecoderTests.djpeg(path)
        let ours = DecodingReference.rgb(decoded.pixels), theirs = DecodingReference.rgb(reference)
        let difference = DecodingReference.maximumDifference(ours, theirs)
        #expect(ours.count == theirs.count && difference <= 2, "\(arguments): max \(difference)")
    }

    @Test("3/8 decodes of every variant are within ±4 of djpeg -scale 3/8", arguments: variants)
    func threeEighthsMatchDjpeg(arguments: [String]) throws {
        let path = try Self.cjpeg("astronaut", arguments)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let decoded = try JPEGDecoder.decode(DecodingReference.file(path), eighths: 3).pixels
        let result = try Reference.run("djpeg", ["-scale", "3/8", "-pnm", path])
        #expect(result.status == 0, "djpeg failed: \(result.stderr)")
        let reference = try PortablePixmap.decode(result.stdout)
        #expect(decoded.width == reference.width && decoded.height == reference.height)
        #expect(decoded.width == (512 * 3 + 7) / 8)
        let ours = DecodingReference.rgb(decoded), theirs = DecodingReference.rgb(reference)
        let difference = DecodingReference.maximumDifference(ours, theirs)
        let psnr = ProgressiveScaledDecodeTests.psnr(ours, theirs)
        // Our float 3-point IDCT against djpeg's fixed-point one: measured within ±3 and 61–69 dB on a 48 MP crop.
        #expect(ours.count == theirs.count && difference <= 4 && psnr >= 55, "\(arguments): max \(difference), \(psnr) dB")
    }

    @Test("the reduced decode is the smallest scale whose longer edge covers the requested one")
    func reducedScaleChoice() throws {
        let path = try Self.cjpeg("coffee", ["-sample", "2x2"])  // 600×400
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = try DecodingReference.file(path)
        // 600 px at 1/8, 1/4, 3/8, 1/2, 1/1: 75, 150, 225, 300, 600.
        for (edge, width) in [(75, 75), (76, 150), (150, 150), (200, 225), (226, 300), (301, 600), (2048, 600)] {
            let image = try ImageDecoder.decode(bytes, minimumLongestEdge: edge).pixels
            #expect(image.width == width && image.height == (400 * width + 599) / 600, "edge \(edge): \(image.width)")
        }
    }

    @Test("reduced decodes are close to the area average of the full decode", arguments: [1, 2, 4])
    func scaledDecodeMatchesAreaAverage(eighths: Int) throws {
        for photo in ["coffee", "chelsea"] {
            let path = try Self.cjpeg(photo, ["-sample", "2x2", "-quality", "90"])
            defer { try? FileManager.default.removeItem(atPath: path) }
            let bytes = try DecodingReference.file(path)
            let full = try JPEGDecoder.decode(bytes).pixels
            let scaled = try JPEGDecoder.decode(bytes, eighths: eighths).pixels
            #expect(scaled.width == (full.width * eighths + 7) / 8 && scaled.height == (full.height * eighths + 7) / 8)
            // Reference: the mean of each (8/eighths)² block of the full-size decode.
            let factor = 8 / eighths
            var squared = 0.0, samples = 0
            for y in 0..<(full.height / factor) {
                for x in 0..<(full.width / factor) {
                    for c in 0..<3 {
                        var sum = 0
                        for dy in 0..<factor {
                            for dx in 0..<factor {
                                sum += Int(full.bytes[((y * factor + dy) * full.width + x * factor + dx) * 3 + c])
                            }
                        }
                        let mean = Double(sum) / Double(factor * factor)
                        let ours = Double(scaled.bytes[(y * scaled.width + x) * 3 + c])
                        squared += (mean - ours) * (mean - ours)
                        samples += 1
                    }
                }
            }
            let psnr = 10 * log10(255 * 255 / max(squared / Double(samples), 1e-10))
            #expect(psnr >= 30, "\(photo) at \(eighths)/8: \(psnr) dB against the area average")
        }
    }
}
