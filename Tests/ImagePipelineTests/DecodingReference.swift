import Foundation
import ImagePipeline
import JPEGCodec
import ReceptionCore
import Testing

/// The independent side of the decoder tests: Pillow's decode of the same files (PngSuite and the Go image test
/// files, from Debian's golang-1.19-src or any other Go source tree), and libjpeg-turbo's `djpeg`.
enum DecodingReference {
    /// Go's `src/image` folder: the one of `go env GOROOT` when a Go toolchain is on the PATH, otherwise the newest
    /// Debian `golang-*-src` (`/usr/share/go-*/src/image`); `nil` when neither has PngSuite.
    static let goImagesFolder: String? = {
        var candidates: [String] = []
        if let go = try? Reference.run("go", ["env", "GOROOT"]), go.status == 0 {
            let root = String(decoding: go.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !root.isEmpty { candidates.append(root + "/src/image") }
        }
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/share")) ?? [])
            .filter { $0.hasPrefix("go-") }
            .sorted { $0.compare($1, options: .numeric) == .orderedDescending }
        candidates += versions.map { "/usr/share/\($0)/src/image" }
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/png/testdata/pngsuite/basn0g08.png") }
    }()

    /// Skips a test that reads Go's image test files when no Go source tree is installed, and says why.
    static let needsGoImages = ConditionTrait.enabled(
        if: goImagesFolder != nil,
        "Go's image test files were not found (no `go env GOROOT`, no /usr/share/go-*/src/image): `make install` adds golang-1.19-src")

    /// Go's `src/image` folder; only read by tests marked `needsGoImages`.
    static var goImages: String { goImagesFolder ?? "/nonexistent/go/src/image" }
    static var pngSuite: String { goImages + "/png/testdata/pngsuite" }

    /// Pillow's pixels for each file as RGBA (16-bit grey scaled by `v / 257` rounded, as we do).
    static let helper = #"""
        import sys
        from PIL import Image
        out = sys.argv[1]
        for i, path in enumerate(sys.argv[2:]):
            im = Image.open(path)
            if im.mode in ("I;16", "I;16B", "I"):
                trns = im.info.get("transparency")
                values = list(im.getdata())
                data = bytearray()
                for v in values:
                    g = (v * 255 + 32895) >> 16
                    data += bytes((g, g, g, 0 if v == trns else 255))
            elif im.mode == "L" and "transparency" in im.info:
                # Pillow compares a sub-8-bit tRNS grey with the already widened samples; the PNG spec compares
                # it at the file's bit depth, so widen the key the same way first.
                depth = open(path, "rb").read()[24]
                key = im.info["transparency"] * (255 // ((1 << depth) - 1))
                data = bytearray()
                for g in im.tobytes():
                    data += bytes((g, g, g, 0 if g == key else 255))
            else:
                data = im.convert("RGBA").tobytes()
            with open(f"{out}/{i}.rgba", "wb") as f:
                f.write(f"{im.width} {im.height}\n".encode() + data)
        """#

    /// Pillow's RGBA decode of every file, in order, as (width, height, bytes).
    static func pillowRGBA(_ paths: [String]) throws -> [(Int, Int, [UInt8])] {
        let directory = Reference.temporaryPath(UUID().uuidString)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try Reference.run("python3", ["-c", helper, directory] + paths)
        #expect(result.status == 0, "Pillow failed: \(result.stderr)")
        return try paths.indices.map { index in
            let data = try #require(FileManager.default.contents(atPath: "\(directory)/\(index).rgba"))
            let bytes = [UInt8](data)
            let newline = try #require(bytes.firstIndex(of: 0x0A))
            let size = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ").compactMap { Int($0) }
            return (size[0], size[1], Array(bytes[(newline + 1)...]))
        }
    }

    /// Any decoded buffer widened to tightly packed RGBA.
    static func rgba(_ image: Bitmap) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(image.width * image.height * 4)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = y * image.bytesPerRow + x * image.format.bytesPerPixel
                switch image.format {
                case .gray8: out += [image.bytes[p], image.bytes[p], image.bytes[p], 255]
                case .rgb8: out += [image.bytes[p], image.bytes[p + 1], image.bytes[p + 2], 255]
                case .rgba8: out += image.bytes[p..<(p + 4)]
                }
            }
        }
        return out
    }

    /// Any decoded buffer as tightly packed RGB.
    static func rgb(_ image: Bitmap) -> [UInt8] {
        var out = [UInt8]()
        for (index, byte) in rgba(image).enumerated() where index % 4 != 3 { out.append(byte) }
        return out
    }

    static func file(_ path: String) throws -> [UInt8] {
        [UInt8](try #require(FileManager.default.contents(atPath: path), "missing \(path)"))
    }

    /// Largest absolute difference between two byte arrays of equal length.
    static func maximumDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }
}
