import Foundation
import ImagePipeline
import JPEGCodec
import PixmapFiles
import ReceptionCore
import ReceptionTesting

/// libjpeg-turbo, measured in the same run: Pillow (which links libjpeg-turbo) timing its own in-process encode loop,
/// `cjpeg -optimize` for the size target, and `djpeg` to decode any JPEG for the luma PSNR.
enum Reference {
    /// The Python side of the comparison. `pillow SRC Q SUB OPT SECONDS OUT` prints `mps bytes`; `version` prints
    /// the libjpeg-turbo version Pillow links.
    static let helper = #"""
        import io, sys, time
        from PIL import Image, features

        cmd = sys.argv[1]
        if cmd == "version":
            print(features.version("libjpeg_turbo"))
        elif cmd == "pillow":
            src, q, sub, opt, seconds, out = sys.argv[2:8]
            im = Image.open(src); im.load()
            kw = dict(quality=int(q), subsampling=0 if sub == "444" else 2, optimize=opt == "1")
            best = None; runs = 0; start = time.perf_counter()
            while runs < 3 or time.perf_counter() - start < float(seconds):
                buf = io.BytesIO(); t = time.perf_counter(); im.save(buf, "JPEG", **kw); t = time.perf_counter() - t
                best = t if best is None else min(best, t); runs += 1
            open(out, "wb").write(buf.getvalue())
            print(im.width * im.height / best / 1e6, len(buf.getvalue()))
        """#

    /// Runs `executable` with `arguments` and returns its standard output; throws on a non-zero exit.
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        String(decoding: try output(executable, arguments), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `executable` and returns its standard output bytes; throws on a non-zero exit.
    static func output(_ executable: String, _ arguments: [String]) throws -> [UInt8] {
        // ReceptionTesting's posix_spawn child, not Foundation.Process (whose waitUntilExit can wait for ever on
        // Linux; Docs/ReceptionTesting.md).
        let result = try ChildProcess.run([executable] + arguments)
        guard result.status == 0 else { throw BenchFailure("\(executable) \(arguments) failed") }
        return [UInt8](result.output)
    }

    static func python(_ arguments: [String]) throws -> [Double] {
        try run("python3", ["-c", helper] + arguments).split(separator: " ").compactMap { Double($0) }
    }

    static func version() -> String {
        (try? run("python3", ["-c", helper, "version"])) ?? "unknown"
    }

    /// libjpeg-turbo's in-process throughput (best of a timed loop) and output size.
    static func pillow(
        source: String, quality: Int, chroma: String, optimize: Bool, output: String, seconds: Double
    ) throws
        -> (megapixelsPerSecond: Double, bytes: Int)
    {
        let values = try python(["pillow", source, "\(quality)", chroma, optimize ? "1" : "0", "\(seconds)", output])
        guard values.count == 2 else { throw BenchFailure("pillow helper answered \(values)") }
        return (values[0], Int(values[1]))
    }

    /// Luma PSNR of `jpeg` (decoded by `djpeg`) against `source`.
    static func psnr(source: Bitmap, jpeg: String) throws -> Double {
        let decoded = try PortablePixmap.decode(output("djpeg", ["-ppm", jpeg]))
        guard decoded.width == source.width, decoded.height == source.height else { throw BenchFailure("djpeg size") }
        var squared = 0.0
        for index in 0..<(source.width * source.height) {
            let p = index * 3
            let a = 0.299 * Double(source.bytes[p]) + 0.587 * Double(source.bytes[p + 1])
                + 0.114 * Double(source.bytes[p + 2])
            let b = 0.299 * Double(decoded.bytes[p]) + 0.587 * Double(decoded.bytes[p + 1])
                + 0.114 * Double(decoded.bytes[p + 2])
            squared += (a - b) * (a - b)
        }
        return 10 * log10(255 * 255 / max(squared / Double(source.width * source.height), 1e-10))
    }

    /// Size of `cjpeg -optimize` output (libjpeg-turbo's own optimised-Huffman encoder).
    static func cjpegOptimizedBytes(source: String, quality: Int, chroma: String) throws -> Int {
        let output = source + ".cjpeg.jpg"
        _ = try run(
            "cjpeg", ["-quality", "\(quality)", "-sample", chroma == "444" ? "1x1" : "2x2", "-optimize",
                      "-outfile", output, source])
        let attributes = try FileManager.default.attributesOfItem(atPath: output)
        return (attributes[.size] as? Int) ?? 0
    }
}

extension Reference {
    /// Size of `cjpeg -progressive` output at 4:2:0 (libjpeg-turbo's progressive script, optimised tables).
    static func cjpegProgressiveBytes(source: String, quality: Int) throws -> Int {
        let output = source + ".cjpeg-progressive.jpg"
        _ = try run(
            "cjpeg", ["-quality", "\(quality)", "-sample", "2x2", "-progressive", "-outfile", output, source])
        let attributes = try FileManager.default.attributesOfItem(atPath: output)
        return (attributes[.size] as? Int) ?? 0
    }

    /// Whether `djpeg` decodes `jpeg` without a warning.
    static func decodesCleanly(_ jpeg: String) throws -> Bool {
        // djpeg reports damage on stderr and still exits 0 for most of it; `run` throws on a non-zero exit.
        try run("sh", ["-c", "djpeg -ppm -outfile /dev/null \"$1\" 2>&1", "sh", jpeg]).isEmpty
    }
}

/// A benchmark step that could not run.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
