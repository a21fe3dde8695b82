import Foundation
import ImagePipeline
import JPEGCodec
import PixmapFiles
import ReceptionCore

/// `ImageBench --prepare-48mp [RUNS]` (issue 21): the whole spec 7.9 preparation of a 48 MP camera JPEG
/// (8000×6000, 4:2:0, q92; one baseline and one progressive file) beside Pillow's pipeline for the same job (its
/// `draft` decode, LANCZOS to the prepared size, the quality ladder), best of RUNS fresh processes on each side,
/// alternating, with each side's peak resident size (GNU `/usr/bin/time`'s maximum resident set size).
///
/// Our side is `reception-image prepare IN OUT` (its printed `prepare_seconds`, the figure the issue's judge reads)
/// when that release binary sits beside this one; otherwise this executable's `--prepare-once IN OUT`, which does
/// the same thing. Pillow's side is a fresh `python3` timing the pipeline once after importing its plugins.
///
/// The fixtures are built once into `.build/prepare-48mp/` from the scikit-image photos tiled row by row (as issue
/// 15's photo was), saved by Pillow (libjpeg-turbo) at quality 92 with its default 4:2:0, baseline and
/// `progressive=True`: the same bytes on every machine with the same libjpeg-turbo.
enum Prepare48Benchmark {
    static let width = 8000, height = 6000

