import Foundation
import ImagePipeline
import JPEGCodec
import PixmapFiles
import ReceptionCore
import Testing

/// Our JPEG decoder against libjpeg-turbo's `djpeg` on Go's JPEG test files (every subsampling, baseline and
/// progressive) and on variants `cjpeg` makes from real photos at test time.
@Suite struct JPEGDecoderTests {
    static let goFiles = [
        "video-001.jpeg", "video-001.progressive.jpeg", "video-001.q50.410.jpeg", "video-001.q50.410.progressive.jpeg",
        "video-001.q50.411.jpeg", "video-001.q50.411.progressive.jpeg", "video-001.q50.420.jpeg",
        "video-001.q50.420.progressive.jpeg", "video-001.q50.422.jpeg", "video-001.q50.422.progressive.jpeg",
        "video-001.q50.440.jpeg", "video-001.q50.440.progressive.jpeg", "video-001.q50.444.jpeg",
        "video-001.q50.444.progressive.jpeg", "video-001.221212.jpeg", "video-001.rgb.jpeg",
        "video-001.separate.dc.progression.jpeg", "video-001.separate.dc.progression.progressive.jpeg",
        "video-005.gray.jpeg", "video-005.gray.q50.jpeg", "video-005.gray.q50.2x2.jpeg",
        "video-005.gray.q50.2x2.progressive.jpeg", "video-005.gray.q50.progressive.jpeg",
        // Ends after a few complete scans and a clean EOI: a legal, coarser picture, decoded like djpeg does.
        "video-001.progressive.truncated.jpeg",
    ]

    /// `djpeg`'s decode of a JPEG file as RGB (grey widened).
    static func djpeg(_ path: String) throws -> Bitmap {
        let result = try Reference.run("djpeg", ["-pnm", path])
        #expect(result.status == 0, "djpeg failed: \(result.stderr)")
        return try PortablePixmap.decode(result.stdout)
    }

    @Test("Go's JPEG files decode within ±2 of djpeg per channel", DecodingReference.needsGoImages, arguments: goFiles)
    func goFilesMatchDjpeg(name: String) throws {
        let path = DecodingReference.goImages + "/testdata/" + name
        let decoded = try JPEGDecoder.decode(DecodingReference.file(path))
        let reference = try Self.djpeg(path)
        #expect(decoded.pixels.width == reference.width && decoded.pixels.height == reference.height)
        let ours = DecodingReference.rgb(decoded.pixels), theirs = DecodingReference.rgb(reference)
        let difference = DecodingReference.maximumDifference(ours, theirs)
        // The same accurate integer IDCT and triangle upsampling as djpeg's defaults: every sample within ±2.
        // A progressive file that stops early is smoothed by libjpeg (block smoothing of missing AC); we show the
        // coefficients as they are, so a few samples differ more there.
        let outside = zip(ours, theirs).filter { abs(Int($0) - Int($1)) > 2 }.count
        let partial = name.contains("truncated")
        #expect(partial ? difference <= 6 && outside * 100 <= ours.count : difference <= 2,
                "\(name): max \(difference), \(outside) beyond ±2")
    }

    /// Adobe CMYK (stored inverted, APP14 transform 0): Go's PNG reference of the same picture (read by Pillow)
    /// and djpeg's CMYK → RGB both within ±2 (measured: ±1 and exact).
    @Test("Adobe CMYK decodes within ±2 of Go's PNG reference and of djpeg", DecodingReference.needsGoImages)
    func cmykMatchesReferences() throws {
        let path = DecodingReference.goImages + "/testdata/video-001.cmyk.jpeg"
        let bytes = try DecodingReference.file(path)
        let decoded = try JPEGDecoder.decode(bytes)
        let reference = try #require(
            DecodingReference.pillowRGBA([DecodingReference.goImages + "/testdata/video-001.cmyk.png"]).first)
        #expect(decoded.pixels.width == reference.0 && decoded.pixels.height == reference.1)
        let fromPNG = DecodingReference.maximumDifference(DecodingReference.rgba(decoded.pixels), reference.2)
        let djpeg = try Self.djpeg(path)
        let fromDjpeg = DecodingReference.maximumDifference(
            DecodingReference.rgb(decoded.pixels), DecodingReference.rgb(djpeg))
        #expect(DecodingReference.rgba(decoded.pixels).count == reference.2.count)
        #expect(fromPNG <= 2 && fromDjpeg <= 2, "max \(fromPNG) from the PNG, \(fromDjpeg) from djpeg")
    }
}
