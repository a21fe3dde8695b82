import Foundation
import ImagePipeline
import JPEGCodec
import PixmapFiles
import ReceptionTesting
import ReceptionCore
import Testing

/// The independent side of every image test: the photo fixtures, libjpeg-turbo's `djpeg` to decode our output and
/// `cjpeg` to produce the reference at the same settings, and PSNR to compare pixels.
enum Reference {
    /// The package root, found from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The directory of PPM fixtures, prepared once by `scripts/image-fixtures` (no image is committed).
    static let fixtureDirectory: String? = {
        let script = packageRoot.appendingPathComponent("scripts/image-fixtures").path
        guard let result = try? run("python3", [script]), result.status == 0 else { return nil }
        return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }()

    static let photoNames = ["astronaut", "coffee", "chelsea"]

    /// A fixture photo as an RGB buffer.
    static func photo(_ name: String) throws -> Bitmap {
        let directory = try #require(fixtureDirectory, "scripts/image-fixtures could not prepare the photos")
        let data = try #require(FileManager.default.contents(atPath: "\(directory)/\(name).ppm"))
        return try PortablePixmap.decode([UInt8](data))
    }

    struct Output {
        let status: Int32
        let stdout: [UInt8]
        let stderr: String
    }

    /// Runs a tool found on PATH and collects its output (through files, so a chatty tool never blocks on a
    /// full pipe).
    static func run(_ tool: String, _ arguments: [String]) throws -> Output {
        let result = try ChildProcess.run([tool] + arguments)
        return Output(
            status: result.status, stdout: [UInt8](result.output),
            stderr: String(decoding: result.errorOutput, as: UTF8.self))
    }

    /// A scratch file path unique to this process.
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("reception-image-\(getpid())-\(name)").path
    }

    /// Decodes JPEG bytes with `djpeg`, requiring success and no warning on stderr.
    static func djpeg(_ jpeg: [UInt8], grey: Bool = false) throws -> Bitmap {
        let path = temporaryPath(UUID().uuidString + ".jpg")
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try run("djpeg", grey ? ["-pnm", path] : ["-ppm", path])
        #expect(result.status == 0, "djpeg failed: \(result.stderr)")
        #expect(result.stderr.isEmpty, "djpeg warned: \(result.stderr)")
        return try PortablePixmap.decode(result.stdout)
    }

    /// libjpeg-turbo's own output at the same settings (`cjpeg`, default integer DCT).
    static func cjpeg(_ image: Bitmap, quality: Int, chroma: JPEGEncoder.ChromaSubsampling, optimize: Bool)
        throws -> [UInt8]
    {
        let path = temporaryPath(UUID().uuidString + (image.format == .gray8 ? ".pgm" : ".ppm"))
        try Data(PortablePixmap.encode(image)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        // -baseline: clamp steps to 8 bits as we do (spec'd baseline output), which cjpeg does not by default.
        var arguments = ["-quality", "\(quality)", "-baseline", "-sample", chroma == .halved ? "2x2" : "1x1"]
        if optimize { arguments.append("-optimize") }
        let result = try run("cjpeg", arguments + [path])
        #expect(result.status == 0, "cjpeg failed: \(result.stderr)")
        return result.stdout
    }

    /// PSNR in dB of the JFIF luma of `decoded` against `source` (both RGB, or both grey).
    static func lumaPSNR(_ source: Bitmap, _ decoded: Bitmap) -> Double {
        func luma(_ image: Bitmap, _ x: Int, _ y: Int) -> Double {
            let p = y * image.bytesPerRow + x * image.format.bytesPerPixel
            if image.format == .gray8 { return Double(image.bytes[p]) }
            return 0.299 * Double(image.bytes[p]) + 0.587 * Double(image.bytes[p + 1])
                + 0.114 * Double(image.bytes[p + 2])
        }
        var squared = 0.0
        for y in 0..<source.height {
            for x in 0..<source.width {
                let difference = luma(source, x, y) - luma(decoded, x, y)
                squared += difference * difference
            }
        }
        let mse = max(squared / Double(source.width * source.height), 1e-10)
        return 10 * log10(255 * 255 / mse)
    }

    /// Every table defined by DQT (0xDB) or DHT (0xC4) segments, keyed by its Tc/Th or Pq/Tq byte, whether the
    /// stream puts them in one segment or one per table.
    static func tables(_ marker: UInt8, in jpeg: [UInt8]) -> [UInt8: [UInt8]] {
        var tables: [UInt8: [UInt8]] = [:]
        var position = 2
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF, jpeg[position + 1] != 0xDA {
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            if jpeg[position + 1] == marker {
                var cursor = position + 4
                let end = position + 2 + length
                while cursor < end {
                    let key = jpeg[cursor]
                    var size = 64
                    if marker == 0xC4 {
                        size = 16 + jpeg[(cursor + 1)...(cursor + 16)].reduce(0) { $0 + Int($1) }
                    } else if key >> 4 == 1 {
                        size = 128
                    }
                    tables[key] = Array(jpeg[(cursor + 1)..<min(end, cursor + 1 + size)])
                    cursor += 1 + size
                }
            }
            position += 2 + length
        }
        return tables
    }

    /// The payload of the first marker segment `marker` (e.g. 0xDB for DQT) in a JPEG stream.
    static func segment(_ marker: UInt8, in jpeg: [UInt8]) -> [UInt8]? {
        var position = 2
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF {
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            if jpeg[position + 1] == marker { return Array(jpeg[(position + 4)..<(position + 2 + length)]) }
            if jpeg[position + 1] == 0xDA { return nil }
            position += 2 + length
        }
        return nil
    }
}
