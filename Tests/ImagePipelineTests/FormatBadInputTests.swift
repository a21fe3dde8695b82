import Foundation
import ImagePipeline
import JPEGCodec
import ReceptionCore
import ReceptionTesting
import Testing

/// Issue 51: hostile GIF, WebP and TIFF headers are refused with `invalid_image` or `image_too_large` before any
/// pixel buffer exists, and cut or corrupted files never crash.
@Suite struct FormatBadInputTests {
    /// `bytes` with the 16-bit little-endian values at `offsets` set to `value`.
    static func setting(_ bytes: [UInt8], _ offsets: [Int], to value: Int) -> [UInt8] {
        var bytes = bytes
        for offset in offsets {
            bytes[offset] = UInt8(value & 0xFF)
            bytes[offset + 1] = UInt8(value >> 8)
        }
        return bytes
    }

    /// Where the first image descriptor (0x2C) of a GIF without extensions before it starts.
    static func imageDescriptor(_ gif: [UInt8]) -> Int {
        13 + (gif[10] & 0x80 != 0 ? 3 << (Int(gif[10] & 7) + 1) : 0)
    }

    @Test("a GIF claiming a 65,535 × 65,535 screen or frame is image_too_large; a zero size invalid_image",
          FormatFixtures.needed)
    func gifSizes() throws {
        let gif = try FormatFixtures.file("plain.gif")
        let descriptor = Self.imageDescriptor(gif)
        try #require(gif[descriptor] == 0x2C)
        #expect(throws: CodecError.imageTooLarge) { try ImageDecoder.decode(Self.setting(gif, [6, 8], to: 65535)) }
        #expect(throws: CodecError.imageTooLarge) {
            try ImageDecoder.decode(Self.setting(gif, [descriptor + 5, descriptor + 7], to: 65535))
        }
        #expect(throws: CodecError.invalidImage) { try ImageDecoder.decode(Self.setting(gif, [6], to: 0)) }
        #expect(throws: CodecError.invalidImage) {
            try ImageDecoder.decode(Self.setting(gif, [descriptor + 7], to: 0))
        }
        // A frame that claims far more rows than its data holds runs out of data: nothing decodes.
        #expect(throws: CodecError.invalidImage) {
            try ImageDecoder.decode(Self.setting(gif, [6, 8, descriptor + 5, descriptor + 7], to: 8000))
        }
        // A 4,000² screen (16 MP, within the limits) around the 96 × 64 first frame of a file of a few hundred bytes:
        // refused before the screen is allocated (`CanvasLimit`: at most 4,096 pixels a byte beyond the frame).
        let animated = try FormatFixtures.file("animated.gif")
        #expect(animated.count < 1000)
        #expect(throws: CodecError.invalidImage) { try ImageDecoder.decode(Self.setting(animated, [6, 8], to: 4000)) }
        // No image at all: the trailer right after the colour table.
        #expect(throws: CodecError.invalidImage) { try ImageDecoder.decode(Array(gif[..<descriptor]) + [0x3B]) }
    }

    @Test("a WebP whose bitstream claims 16,384 × 16,384 is image_too_large; a lying RIFF size invalid_image",
          FormatFixtures.needed)
    func webpSizes() throws {
        var lossless = try FormatFixtures.file("lossless.webp")
        // Simple lossless: "VP8L" at 12, its size at 16, the signature 0x2F at 20, then 14 bits each of w-1, h-1.
        try #require(Array(lossless[12..<16]) == Array("VP8L".utf8) && lossless[20] == 0x2F)
        let bits = UInt32(lossless[21]) | UInt32(lossless[22]) << 8 | UInt32(lossless[23]) << 16
            | UInt32(lossless[24]) << 24
        let huge = (bits & ~UInt32(0x0FFF_FFFF)) | 0x3FFF | 0x3FFF << 14
        for byte in 0..<4 { lossless[21 + byte] = UInt8(truncatingIfNeeded: huge >> (8 * byte)) }
        #expect(throws: CodecError.imageTooLarge) { try ImageDecoder.decode(lossless) }
        // The VP8X canvas (24-bit width − 1 and height − 1 at 24 and 27) far larger than the frame.
        var extended = try FormatFixtures.file("icc.webp")
        try #require(Array(extended[12..<16]) == Array("VP8X".utf8))
        for offset in 24..<30 { extended[offset] = 0xFF }
        #expect(throws: CodecError.self) { try ImageDecoder.decode(extended) }
        // An animation's 8,000² canvas around 96 × 64 frames in a file of a few hundred bytes (`CanvasLimit`).
        var animated = try FormatFixtures.file("animated.webp")
        try #require(Array(animated[12..<16]) == Array("VP8X".utf8))
        animated.replaceSubrange(24..<30, with: [0x3F, 0x1F, 0x00, 0x3F, 0x1F, 0x00])
        #expect(throws: CodecError.invalidImage) { try ImageDecoder.decode(animated) }
        var riff = try FormatFixtures.file("lossy.webp")
        riff[4...7] = [0xFF, 0xFF, 0xFF, 0x7F]
        #expect(throws: CodecError.invalidImage) { try ImageDecoder.decode(riff) }
    }

    @Test("a TIFF claiming 65,535 × 65,535 is image_too_large; more rows than its strips hold invalid_image",
          FormatFixtures.needed)
    func tiffSizes() throws {
        let raw = try FormatFixtures.file("raw.tif")
        let wide = try FormatFixtures.patchingTIFF(raw, tag: 256, value: 65535)
        #expect(throws: CodecError.imageTooLarge) {
            try ImageDecoder.decode(FormatFixtures.patchingTIFF(wide, tag: 257, value: 65535))
        }
        let empty = try FormatFixtures.patchingTIFF(raw, tag: 256, value: 0)
        #expect(throws: CodecError.invalidImage) { try ImageDecoder.decode(empty) }
        // 65,535 rows of 191 pixels (12.5 MP, within the limits) in strips that hold 127 rows: refused before decoding.
        for name in ["raw.tif", "lzw.tif", "deflate.tif", "packbits.tif"] {
            let tall = try FormatFixtures.patchingTIFF(FormatFixtures.file(name), tag: 257, value: 65535)
            #expect(throws: CodecError.invalidImage, "\(name)") { try ImageDecoder.decode(tall) }
        }
        // One row per strip: 127 strips declared by the rows, one offset and one count in the file.
        let strips = try FormatFixtures.patchingTIFF(raw, tag: 278, value: 1)
        #expect(throws: CodecError.invalidImage) { try ImageDecoder.decode(strips) }
    }

    @Test("cut or corrupted GIF, WebP and TIFF files are refused or decoded, never a crash", FormatFixtures.needed)
    func corrupted() throws {
        let names = ["still.gif", "animated.gif", "lossy.webp", "alpha.webp", "animated.webp", "lzw.tif", "tiled.tif",
                     "deflate.tif", "packbits.tif", "rgba.tif"].filter(FormatFixtures.exists)
        let files = try names.map(FormatFixtures.file)
        func decodes(_ bytes: [UInt8], _ label: @autoclosure () -> String) {
            do {
                let image = try ImageDecoder.decode(bytes)
                #expect(image.pixels.bytes.count == image.pixels.height * image.pixels.bytesPerRow, "\(label())")
            } catch {
                #expect([CodecError.invalidImage, .imageTooLarge].contains(error), "\(label()): \(error)")
            }
        }
        for (name, file) in zip(names, files) {
            for cut in [6, 12, 13, 20, 30, 40, 64, 100, file.count / 2, file.count - 1] where cut < file.count {
                decodes(Array(file[..<cut]), "\(name) cut at \(cut)")
            }
        }
        // A crash ends the process before any message, so the seed is printed first.
        var generator = SeededRandomNumberGenerator.fromEnvironment()
        print("FormatBadInputTests, flipped bytes: \(generator.reproduction)")
        for round in 0..<300 {
            var bytes = files[round % files.count]
            for _ in 0..<4 {
                bytes[Int.random(in: 8..<bytes.count, using: &generator)] = .random(in: 0...255, using: &generator)
            }
            decodes(bytes, "\(names[round % files.count]) round \(round); \(generator.reproduction)")
        }
    }
}