    /// Pillow's side: one preparation in a fresh process; prints `seconds`.
    static let helper = DecodeBenchmark.pillowPrepare + #"""
        import sys, time
        Image.init()
        path = sys.argv[1]
        t = time.perf_counter(); prepare(path); t = time.perf_counter() - t
        print(t)
        """#

    static func run(_ arguments: [String], bench: ImageBenchmark) throws {
        let runs = arguments.first.flatMap { Int($0) } ?? 5
        let files = try fixtures(bench)
        let python = try Reference.run("python3", ["-c", "import sys; print(sys.executable)"])
        let ours = ourCommand()
        print("Prepare48: \(width)x\(height) tiled photos, q92 4:2:0, best of \(runs) fresh processes each side;"
            + " ours: \(ours.label), Pillow \(Reference.version()) (draft + LANCZOS + ladder)")
        var worst = 0.0
        for (label, path) in [("baseline", files.baseline), ("progressive", files.progressive)] {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            var ourBest = Double.infinity, theirBest = Double.infinity
            var ourPeak = 0, theirPeak = 0
            var chosen = ""
            let output = path + ".prepared.jpg"
            for _ in 0..<max(runs, 1) {
                let mine = try spawn(ours.executable, ours.arguments + [path, output])
                guard let seconds = value(of: "prepare_seconds", in: mine.output) else {
                    throw BenchFailure("no prepare_seconds from \(ours.label): \(mine.output)")
                }
                ourBest = min(ourBest, seconds)
                ourPeak = max(ourPeak, mine.peak)
                chosen = mine.output.split(separator: "\n").first.map(String.init) ?? ""
                let theirs = try spawn(python, ["-c", helper, path])
                guard let seconds = Double(theirs.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                    throw BenchFailure("Pillow answered \(theirs.output)")
                }
                theirBest = min(theirBest, seconds)
                theirPeak = max(theirPeak, theirs.peak)
            }
            let ratio = ourBest / theirBest
            worst = max(worst, ratio)
            var line = "prepare 48 MP \(label) (\(size) B): ours \(fmt(ourBest * 1000)) ms, peak \(mib(ourPeak)) MiB"
            line += " | Pillow \(fmt(theirBest * 1000)) ms, peak \(mib(theirPeak)) MiB"
            line += " | time ×\(fmt(ratio, 3)) of Pillow's, memory ×\(fmt(Double(ourPeak) / Double(theirPeak), 3))"
            line += " | \(chosen)"
            print(line)
        }
        print("target: time ≤ ×0.6 of Pillow's and peak memory ≤ Pillow's for both files (issue 21); worst time ×\(fmt(worst, 3))")
    }

    /// `--prepare-once IN OUT`: `reception-image prepare` for a build without that binary.
    static func once(_ arguments: [String]) throws {
        guard arguments.count == 2, let data = FileManager.default.contents(atPath: arguments[0]) else {
            throw BenchFailure("usage: ImageBench --prepare-once IN OUT")
        }
        let bytes = [UInt8](data)
        let clock = ContinuousClock()
        let start = clock.now
        let outcome = try PhotoPreparer().prepareReporting(bytes)
        let elapsed = clock.now - start
        try outcome.photo.jpeg.write(to: URL(fileURLWithPath: arguments[1]))
        print("quality=\(Double(outcome.quality) / 100) edge=\(outcome.maximumEdge) width=\(outcome.photo.width)"
            + " height=\(outcome.photo.height) bytes=\(outcome.photo.jpeg.count)")
        print("prepare_seconds=\(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)")
    }

    /// `reception-image prepare` beside this executable, else this executable's `--prepare-once`.
    static func ourCommand() -> (executable: String, arguments: [String], label: String) {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let tool = me.deletingLastPathComponent().appendingPathComponent("reception-image").path
        if FileManager.default.isExecutableFile(atPath: tool) {
            return (tool, ["prepare"], "reception-image prepare (release)")
        }
        return (me.path, ["--prepare-once"], "ImageBench --prepare-once (no reception-image build beside it)")
    }

    /// The two fixtures, built when missing.
    static func fixtures(_ bench: ImageBenchmark) throws -> (baseline: String, progressive: String) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let directory = root.appendingPathComponent(".build/prepare-48mp").path
        let baseline = directory + "/photo-48mp.jpg", progressive = directory + "/photo-48mp-progressive.jpg"
        if FileManager.default.fileExists(atPath: baseline) && FileManager.default.fileExists(atPath: progressive) {
            return (baseline, progressive)
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let image = try bench.tiledImage(from: try bench.fixtures(), width: width, height: height)
        let ppm = directory + "/photo-48mp.ppm"
        try Data(PortablePixmap.encode(image)).write(to: URL(fileURLWithPath: ppm))
        defer { try? FileManager.default.removeItem(atPath: ppm) }
        _ = try Reference.run(
            "python3",
            [
                "-c",
                "import sys; from PIL import Image; im = Image.open(sys.argv[1]); im.save(sys.argv[2], quality=92); "
                    + "im.save(sys.argv[3], quality=92, progressive=True)",
                ppm, baseline + ".tmp.jpg", progressive + ".tmp.jpg",
            ])
        try FileManager.default.moveItem(atPath: baseline + ".tmp.jpg", toPath: baseline)
        try FileManager.default.moveItem(atPath: progressive + ".tmp.jpg", toPath: progressive)
        return (baseline, progressive)
    }

    /// Runs `executable` in a fresh process under `/usr/bin/time` and returns its standard output and its peak
    /// resident size in bytes; throws on a non-zero exit. (Not `wait4` on a child of this process: Linux carries
    /// the spawning process's high-water mark into the child's `ru_maxrss`, and this one holds the 48 MP image
    /// after building the fixtures. `time` is small and forks the measured command itself.)
    static func spawn(_ executable: String, _ arguments: [String]) throws -> (output: String, peak: Int) {
        let report = NSTemporaryDirectory() + "prepare48-\(getpid()).rss"
        defer { try? FileManager.default.removeItem(atPath: report) }
        let output = try Reference.run("/usr/bin/time", ["-f", "%M", "-o", report, executable] + arguments)
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        guard let kibibytes = text.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
        else { throw BenchFailure("/usr/bin/time wrote \(text)") }
        return (output, kibibytes * 1024)
    }

    /// The number after `key=` in `text`.
    static func value(of key: String, in text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(key + "=") {
            return Double(line.dropFirst(key.count + 1))
        }
        return nil
    }

    static func mib(_ bytes: Int) -> String { fmt(Double(bytes) / 1_048_576) }
    static func fmt(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
}
