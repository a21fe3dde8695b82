import Foundation
import ImagePipeline
import JPEGCodec
import ReceptionCore
import Testing

/// Issue 51, "nothing but pixels leaves the phone": whatever metadata the input holds (EXIF with GPS and a maker
/// note, XMP, comments, text chunks), the prepared JPEG is SOI, APP0 (JFIF), DQT, SOF, DHT, SOS and EOI only, with
/// none of the metadata's bytes anywhere, and the input's orientation is applied to the pixels, for every format.
/// The inputs are written by Pillow (and pillow-heif), each carrying the same secrets.
@Suite struct MetadataGuaranteeTests {
    struct Input: CustomTestStringConvertible, Sendable {
        let format: String
        /// Pillow's save call for `im`, with `exif`, `gps`, `xmp` and `comment` at hand.
        let save: String
        /// Whether the format carries the orientation (EXIF tag 274 = 6, or HEIF's `irot`).
        let oriented: Bool
        var testDescription: String { format }
    }

    /// The same stored picture (64 × 32, red top rows over blue) and the same secrets for every format.
    static let prelude = """
        import sys
        from PIL import Image, PngImagePlugin, TiffImagePlugin
        im = Image.new("RGB", (64, 32), (20, 20, 220))
        im.paste((220, 20, 20), (0, 0, 64, 8))
        gps = {1: "N", 2: (51.0, 30.0, 12.5), 3: "W", 4: (0.0, 7.0, 39.0), 27: b"ASCII\\x00\\x00\\x00GPS-SECRET-51"}
        exif = Image.Exif()
        exif[0x0112] = 6
        exif[0x8825] = gps
        exif[0x8769] = {0x927C: b"MAKERNOTE-SECRET-51"}
        xmp = b"<x:xmpmeta xmlns:x='adobe:ns:meta/'>http://ns.adobe.com/xap/1.0/ XMP-SECRET-51</x:xmpmeta>"
        comment = b"COMMENT-SECRET-51"
        path = sys.argv[1]
        """

    static let inputs: [Input] = [
        Input(format: "jpg", save: "im.save(path, quality=95, exif=exif, xmp=xmp, comment=comment)", oriented: true),
        Input(
            format: "png",
            save: """
                info = PngImagePlugin.PngInfo()
                info.add_text("Comment", "TEXT-SECRET-51")
                info.add_itxt("XML:com.adobe.xmp", xmp.decode())
                im.save(path, exif=exif, pnginfo=info)
                """, oriented: true),
        Input(format: "gif", save: "im.quantize(16).save(path, comment=comment)", oriented: false),
        Input(format: "webp", save: "im.save(path, lossless=True, exif=exif, xmp=xmp)", oriented: true),
        Input(
            format: "tif",
            save: """
                tags = TiffImagePlugin.ImageFileDirectory_v2()
                tags[274] = 6; tags[700] = xmp; tags[34853] = gps; tags[270] = "COMMENT-SECRET-51"
                im.save(path, tiffinfo=tags)
                """, oriented: true),
        Input(
            format: "heic",
            save: """
                import pillow_heif; pillow_heif.register_heif_opener()
                im.save(path, quality=95, exif=exif.tobytes(), xmp=xmp)
                """, oriented: true),
    ]

    /// Markers a prepared JPEG may hold: SOI, APP0, DQT, SOF0, SOF2, DHT, DRI, SOS, EOI (and RSTm in the scan).
    static let allowedMarkers: Set<UInt8> = [0xD8, 0xE0, 0xDB, 0xC0, 0xC2, 0xC4, 0xDD, 0xDA, 0xD9]

    /// Every marker of a JPEG, in order: the header segments by their lengths, then those in and after the scans.
    static func markers(_ jpeg: [UInt8]) throws -> [UInt8] {
        try #require(jpeg.starts(with: [0xFF, 0xD8]))
        var markers: [UInt8] = [0xD8], position = 2
        while position + 1 < jpeg.count {
            try #require(jpeg[position] == 0xFF, "a marker at \(position)")
            let marker = jpeg[position + 1]
            markers.append(marker)
            if marker == 0xD9 { break }
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            position += 2 + length
            guard marker == 0xDA else { continue }
            // Entropy-coded data: 0xFF 0x00 is a stuffed byte, 0xFF 0xD0–D7 a restart; anything else ends it.
            while position + 1 < jpeg.count
                && !(jpeg[position] == 0xFF && jpeg[position + 1] != 0 && !(0xD0...0xD7).contains(jpeg[position + 1]))
            {
                position += 1
            }
        }
        return markers
    }

    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let bytes = Array(needle.utf8)
        guard haystack.count >= bytes.count else { return false }
        return (0...(haystack.count - bytes.count)).contains { haystack[$0..<($0 + bytes.count)].elementsEqual(bytes) }
    }

    @Test("the prepared JPEG holds nothing but pixels, with the orientation applied", arguments: inputs)
    func nothingButPixels(input: Input) throws {
        let path = Reference.temporaryPath(UUID().uuidString + "." + input.format)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let written = try Reference.run("python3", ["-c", Self.prelude + "\n" + input.save, path])
        if input.format == "heic" && written.stderr.contains("No module named 'pillow_heif'") { return }
        try #require(written.status == 0, "Pillow failed: \(written.stderr)")
        let file = try DecodingReference.file(path)
        // The input really carries the secrets (not every format carries every one).
        let secrets = ["GPS-SECRET-51", "MAKERNOTE-SECRET-51", "XMP-SECRET-51", "COMMENT-SECRET-51", "TEXT-SECRET-51"]
        try #require(secrets.contains { Self.contains(file, $0) }, "\(input.format) carries no metadata")

        let photo = try PhotoPreparer().prepare(Data(file))
        let jpeg = [UInt8](photo.jpeg)
        let markers = try Self.markers(jpeg)
        #expect(markers.last == 0xD9 && markers.allSatisfy(Self.allowedMarkers.contains),
                "markers \(markers.map { String($0, radix: 16) })")
        for forbidden in secrets + ["Exif", "http://ns.adobe.com/xap", "adobe:ns:meta", "GPS", "8BIM", "ICC_PROFILE"] {
            #expect(!Self.contains(jpeg, forbidden), "\(input.format): the output holds \(forbidden)")
        }

        // Stored 64 × 32 with red top rows: turned 90° clockwise, 32 × 64 with red right-hand columns.
        let pixels = try Reference.djpeg(jpeg)
        func sample(_ x: Int, _ y: Int) -> [UInt8] {
            Array(pixels.bytes[(y * pixels.width + x) * 3..<(y * pixels.width + x) * 3 + 3])
        }
        if input.oriented {
            #expect((photo.width, photo.height) == (32, 64))
            #expect(sample(30, 32)[0] > 180 && sample(30, 32)[2] < 80, "right column red: \(sample(30, 32))")
            #expect(sample(2, 32)[2] > 180 && sample(2, 32)[0] < 80, "left column blue: \(sample(2, 32))")
        } else {
            #expect((photo.width, photo.height) == (64, 32))
            #expect(sample(32, 2)[0] > 180 && sample(32, 2)[2] < 80, "top row red: \(sample(32, 2))")
        }
    }
}
