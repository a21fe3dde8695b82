import Foundation
import ImagePipeline
import JPEGCodec
import ReceptionTesting
import Testing

/// The GIF, WebP and TIFF files of issue 51, made by independent tools (`scripts/format-fixtures`: Pillow, `cwebp`,
/// `tiffcp`) once per test process into `.bench/formats` (remade every time: it takes well under a second), each
/// beside Pillow's own RGBA decode of it.
enum FormatFixtures {
    /// The folder, or why there is none (the script's error output).
    static let made: (folder: String?, failure: String) = {
        guard let photos = Reference.fixtureDirectory else { return (nil, "scripts/image-fixtures failed") }
        let folder = Reference.packageRoot.appendingPathComponent(".bench/formats").path
        let script = Reference.packageRoot.appendingPathComponent("scripts/format-fixtures").path
        do {
            let result = try Reference.run("python3", [script, folder, photos + "/astronaut.ppm"])
            return result.status == 0 ? (folder, "") : (nil, result.stderr)
        } catch {
            return (nil, "\(error)")
        }
    }()

    static var folder: String? { made.folder }

    static let needed = ConditionTrait.enabled(
        if: folder != nil, "scripts/format-fixtures failed: `make install` adds Pillow, webp and libtiff-tools")

    static func file(_ name: String) throws -> [UInt8] {
        try DecodingReference.file("\(try #require(folder))/\(name)")
    }

    /// Whether the fixture exists (`cwebp` and `tiffcp` ones are skipped when the tool is missing).
    static func exists(_ name: String) -> Bool {
        folder.map { FileManager.default.fileExists(atPath: "\($0)/\(name)") } ?? false
    }

    /// Pillow's decode of `name`: its first frame as RGBA, rows as stored.
    static func reference(_ name: String) throws -> (width: Int, height: Int, rgba: [UInt8]) {
        let bytes = try file(name + ".ref")
        let newline = try #require(bytes.firstIndex(of: 0x0A))
        let size = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ").compactMap { Int($0) }
        try #require(size.count == 2)
        return (size[0], size[1], Array(bytes[(newline + 1)...]))
    }

    /// Mean absolute difference per sample of two equally long sample arrays.
    static func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard !a.isEmpty else { return 0 }
        return Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
    }

    /// `pixels` composited onto white, as RGB (what preparation encodes).
    static func onWhite(_ rgba: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for p in stride(from: 0, to: rgba.count, by: 4) {
            let alpha = Int(rgba[p + 3])
            for c in 0..<3 { out.append(UInt8((Int(rgba[p + c]) * alpha + 255 * (255 - alpha) + 127) / 255)) }
        }
        return out
    }

    /// A classic little-endian TIFF with the value of `tag` in its first directory replaced (SHORT or LONG).
    static func patchingTIFF(_ bytes: [UInt8], tag: Int, value: Int) throws -> [UInt8] {
        var bytes = bytes
        func read(_ at: Int, _ count: Int) -> Int { (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        try #require(bytes[0] == 0x49, "Pillow writes little-endian TIFF")
        let directory = read(4, 4)
        for entry in 0..<read(directory, 2) {
            let at = directory + 2 + entry * 12
            guard read(at, 2) == tag else { continue }
            let width = read(at + 2, 2) == 3 ? 2 : 4
            for byte in 0..<width { bytes[at + 8 + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
            return bytes
        }
        Issue.record("tag \(tag) not in the first directory")
        return bytes
    }
}
