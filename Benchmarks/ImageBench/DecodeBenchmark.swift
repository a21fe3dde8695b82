import Foundation
import ImagePipeline
import JPEGCodec
import PixmapFiles
import ReceptionCore

/// Issue 4's figures in one run: PNG and JPEG decode beside Pillow (zlib/libpng-class PNG, libjpeg-turbo JPEG),
/// reduced JPEG decode beside Pillow's `draft`, and the whole spec 7.9 preparation of a 12 MP photo beside the same
/// pipeline in Pillow (reduced decode, Lanczos resize, quality ladder). Best of a timed loop on each side.
struct DecodeBenchmark {
    let seconds: Double

    /// Pillow's spec 7.9 pipeline as a Python function `prepare(path)`: `draft` at the round's size, LANCZOS to it,
    /// the quality ladder until the JPEG fits 1 MiB (shared with `Prepare48Benchmark`).
    static let pillowPrepare = #"""
        import io
        from PIL import Image
        def prepare(path):
            im = Image.open(path); w, h = im.size
            edge = 2048.0
            for _ in range(5):
                limit = int(edge); f = min(1.0, limit / max(w, h))
                size = (max(1, round(w * f)), max(1, round(h * f)))
                src = Image.open(path); src.draft("RGB", size); src = src.convert("RGB")
                out = src.resize(size, Image.LANCZOS)
                for q in (85, 75, 65, 55, 45, 35, 25):
                    buf = io.BytesIO(); out.save(buf, "JPEG", quality=q)
                    if buf.tell() <= 1048576: return out
                edge *= 0.75

        """#

    static let helper = pillowPrepare + #"""
        import sys, time
        cmd, path, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
        def decode():
            im = Image.open(path); im.load(); return im
        def draft():
            im = Image.open(path); im.draft("RGB", (im.width // 2, im.height // 2)); im.load(); return im
        body = {"decode": decode, "draft": draft, "prepare": lambda: prepare(path)}[cmd]
        best = None; runs = 0; start = time.perf_counter()
        while runs < 3 or time.perf_counter() - start < seconds:
            t = time.perf_counter(); body(); t = time.perf_counter() - t
            best = t if best is None else min(best, t); runs += 1
        print(best)
        """#

    func pillow(_ command: String, _ path: String) throws -> Double {
        let text = try Reference.run("python3", ["-c", Self.helper, command, path, "\(seconds)"])
        guard let value = Double(text) else { throw BenchFailure("pillow \(command) answered \(text)") }
        return value
    }

    func best(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        var best = Double.infinity
        let start = clock.now
        var runs = 0
        while runs < 3 || (clock.now - start) < .milliseconds(Int(seconds * 1000)) {
            let before = clock.now
            try body()
            let elapsed = clock.now - before
            best = min(best, Double(elapsed.components.attoseconds) * 1e-18 + Double(elapsed.components.seconds))
            runs += 1
        }
        return best
    }

    func run(_ encoderBench: ImageBenchmark) throws {
        let directory = try encoderBench.fixtures()
        let image = try encoderBench.tiledImage(from: directory, width: 4032, height: 3024)
        let ppm = directory + "/bench-12mp.ppm", jpeg = directory + "/bench-12mp.jpg", png = directory + "/bench-12mp.png"
        let progressive = directory + "/bench-12mp-progressive.jpg"
        try Data(PortablePixmap.encode(image)).write(to: URL(fileURLWithPath: ppm))
        _ = try Reference.run(
            "python3",
            [
                "-c",
                "from PIL import Image; im = Image.open('\(ppm)'); im.save('\(jpeg)', quality=92); im.save('\(png)'); "
                    + "im.save('\(progressive)', quality=92, progressive=True)",
            ])
        let megapixels = Double(image.width * image.height) / 1e6
        print("DecodeBench: \(image.width)x\(image.height) tiled photos (JPEG q92 4:2:0, PNG), Pillow \(Reference.version())")
        let jpegBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: jpeg)))
        let pngBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: png)))

        func line(_ label: String, _ ours: Double, _ theirs: Double, megapixels: Double?) {
            var text = "\(label): ours \(fmt(ours * 1000)) ms | Pillow \(fmt(theirs * 1000)) ms"
            if let megapixels {
                text += " | ours \(fmt(megapixels / ours)) MP/s, Pillow \(fmt(megapixels / theirs)) MP/s"
            }
            text += " | speed ×\(fmt(theirs / ours, 3))"
            print(text)
        }
        let pngOurs = try best { _ = try PNGDecoder.decode(pngBytes) }
        line("PNG decode 12 MP RGB", pngOurs, try pillow("decode", png), megapixels: megapixels)
        let jpegOurs = try best { _ = try JPEGDecoder.decode(jpegBytes) }
        line("JPEG decode 12 MP full", jpegOurs, try pillow("decode", jpeg), megapixels: megapixels)
        let halfOurs = try best { _ = try JPEGDecoder.decode(jpegBytes, eighths: 4) }
        line("JPEG decode 12 MP at 1/2 (Pillow draft)", halfOurs, try pillow("draft", jpeg), megapixels: megapixels)
        // Issue 21: the same photo as a progressive file (Pillow's progressive=True, the libjpeg-turbo scan script).
        let progressiveBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: progressive)))
        let progressiveOurs = try best { _ = try JPEGDecoder.decode(progressiveBytes) }
        line("JPEG decode 12 MP progressive full", progressiveOurs, try pillow("decode", progressive), megapixels: megapixels)
        let progressiveHalf = try best { _ = try JPEGDecoder.decode(progressiveBytes, eighths: 4) }
        line(
            "JPEG decode 12 MP progressive at 1/2 (Pillow draft)", progressiveHalf, try pillow("draft", progressive),
            megapixels: megapixels)
        let prepareOurs = try best { _ = try PhotoPreparer().prepareReporting(jpegBytes) }
        line("prepare 12 MP JPEG → upload JPEG", prepareOurs, try pillow("prepare", jpeg), megapixels: nil)
        print("targets: PNG decode ≥ ×1.0 of Pillow; preparation time ≤ Pillow's (×1.0 or more here); JPEG decode ≥ ×0.8 (issue 21)")
    }

    private func fmt(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
}
