import Foundation
import ImagePipeline
import JPEGCodec
import ReceptionCore
import Testing

/// PngSuite and Go's PNG test files, decoded by us and by Pillow (libpng-class zlib decode), pixel for pixel.
@Suite struct PNGDecoderTests {
    static let suiteFiles: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: DecodingReference.pngSuite)) ?? []
        return names.filter { $0.hasSuffix(".png") }.sorted()
    }()

    @Test("every PngSuite file decodes exactly as Pillow decodes it (16-bit: v/257 rounded)", DecodingReference.needsGoImages)
    func pngSuiteMatchesPillow() throws {
        try #require(Self.suiteFiles.count >= 30, "PngSuite has fewer files than expected in \(DecodingReference.pngSuite)")
        let paths = Self.suiteFiles.map { DecodingReference.pngSuite + "/" + $0 }
        let references = try DecodingReference.pillowRGBA(paths)
        for (path, reference) in zip(paths, references) {
            let decoded = try PNGDecoder.decode(DecodingReference.file(path))
            #expect(decoded.pixels.width == reference.0 && decoded.pixels.height == reference.1, "\(path)")
            let ours = DecodingReference.rgba(decoded.pixels)
            // Pillow reduces 16-bit colour by keeping the high byte; we round v/257, at most one step apart.
            let tolerance = path.contains("16") && !path.contains("0g16") ? 1 : 0
            let difference = DecodingReference.maximumDifference(ours, reference.2)
            #expect(ours.count == reference.2.count && difference <= tolerance, "\(path): max difference \(difference)")
        }
    }

    @Test("Go's benchmark and gradient PNGs (interlaced too) match Pillow exactly", DecodingReference.needsGoImages)
    func goFilesMatchPillow() throws {
        let directory = DecodingReference.goImages + "/png/testdata"
        let names = ["benchGray.png", "benchNRGBA-gradient.png", "benchNRGBA-opaque.png", "benchPaletted.png",
                     "benchRGB-interlace.png", "benchRGB.png", "gray-gradient.interlaced.png", "gray-gradient.png"]
        let paths = names.map { directory + "/" + $0 }
        let references = try DecodingReference.pillowRGBA(paths)
        for (path, reference) in zip(paths, references) {
            let decoded = try PNGDecoder.decode(DecodingReference.file(path))
            let ours = DecodingReference.rgba(decoded.pixels)
            #expect(ours == reference.2, "\(path)")
        }
    }

    @Test("invalid files fail with invalid_image", DecodingReference.needsGoImages, arguments: ["invalid-crc32.png", "invalid-noend.png", "invalid-trunc.png", "invalid-zlib.png"])
    func invalidFilesFail(name: String) throws {
        let bytes = try DecodingReference.file(DecodingReference.goImages + "/png/testdata/" + name)
        #expect(throws: CodecError.invalidImage) { try PNGDecoder.decode(bytes) }
    }
}
