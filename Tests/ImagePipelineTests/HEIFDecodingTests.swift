import Foundation
import ImagePipeline
import JPEGCodec
import ReceptionCore
import ReceptionTesting
import Testing

/// iPhone photos (issue 17): HEIC decoded through libheif on Linux (ImageIO on Apple platforms, not built here),
/// judged against libheif's own decode of the same file as pillow-heif runs it (its own libheif build).
/// The fixtures are made by `scripts/heic-fixtures` with pillow-heif; nothing is committed.
@Suite struct HEIFDecodingTests {
    /// The fixture folder, made once per machine (`.bench/heic`); `nil` when pillow-heif is missing.
    static let fixtures: String? = {
        let folder = Reference.packageRoot.appendingPathComponent(".bench/heic").path
        guard let photos = Reference.fixtureDirectory,
              let result = try? Reference.run(
                  "python3", [Reference.packageRoot.appendingPathComponent("scripts/heic-fixtures").path, folder,
                              photos + "/astronaut.ppm"]),
              result.status == 0
        else { return nil }
        return folder
    }()

    static let needsFixtures = ConditionTrait.enabled(
        if: fixtures != nil, "scripts/heic-fixtures failed: `make install` adds pillow-heif")

    /// Runs CPU-heavy work (a 12 MP decode and preparation, a Python judge) on a thread of its own: done inline it
    /// would hold one of the two threads of Swift's cooperative pool for seconds, and the emulator tests running
    /// beside it (a 120 s deadline in ReceptionChatTerminalTests) were starved past their budgets on a loaded machine.
    static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    static func file(_ name: String) throws -> [UInt8] {
        let folder = try #require(fixtures)
        return [UInt8](try #require(FileManager.default.contents(atPath: "\(folder)/\(name)")))
    }

    /// libheif's decode of `NAME.heic`: "W H C\n" and 8-bit samples.
    static func reference(_ name: String) throws -> Bitmap {
        let bytes = try file(name + ".ref")
        let newline = try #require(bytes.firstIndex(of: 0x0A))
        let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ").compactMap { Int($0) }
        try #require(header.count == 3)
        return Bitmap(
            width: header[0], height: header[1], format: header[2] == 4 ? .rgba8 : .rgb8,
            bytes: Array(bytes[(newline + 1)...]))
    }

    /// PSNR in dB over every sample of two buffers of one size and format.
    static func psnr(_ a: Bitmap, _ b: Bitmap) -> Double {
        var squared = 0.0
        for (x, y) in zip(a.bytes, b.bytes) { squared += (Double(x) - Double(y)) * (Double(x) - Double(y)) }
        return 10 * log10(255 * 255 / max(squared / Double(max(a.bytes.count, 1)), 1e-10))
    }

    @Test("an iPhone-style orientation (irot) comes out upright, as libheif decodes it", needsFixtures)
    func orientation() throws {
        let decoded = try ImageDecoder.decode(Self.file("orientation.heic"))
        let reference = try Self.reference("orientation")
        // Stored 96 × 64 and turned 90° clockwise for display.
        #expect((decoded.pixels.width, decoded.pixels.height) == (64, 96))
        #expect((reference.width, reference.height) == (64, 96))
        #expect(decoded.orientation == .up, "the turn is already applied; EXIF must not turn it again")
        #expect(Self.psnr(decoded.pixels, reference) > 40)
        // Upright: the stored bottom-left quadrant (blue) is now top-left, the stored top-left (red) top-right.
        let pixels = decoded.pixels
        func colour(_ x: Int, _ y: Int) -> [UInt8] { Array(pixels.bytes[(y * pixels.bytesPerRow + x * 3)...].prefix(3)) }
        #expect(colour(8, 8)[2] > 180 && colour(8, 8)[0] < 80, "top-left is blue: \(colour(8, 8))")
        #expect(colour(56, 8)[0] > 180 && colour(56, 8)[2] < 80, "top-right is red: \(colour(56, 8))")
    }

    @Test("a grid of tiles (as an iPhone stores its photos) decodes as libheif decodes it", needsFixtures)
    func grid() throws {
        let decoded = try ImageDecoder.decode(Self.file("grid.heic"))
        let reference = try Self.reference("grid")
        #expect((decoded.pixels.width, decoded.pixels.height) == (640, 480))
        #expect(decoded.pixels.format == .rgb8 && Self.psnr(decoded.pixels, reference) > 40)
    }

    @Test("a panorama wider than 8,192 px decodes and prepares to 2048 px wide", needsFixtures)
    func panorama() async throws {
        let file = try Self.file("panorama.heic"), reference = try Self.reference("panorama")
        let (decoded, psnr, photo) = try await Self.onOwnThread {
            let decoded = try ImageDecoder.decode(file)
            return (decoded.pixels, Self.psnr(decoded.pixels, reference), try PhotoPreparer().prepare(Data(file)))
        }
        #expect((decoded.width, decoded.height) == (8400, 600))
        #expect(psnr > 40)
        #expect((photo.width, photo.height) == (2048, 146))
    }

    @Test("a 10-bit HEIC decodes to 8 bits as libheif reduces it", needsFixtures)
    func tenBit() throws {
        let decoded = try ImageDecoder.decode(Self.file("tenbit.heic"))
        let reference = try Self.reference("tenbit")
        #expect(decoded.pixels.format == .rgb8)
        #expect((decoded.pixels.width, decoded.pixels.height) == (96, 64))
        #expect(Self.psnr(decoded.pixels, reference) > 40)
        // The red ramp runs from dark on the left to bright on the right.
        #expect(decoded.pixels.bytes[0] < 40 && decoded.pixels.bytes[95 * 3] > 215)
    }

    @Test("alpha is decoded straight and becomes white in the prepared photo", needsFixtures)
    func alpha() throws {
        let decoded = try ImageDecoder.decode(Self.file("alpha.heic"))
        let reference = try Self.reference("alpha")
        #expect(decoded.pixels.format == .rgba8 && reference.format == .rgba8)
        #expect(Self.psnr(decoded.pixels, reference) > 35)
        let photo = try PhotoPreparer().prepare(Data(Self.file("alpha.heic")))
        let prepared = try Reference.djpeg([UInt8](photo.jpeg))
        #expect((prepared.width, prepared.height) == (96, 64))
        let left = Array(prepared.bytes[(32 * prepared.bytesPerRow)...].prefix(3))
        let right = Array(prepared.bytes[(32 * prepared.bytesPerRow + 95 * 3)...].prefix(3))
        #expect(left.allSatisfy { $0 > 235 }, "fully transparent is white: \(left)")
        #expect(right[0] > 180 && right[1] < 50 && right[2] < 50, "opaque stays red: \(right)")
    }

    @Test("a 4032 × 3024 iPhone photo is prepared to ≤ 2048 px, ≤ 1 MiB, PSNR > 30 dB (Pillow judges)", needsFixtures)
    func iPhonePhoto() async throws {
        let file = try Self.file("iphone.heic")
        let outcome = try await Self.onOwnThread { try PhotoPreparer().prepareReporting(file) }
        let photo = outcome.photo
        #expect(max(photo.width, photo.height) <= 2048 && photo.jpeg.count <= 1_048_576)
        #expect((photo.width, photo.height) == (2048, 1536))
        // Pillow decodes our JPEG and area-resizes libheif's decode of the source to the same size.
        let folder = try #require(Self.fixtures)
        let jpegPath = Reference.temporaryPath(UUID().uuidString + ".jpg")
        try photo.jpeg.write(to: URL(fileURLWithPath: jpegPath))
        defer { try? FileManager.default.removeItem(atPath: jpegPath) }
        let script = #"""
            import math, sys
            from PIL import Image, ImageChops, ImageStat
            data = open(sys.argv[1], "rb").read()
            head, body = data.split(b"\n", 1)
            w, h, c = map(int, head.split())
            source = Image.frombytes("RGB", (w, h), body)
            ours = Image.open(sys.argv[2]).convert("RGB")
            expected = source.resize(ours.size, Image.BOX)
            mse = sum(v * v * n for band in ImageChops.difference(ours, expected).split()
                      for v, n in enumerate(band.histogram())) / (ours.width * ours.height * 3)
            print(10 * math.log10(255 * 255 / max(mse, 1e-10)))
            """#
        let result = try await Self.onOwnThread {
            try Reference.run("python3", ["-c", script, "\(folder)/iphone.ref", jpegPath])
        }
        let psnr = try #require(Double(String(decoding: result.stdout, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)), "\(result.stderr)")
        #expect(psnr > 30, "PSNR \(psnr) dB at quality \(outcome.quality)")
    }

    @Test("an image sequence, AVIF and other ftyp brands stay invalid_image", needsFixtures)
    func otherBrands() throws {
        #expect(throws: CodecError.invalidImage) { try ImageDecoder.decode(Self.file("sequence.heic")) }
        var avif = try Self.file("orientation.heic")
        avif.replaceSubrange(8..<12, with: Array("avif".utf8))
        #expect(throws: CodecError.invalidImage) { try ImageDecoder.decode(avif) }
        var video = try Self.file("orientation.heic")
        video.replaceSubrange(8..<12, with: Array("isom".utf8))
        #expect(throws: CodecError.invalidImage) { try ImageDecoder.decode(video) }
    }

    @Test("a cut or corrupted HEIC is invalid_image (or decodes), never a crash", needsFixtures)
    func hostile() throws {
        let original = try Self.file("orientation.heic")
        for cut in [12, 16, 24, 32, 64, 100, 200, 300, 400, 500, 600, original.count - 1] {
            #expect(throws: CodecError.invalidImage, "cut at \(cut)") {
                try ImageDecoder.decode(Array(original[..<cut]))
            }
        }
        // An ftyp box that claims more bytes than the file has.
        var lying = original
        lying.replaceSubrange(0..<4, with: [0x7F, 0xFF, 0xFF, 0xFF])
        #expect(throws: CodecError.invalidImage) { try ImageDecoder.decode(lying) }
        // A crash ends the process before any message, so the seed is printed first.
        var generator = SeededRandomNumberGenerator.fromEnvironment()
        print("HEIFDecodingTests, flipped bytes: \(generator.reproduction)")
        let files = [original, try Self.file("grid.heic")]
        for round in 0..<200 {
            var bytes = files[round % 2]
            for _ in 0..<3 {
                bytes[Int.random(in: 12..<bytes.count, using: &generator)] = .random(in: 0...255, using: &generator)
            }
            do {
                let image = try ImageDecoder.decode(bytes)
                #expect(image.pixels.bytes.count == image.pixels.height * image.pixels.bytesPerRow)
            } catch {
                #expect([CodecError.invalidImage, .imageTooLarge].contains(error),
                        "round \(round): \(error); \(generator.reproduction)")
            }
        }
    }
}
