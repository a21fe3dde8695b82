import Foundation
import ImagePipeline
import JPEGCodec
import ReceptionCore
import ReceptionTesting
import Testing

/// Issue 51: GIF (giflib), WebP (libwebp) and TIFF (libtiff) on Linux, each judged against Pillow's own decode of
/// files made by Pillow, `cwebp` and `tiffcp` (`scripts/format-fixtures`), and HEIC's colour profile.
@Suite struct FormatDecodingTests {
    /// Lossless files: every sample as Pillow decodes it (palette, lossless WebP, each TIFF compression and layout).
    static let lossless = [
        "still.gif", "plain.gif", "animated.gif", "transparent.gif", "gifsicle.gif", "lossless.webp", "alpha.webp",
        "animated.webp", "icc.webp", "raw.tif", "lzw.tif", "deflate.tif", "packbits.tif", "grey.tif", "tiled.tif",
        "striped.tif", "bigtiff.tif", "big-endian.tif", "icc.tif",
    ]

    @Test("the fixtures are made wherever Pillow is installed (a broken script must not just skip these tests)")
    func fixturesMade() throws {
        let pillow = try Reference.run("python3", ["-c", "import PIL"])
        guard pillow.status == 0 else { return }
        #expect(FormatFixtures.folder != nil, "scripts/format-fixtures failed: \(FormatFixtures.made.failure)")
    }

