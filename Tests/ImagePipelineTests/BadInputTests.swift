import ImagePipeline
import JPEGCodec
import PixmapFiles
import ReceptionCore
import Testing

/// Spec 7.9 step 1 and issue 3: bad geometry or quality is `invalid_image`, never a crash or an out-of-bounds read.
@Suite struct BadInputTests {
    struct Bad: CustomTestStringConvertible, Sendable {
        let name: String
        let image: Bitmap
        var testDescription: String { name }
    }

    static func zeros(_ count: Int) -> [UInt8] { [UInt8](repeating: 0, count: count) }

    static let cases: [Bad] = [
        Bad(name: "zero width", image: Bitmap(width: 0, height: 4, format: .rgb8, bytes: [])),
        Bad(name: "zero height", image: Bitmap(width: 4, height: 0, format: .rgb8, bytes: [])),
        Bad(name: "negative width", image: Bitmap(width: -3, height: 4, format: .rgb8, bytes: zeros(64))),
        Bad(
            name: "width past 65535", image: Bitmap(width: 65_536, height: 1, format: .gray8, bytes: zeros(65_536))),
        Bad(name: "huge height", image: Bitmap(width: 1, height: Int.max, format: .gray8, bytes: [0])),
        Bad(name: "stride shorter than a row",
            image: Bitmap(width: 4, height: 2, format: .rgb8, bytesPerRow: 11, bytes: zeros(24))),
        Bad(name: "negative stride",
            image: Bitmap(width: 4, height: 2, format: .rgb8, bytesPerRow: -12, bytes: zeros(24))),
        Bad(name: "buffer one byte short",
            image: Bitmap(width: 4, height: 2, format: .rgba8, bytes: zeros(31))),
        Bad(name: "stride overflowing Int",
            image: Bitmap(width: 2, height: 3, format: .gray8, bytesPerRow: Int.max / 2, bytes: [0, 0, 0, 0])),
        Bad(name: "empty buffer", image: Bitmap(width: 1, height: 1, format: .rgb8, bytes: [])),
    ]

    @Test("bad geometry throws invalid_image: the codec's error, and the SDK's code through ImageEncoding",
          arguments: cases)
    func badGeometry(bad: Bad) {
        #expect(throws: CodecError.invalidImage) { try JPEGEncoder().encodeJPEG(bad.image, quality: 80) }
        let encoder: any ImageEncoding = JPEGEncoder()
        #expect(throws: ReceptionError.invalidImage) { try encoder.encodeJPEG(PixelBuffer(bad.image), quality: 80) }
    }

    @Test("quality outside 1...100 throws invalid_image", arguments: [Int.min, -1, 0, 101, 1000, Int.max])
    func badQuality(quality: Int) {
        let image = Bitmap(width: 2, height: 2, format: .gray8, bytes: [0, 1, 2, 3])
        #expect(throws: CodecError.invalidImage) { try JPEGEncoder().encodeJPEG(image, quality: quality) }
        #expect(throws: ReceptionError.invalidImage) {
            try JPEGEncoder().encodeJPEG(PixelBuffer(image), quality: quality)
        }
    }

    @Test("a restart interval outside 0...65535 throws invalid_image", arguments: [-1, 65_536])
    func badRestartInterval(interval: Int) {
        let image = Bitmap(width: 2, height: 2, format: .gray8, bytes: [0, 1, 2, 3])
        #expect(throws: CodecError.invalidImage) {
            try JPEGEncoder(options: .init(restartInterval: interval)).encodeJPEG(image, quality: 80)
        }
    }

    @Test("the last row needs no full stride, and the extremes of quality still encode", arguments: [1, 100])
    func boundaries(quality: Int) throws {
        // 3 rows of stride 10 holding 4 grey pixels each: the last row ends at byte 24, not 30.
        let image = Bitmap(
            width: 4, height: 3, format: .gray8, bytesPerRow: 10, bytes: [UInt8](repeating: 200, count: 24))
        let jpeg = try JPEGEncoder().encodeJPEG(image, quality: quality)
        #expect(Array(jpeg.prefix(2)) == [0xFF, 0xD8])
    }

    @Test("malformed PPM input throws invalid_image",
          arguments: [
              "", "P6", "P3\n1 1\n255\n", "P6\n2 2\n255\n\u{0}", "P6\n0 1\n255\n", "P6\n1 1\n65535\n\u{0}\u{0}",
              "P6\n99999999999 1\n255\n",
          ])
    func badPixmap(text: String) {
        #expect(throws: CodecError.invalidImage) { try PortablePixmap.decode(Array(text.utf8)) }
    }

    @Test("a pixmap's samples come out exactly, past comments and before trailing bytes, and a kept array is untouched")
    func pixmapSamples() throws {
        let header = Array("P6\n# made by hand\n3 2\n255\n".utf8), samples = (0..<18).map { UInt8($0 * 13) }
        let file = header + samples + [9, 9, 9]
        let image = try PortablePixmap.decode(file)
        #expect(image.width == 3 && image.height == 2 && image.format == .rgb8 && image.bytes == samples)
        #expect(file == header + samples + [9, 9, 9])
        let grey = try PortablePixmap.decode(Array("P5 2 1 255 ".utf8) + [7, 250])
        #expect(grey.format == .gray8 && grey.bytes == [7, 250])
    }

    @Test("a sink with room reserved holds the same JPEG as a growing one")
    func reservedSink() throws {
        let image = Bitmap(
            width: 40, height: 24, format: .rgb8, bytes: (0..<(40 * 24 * 3)).map { UInt8(truncatingIfNeeded: $0 * 7) })
        var growing = ByteArraySink(), reserved = ByteArraySink(reservingCapacity: 40 * 24), small = ByteArraySink(reservingCapacity: 16)
        try JPEGEncoder().encode(image, into: &growing)
        try JPEGEncoder().encode(image, into: &reserved)
        try JPEGEncoder().encode(image, into: &small)
        #expect(growing.bytes.count > 200 && reserved.bytes == growing.bytes && small.bytes == growing.bytes)
    }
}
