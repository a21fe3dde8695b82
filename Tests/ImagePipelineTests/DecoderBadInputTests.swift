import Foundation
import ImagePipeline
import JPEGCodec
import ReceptionCore
import ReceptionTesting
import Testing

/// Hostile and broken files: every one is `invalid_image` or `image_too_large`, never a crash, hang or huge
/// allocation.
@Suite struct DecoderBadInputTests {
    static let tooLarge = CodecError.imageTooLarge

    static func isCleanFailure(_ body: () throws(CodecError) -> DecodedImage) -> Bool {
        do {
            _ = try body()
            return false
        } catch {
            return error == .invalidImage || error == tooLarge
        }
    }

    @Test("every truncation of a PNG and of baseline and progressive JPEGs fails cleanly", DecodingReference.needsGoImages)
    func truncations() throws {
        let directory = DecodingReference.goImages
        for path in ["/png/testdata/pngsuite/basn2c08.png", "/png/testdata/benchRGB-interlace.png",
                     "/testdata/video-001.jpeg", "/testdata/video-001.progressive.jpeg"] {
            let bytes = try DecodingReference.file(directory + path)
            for cut in stride(from: 0, to: bytes.count - 2, by: 97) {
                #expect(Self.isCleanFailure { () throws(CodecError) in try ImageDecoder.decode(Array(bytes[..<cut])) },
                        "\(path) cut at \(cut)")
            }
        }
    }

    @Test("flipped bytes anywhere never crash (any outcome but a trap is acceptable)", DecodingReference.needsGoImages)
    func corruption() throws {
        // A crash is the failure here, and it ends the process before any message: the seed is printed first.
        var generator = SeededRandomNumberGenerator.fromEnvironment()
        print("DecoderBadInputTests, flipped bytes: \(generator.reproduction)")
        for path in ["/testdata/video-001.q50.420.jpeg", "/testdata/video-001.q50.420.progressive.jpeg",
                     "/png/testdata/pngsuite/basn3p08.png"] {
            let original = try DecodingReference.file(DecodingReference.goImages + path)
            for _ in 0..<150 {
                var bytes = original
                for _ in 0..<4 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = .random(in: 0...255, using: &generator) }
                _ = try? ImageDecoder.decode(bytes)
                _ = try? JPEGDecoder.decode(bytes, eighths: 2)
            }
        }
    }

    @Test("a header claiming 100,000 × 100,000 or 65,535 × 65,535 pixels is refused before allocating", DecodingReference.needsGoImages)
    func absurdDimensions() throws {
        // PNG: a valid IHDR (with a correct CRC, via Pillow's own file) patched to lie about its size.
        var png = try DecodingReference.file(DecodingReference.pngSuite + "/basn0g08.png")
        for (w, h) in [(100_000, 100_000), (65_535, 65_535)] {
            for (offset, value) in [(16, w), (20, h)] {
                for i in 0..<4 { png[offset + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * i)) }
            }
            // The CRC now fails unless fixed: either way the lie must not allocate or crash.
            #expect(Self.isCleanFailure { () throws(CodecError) in try PNGDecoder.decode(png) })
        }
        // JPEG: SOF0 of a real file patched to 65,535 × 65,535 with only a few kilobytes of data behind it.
        var jpeg = try DecodingReference.file(DecodingReference.goImages + "/testdata/video-001.jpeg")
        let sof = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        for i in 5...8 { jpeg[sof + i] = 0xFF }
        #expect(Self.isCleanFailure { () throws(CodecError) in try JPEGDecoder.decode(jpeg) })
    }

    @Test("a PNG header within the pixel limit but beyond what its IDAT could inflate to is refused", DecodingReference.needsGoImages)
    func pngHeaderBeyondItsData() throws {
        // basn0g08 is 32 × 32 with about 140 bytes of IDAT; 8,000 × 8,000 grey (64 MB of rows) cannot come out of
        // that under deflate's 1,032:1 ceiling. Checked with CRCs off so the lie reaches the size check.
        var png = try DecodingReference.file(DecodingReference.pngSuite + "/basn0g08.png")
        for (offset, value) in [(16, 8_000), (20, 8_000)] {
            for i in 0..<4 { png[offset + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * i)) }
        }
        let error = #expect(throws: CodecError.self) {
            try png.withUnsafeBufferPointer { (file) throws(CodecError) in
                try PNGDecoder.decode(file, verifiesChecksums: false)
            }
        }
        #expect(error == .invalidImage)
    }

    @Test("a component sampled 3× finer than the others decodes at every scale without a trap", DecodingReference.needsGoImages)
    func threeTimesSampling() throws {
        // Regression for a fuzzer finding: Go's CMYK file with K patched to 3×3 sampling made the 1/8 and 1/4
        // decodes reconstruct the 1×1 components with a 3- or 6-point IDCT, which did not exist (a trap); at 3/8
        // and 1/2 they would need a 9- or 12-point one, which still does not.
        var jpeg = try DecodingReference.file(DecodingReference.goImages + "/testdata/video-001.cmyk.jpeg")
        let sof = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        #expect(jpeg[sof + 9] == 4 && jpeg[sof + 20] == 0x11)  // four components, the fourth 1×1
        jpeg[sof + 20] = 0x33
        for eighths in JPEGDecoder.scales {
            // The scans no longer fit the new MCU layout: a picture or a clean error, but never a trap.
            do {
                _ = try JPEGDecoder.decode(jpeg, eighths: eighths)
            } catch {
                #expect(error == .invalidImage || error == Self.tooLarge)
            }
        }
    }

    @Test("no frame, not an image, empty: invalid_image")
    func notImages() {
        for bytes: [UInt8] in [[], [0xFF, 0xD8, 0xFF, 0xD9], [0xFF, 0xD8, 0xFF, 0xDA, 0, 2, 0xFF, 0xD9],
                               Array("GIF89a".utf8), PNGTestData.signatureOnly] {
            #expect(Self.isCleanFailure { () throws(CodecError) in try ImageDecoder.decode(bytes) })
        }
    }
}

enum PNGTestData {
    static let signatureOnly: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}