    @Test("lossless GIF, WebP and TIFF decode exactly as Pillow decodes them", FormatFixtures.needed,
          arguments: lossless)
    func exact(name: String) throws {
        guard FormatFixtures.exists(name) else { return }  // a tool-made fixture whose tool is missing
        let decoded = try ImageDecoder.decode(FormatFixtures.file(name))
        let reference = try FormatFixtures.reference(name)
        #expect((decoded.pixels.width, decoded.pixels.height) == (reference.width, reference.height))
        let ours = DecodingReference.rgba(decoded.pixels)
        #expect(DecodingReference.maximumDifference(ours, reference.rgba) == 0,
                "mean difference \(FormatFixtures.meanDifference(ours, reference.rgba))")
    }

    @Test("each decoder keeps the layout it needs: grey, RGB, and RGBA only where there is transparency",
          FormatFixtures.needed)
    func formats() throws {
        let expected: [(String, BitmapFormat)] = [
            ("plain.gif", .rgb8), ("transparent.gif", .rgba8), ("lossless.webp", .rgb8), ("alpha.webp", .rgba8),
            ("lossy.webp", .rgb8), ("lzw.tif", .rgb8), ("grey.tif", .gray8), ("rgba.tif", .rgba8),
        ]
        for (name, format) in expected {
            #expect(try ImageDecoder.decode(FormatFixtures.file(name)).pixels.format == format, "\(name)")
        }
    }

    @Test("lossy WebP (Pillow's and cwebp's) decodes within a level of Pillow's libwebp", FormatFixtures.needed,
          arguments: ["lossy.webp", "lossy-alpha.webp", "cwebp.webp"])
    func lossy(name: String) throws {
        guard FormatFixtures.exists(name) else { return }
        let decoded = try ImageDecoder.decode(FormatFixtures.file(name))
        let reference = try FormatFixtures.reference(name)
        #expect((decoded.pixels.width, decoded.pixels.height) == (reference.width, reference.height))
        let ours = DecodingReference.rgba(decoded.pixels)
        let mean = FormatFixtures.meanDifference(ours, reference.rgba)
        #expect(mean <= 1.0, "mean \(mean)")
        #expect(DecodingReference.maximumDifference(ours, reference.rgba) <= 8)
    }

    @Test("a TIFF's unassociated alpha comes out straight: on white it matches Pillow's within a level",
          FormatFixtures.needed)
    func tiffAlpha() throws {
        let decoded = try ImageDecoder.decode(FormatFixtures.file("rgba.tif"))
        let reference = try FormatFixtures.reference("rgba.tif")
        let ours = DecodingReference.rgba(decoded.pixels)
        // The alpha samples themselves are exact; libtiff premultiplies colour, so it comes back within rounding.
        let alpha = { (rgba: [UInt8]) in stride(from: 3, to: rgba.count, by: 4).map { rgba[$0] } }
        #expect(alpha(ours) == alpha(reference.rgba))
        let onWhite = FormatFixtures.onWhite(ours), expected = FormatFixtures.onWhite(reference.rgba)
        #expect(DecodingReference.maximumDifference(onWhite, expected) <= 1)
    }

    @Test("an animated GIF and an animated WebP prepare as their first frame", FormatFixtures.needed,
          arguments: ["animated.gif", "animated.webp"])
    func firstFrame(name: String) throws {
        let photo = try PhotoPreparer().prepare(Data(FormatFixtures.file(name)))
        #expect((photo.width, photo.height) == (96, 64))
        let pixels = try Reference.djpeg([UInt8](photo.jpeg))
        // Frame one is red (220, 20, 20); frames two and three are green and blue.
        let means = (0..<3).map { c in
            Double(stride(from: c, to: pixels.bytes.count, by: 3).reduce(0) { $0 + Int(pixels.bytes[$1]) })
                / Double(pixels.bytes.count / 3)
        }
        #expect(means[0] > 200 && means[1] < 40 && means[2] < 40, "\(means)")
    }

    @Test("a GIF's transparent colour prepares as white", FormatFixtures.needed)
    func gifTransparency() throws {
        let photo = try PhotoPreparer().prepare(Data(FormatFixtures.file("transparent.gif")))
        let pixels = try Reference.djpeg([UInt8](photo.jpeg))
        let left = Array(pixels.bytes[(32 * 96 + 10) * 3..<(32 * 96 + 10) * 3 + 3])
        let right = Array(pixels.bytes[(32 * 96 + 80) * 3..<(32 * 96 + 80) * 3 + 3])
        #expect(left.allSatisfy { $0 > 240 }, "the transparent half is white, not its yellow palette entry: \(left)")
        #expect(right[2] > 220 && right[0] < 30, "the opaque half stays blue: \(right)")
    }

    @Test("a TIFF's Orientation tag 6 is reported and applied by preparation", FormatFixtures.needed)
    func tiffOrientation() throws {
        let file = try FormatFixtures.file("orientation.tif")
        #expect(try ImageDecoder.decode(file).orientation == .right)
        let photo = try PhotoPreparer().prepare(Data(file))
        #expect((photo.width, photo.height) == (32, 64))
        let decoded = try Reference.djpeg([UInt8](photo.jpeg))
        // The stored top rows (red) turn 90° clockwise onto the right-hand columns.
        let right = (10 * 32 + 30) * 3, left = (10 * 32 + 2) * 3
        #expect(decoded.bytes[right] > 200 && decoded.bytes[right + 2] < 60, "right column red")
        #expect(decoded.bytes[left + 2] > 200 && decoded.bytes[left] < 60, "left column blue")
    }

    @Test("declaredSize reads GIF, WebP and TIFF headers", FormatFixtures.needed)
    func declaredSizes() throws {
        for name in ["still.gif", "lossy.webp", "lossless.webp", "icc.webp", "lzw.tif", "tiled.tif", "big-endian.tif"]
        where FormatFixtures.exists(name) {
            let size = ImageDecoder.declaredSize(try FormatFixtures.file(name))
            #expect(size?.width == 191 && size?.height == 127, "\(name): \(String(describing: size))")
        }
    }

    @Test("embedded ICC profiles are reported: WebP ICCP, TIFF tag 34675, GIF ICCRGBG1; none means nil",
          FormatFixtures.needed)
    func iccProfiles() throws {
        let profile = try FormatFixtures.file("ICC.bin")
        #expect(try ImageDecoder.decode(FormatFixtures.file("icc.webp")).iccProfile == profile)
        #expect(try ImageDecoder.decode(FormatFixtures.file("icc.tif")).iccProfile == profile)
        #expect(try ImageDecoder.decode(FormatFixtures.file("lossless.webp")).iccProfile == nil)
        #expect(try ImageDecoder.decode(FormatFixtures.file("lzw.tif")).iccProfile == nil)
        #expect(try ImageDecoder.decode(FormatFixtures.file("plain.gif")).iccProfile == nil)
        // An ICCRGBG1 application extension (the profile in sub-blocks of at most 255 bytes) before the frame.
        var gif = try FormatFixtures.file("plain.gif")
        let tableSize = gif[10] & 0x80 != 0 ? 3 << (Int(gif[10] & 7) + 1) : 0
        var block: [UInt8] = [0x21, 0xFF, 11] + Array("ICCRGBG1012".utf8)
        for start in stride(from: 0, to: profile.count, by: 255) {
            let piece = profile[start..<min(profile.count, start + 255)]
            block += [UInt8(piece.count)] + piece
        }
        gif.insert(contentsOf: block + [0], at: 13 + tableSize)
        let decoded = try ImageDecoder.decode(gif)
        #expect(decoded.iccProfile == profile)
        #expect(DecodingReference.rgba(decoded.pixels) == (try FormatFixtures.reference("plain.gif")).rgba)
    }

    @Test("a HEIC's ICC colour profile (colr prof) is reported; without one it is nil", HEIFDecodingTests.needsFixtures)
    func heicProfile() throws {
        let path = Reference.temporaryPath(UUID().uuidString + ".heic")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let script = """
            import sys, pillow_heif
            from PIL import Image, ImageCms
            pillow_heif.register_heif_opener()
            icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
            Image.new("RGB", (64, 48), (200, 30, 30)).save(sys.argv[1], quality=90, icc_profile=icc)
            sys.stdout.buffer.write(icc)
            """
        let result = try Reference.run("python3", ["-c", script, path])
        try #require(result.status == 0, "pillow-heif failed: \(result.stderr)")
        let decoded = try ImageDecoder.decode(DecodingReference.file(path))
        #expect(decoded.iccProfile == result.stdout)
        #expect(try ImageDecoder.decode(HEIFDecodingTests.file("grid.heic")).iccProfile == nil)
    }
}
