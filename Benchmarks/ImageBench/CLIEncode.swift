import Foundation
import JPEGCodec
import PixmapFiles

/// `ImageBench --cli-encode [RUNS]`: issue 40's independent x86-64 check, reproduced on the varied set. Each photo,
/// trimmed a few pixels on every side (`SizeAtSSIM.trimmed`, so no size is a multiple of 16), is encoded by the
/// release `reception-image encode --quality 80 --subsampling 420 --no-optimize` in RUNS fresh processes (the
/// median of the `encode_seconds` each prints: one cold encode per process, as a host app's photo is), against
/// Pillow's libjpeg-turbo encoding the same file in its own warm loop (best time, same quality and subsampling, no
/// optimised tables). Prints each photo's ratio (their time / ours: above 1 is faster than libjpeg-turbo) and the
/// geometric mean beside the goal of ×0.95.
enum CLIEncode {
    static func run(_ arguments: [String], bench: ImageBenchmark) throws {
        let runs = max(arguments.first.flatMap(Int.init) ?? 7, 1)
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("reception-image").path
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw BenchFailure("no \(tool): swift build -c release --product reception-image first")
        }
        let scratch = try bench.fixtures()
        let (varied, photos) = try VariedSet.photos()
        print("cold CLI encode (issue 40's check): reception-image encode --quality 80 --subsampling 420 --no-optimize,"
              + " median of \(runs) fresh processes, against Pillow (libjpeg-turbo \(Reference.version())) best of a"
              + " warm loop; each photo trimmed so no side is a multiple of 16")
        var ratios: [Double] = []
        for (index, photo) in photos.enumerated() {
            guard let data = FileManager.default.contents(atPath: "\(varied)/\(photo.name).ppm") else { continue }
            let image = SizeAtSSIM.trimmed(try PortablePixmap.decode([UInt8](data)), index: index)
            let source = "\(scratch)/\(photo.name).cli.ppm", output = "\(scratch)/\(photo.name).cli.jpg"
            try Data(PortablePixmap.encode(image)).write(to: URL(fileURLWithPath: source))
            var ours: [Double] = []
            for _ in 0..<runs {
                let printed = try Reference.run(
                    tool, ["encode", "--quality", "80", "--subsampling", "420", "--no-optimize", source, output])
                guard let field = printed.split(separator: "\n").first(where: { $0.hasPrefix("encode_seconds=") }),
                    let seconds = Double(field.dropFirst("encode_seconds=".count))
                else { throw BenchFailure("reception-image printed \(printed)") }
                ours.append(seconds)
            }
            ours.sort()
            let median = ours[ours.count / 2]
            let theirs = try Reference.pillow(
                source: source, quality: 80, chroma: "420", optimize: false, output: output + ".pillow", seconds: 1)
            let theirSeconds = Double(image.width * image.height) / 1e6 / theirs.megapixelsPerSecond
            let ratio = theirSeconds / median
            ratios.append(ratio)
            for file in [source, output, output + ".pillow"] { try? FileManager.default.removeItem(atPath: file) }
            print("  \(photo.name) \(image.width)x\(image.height): ours \(String(format: "%.2f", median * 1e3)) ms"
                  + " (cold, median) | libjpeg-turbo \(String(format: "%.2f", theirSeconds * 1e3)) ms (warm, best)"
                  + " | ×\(String(format: "%.3f", ratio))")
        }
        guard !ratios.isEmpty else { throw BenchFailure("no varied photos") }
        let (lowest, highest) = (ratios.min() ?? 0, ratios.max() ?? 0)
        print("  geometric mean ×\(String(format: "%.3f", VariedSet.geometricMean(ratios)))"
              + " (per photo ×\(String(format: "%.3f", lowest))–×\(String(format: "%.3f", highest))); goal ×0.95 or better")
    }
}
