import Foundation
import ImagePipeline
import JPEGCodec
import PixmapFiles
import ReceptionCore

/// `ImageBench --encode-time FILE.ppm RUNS [QUALITY] [420|444] [MODE] [OUT.jpg]`: the best of RUNS in-process
/// encodes of one PPM, ours only, so a profiler (`perf record`) sees nothing but the encoder. MODE is `standard`
/// (Annex K tables), `optimized`, `progressive`, `trellis` (optimised baseline with trellis quantisation) or
/// `progressive-trellis`.
enum EncodeTime {
    static func run(_ arguments: [String]) throws {
        guard arguments.count >= 2, let runs = Int(arguments[1]) else {
            throw BenchFailure(
                "usage: ImageBench --encode-time FILE.ppm RUNS [QUALITY] [420|444]"
                    + " [standard|optimized|progressive|trellis|progressive-trellis] [OUT.jpg]")
        }
        let image = try PortablePixmap.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: arguments[0]))))
        let quality = arguments.count > 2 ? Int(arguments[2]) ?? 80 : 80
        let chroma: JPEGEncoder.ChromaSubsampling = arguments.count > 3 && arguments[3] == "444" ? .full : .halved
        let mode = arguments.count > 4 ? arguments[4] : "standard"
        let encoder = JPEGEncoder(
            options: .init(
                quality: quality, chroma: chroma, optimizeHuffman: mode != "standard",
                progressive: mode.hasPrefix("progressive"), trellis: mode.hasSuffix("trellis")))
        let clock = ContinuousClock()
        var best = Duration.seconds(1_000)
        var output: [UInt8] = []
        for _ in 0..<max(runs, 1) {
            var sink = ByteArraySink()
            let start = clock.now
            try encoder.encode(image, into: &sink)
            best = min(best, clock.now - start)
            output = sink.bytes
        }
        let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) * 1e-18
        let megapixels = Double(image.width * image.height) / 1e6
        print(
            "encode-time: \(arguments[0]) q\(quality) \(chroma == .halved ? "420" : "444") \(mode), best of \(runs):"
                + " \(String(format: "%.2f", seconds * 1e3)) ms, \(String(format: "%.1f", megapixels / seconds)) MP/s,"
                + " \(output.count) B")
        if arguments.count > 5 { try Data(output).write(to: URL(fileURLWithPath: arguments[5])) }
    }
}
