import Digest
import Foundation
import ImagePipeline
import JPEGCodec
import ReceptionCore
import Testing

/// Spec 7.9 preparation end to end: decoded by us, judged by `djpeg`.
@Suite struct PhotoPreparerTests {
    /// Runs Pillow to write an image built by `script` (which has `Image` and must leave `im`) to `format`.
    static func pillowFile(_ script: String, format: String, save: String = "") throws -> [UInt8] {
        let path = Reference.temporaryPath(UUID().uuidString + "." + format)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let code = "from PIL import Image\n\(script)\nim.save('\(path)'\(save))"
        let result = try Reference.run("python3", ["-c", code])
        #expect(result.status == 0, "Pillow failed: \(result.stderr)")
        return try DecodingReference.file(path)
    }

    @Test("a 12 MP camera-sized JPEG becomes ≤ 2048 px, ≤ 1 MiB, at quality 0.85, with the upload checksum")
    func largePhoto() throws {
        let directory = try #require(Reference.fixtureDirectory)
        let bytes = try Self.pillowFile(
            "im = Image.open('\(directory)/astronaut.ppm').resize((4032, 3024), Image.LANCZOS)", format: "jpg",
            save: ", quality=95")
        let outcome = try PhotoPreparer().prepareReporting(bytes)
        #expect(outcome.photo.width == 2048 && outcome.photo.height == 1536)
        #expect(outcome.photo.jpeg.count <= 1_048_576 && outcome.quality == 85 && outcome.maximumEdge == 2048)
        #expect(outcome.photo.checksum == Base64.encode(SHA256.hash([UInt8](outcome.photo.jpeg))))
        let decoded = try Reference.djpeg([UInt8](outcome.photo.jpeg))
        #expect(decoded.width == 2048 && decoded.height == 1536)
    }

    @Test("EXIF orientation 6 is applied: a landscape file comes out portrait, top of the scene on top")
    func orientationApplied() throws {
        let script = """
            im = Image.new('RGB', (64, 32), 'blue')
            im.paste((255, 0, 0), (0, 0, 64, 8))
            exif = Image.Exif(); exif[0x0112] = 6
            """
        let bytes = try Self.pillowFile(script, format: "jpg", save: ", quality=95, exif=exif.tobytes()")
        let photo = try PhotoPreparer().prepare(Data(bytes))
        #expect(photo.width == 32 && photo.height == 64)
        let decoded = try Reference.djpeg([UInt8](photo.jpeg))
        // The stored top rows (red) turn 90° clockwise onto the right-hand columns.
        let right = (10 * 32 + 30) * 3, left = (10 * 32 + 2) * 3
        #expect(decoded.bytes[right] > 200 && decoded.bytes[right + 2] < 60, "right column red")
        #expect(decoded.bytes[left + 2] > 200 && decoded.bytes[left] < 60, "left column blue")
    }

    @Test("transparency becomes white and a small image is never enlarged")
    func transparentPNG() throws {
        let bytes = try Self.pillowFile("im = Image.new('RGBA', (40, 30), (0, 0, 0, 0))", format: "png")
        let photo = try PhotoPreparer().prepare(Data(bytes))
        #expect(photo.width == 40 && photo.height == 30)
        let decoded = try Reference.djpeg([UInt8](photo.jpeg))
        #expect(decoded.bytes.allSatisfy { $0 >= 250 })
    }

    @Test("noise walks down the quality ladder, and with a tighter budget down the shrink rounds")
    func noiseWalksTheLadder() throws {
        let bytes = try Self.pillowFile(
            "import os\nim = Image.frombytes('RGB', (2048, 2048), os.urandom(2048 * 2048 * 3))", format: "png")
        let outcome = try PhotoPreparer().prepareReporting(bytes)
        #expect(outcome.quality < 85 && outcome.maximumEdge == 2048 && outcome.photo.jpeg.count <= 1_048_576)

        var configuration = PhotoPreparer.Configuration()
        configuration.byteLimit = 300_000
        let shrunk = try PhotoPreparer(configuration: configuration).prepareReporting(bytes)
        #expect([1536, 1152, 864, 648].contains(shrunk.maximumEdge), "edge \(shrunk.maximumEdge)")
        #expect(shrunk.photo.width == shrunk.maximumEdge && shrunk.photo.jpeg.count <= 300_000)
    }

    @Test("nothing under the byte limit after every round is image_too_large")
    func tooLarge() throws {
        var configuration = PhotoPreparer.Configuration()
        configuration.byteLimit = 100
        let bytes = try Self.pillowFile("im = Image.new('RGB', (300, 200), 'green')", format: "png")
        #expect(throws: ReceptionError(code: ReceptionError.Code.imageTooLarge)) {
            try PhotoPreparer(configuration: configuration).prepare(Data(bytes))
        }
    }

    @Test("the edge rounds and the fit follow spec 7.9 (2048 → 1536 → 1152 → 864 → 648, rounded, min 1)")
    func fitting() {
        #expect(PhotoPreparer.fit(width: 4032, height: 3024, maximumEdge: 2048) == (2048, 1536))
        #expect(PhotoPreparer.fit(width: 100, height: 50, maximumEdge: 2048) == (100, 50))
        #expect(PhotoPreparer.fit(width: 10_000, height: 3, maximumEdge: 648).1 == 1)
    }
}
