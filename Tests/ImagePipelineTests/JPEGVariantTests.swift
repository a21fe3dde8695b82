import Foundation
import ImagePipeline
import ReceptionCore
import Testing

/// Real photos encoded by libjpeg-turbo's `cjpeg` at test time in every layout a camera or editor produces, decoded
/// by us and by `djpeg`; and our reduced (1/2, 1/4, 1/8) decodes against an area average of the full decode.
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
