import Foundation
import ImagePipeline
import JPEGCodec
import PixmapFiles
import ReceptionCore

/// `ImageBench --prepare-colour [RUNS]` (issue 51): what colour management costs a 12 MP photo's preparation. The
/// same 4,032×3,024 camera-like JPEG (tiled photos, q92 4:2:0, saved by Pillow) twice — untagged, and with a
/// Display P3 profile in APP2 (scripts/icc-test-profiles) — each prepared in process, alternating, best of RUNS
/// (default 7) per file; prints both times and the tagged one as a share of the untagged one (goal: at most +10%).
enum PrepareColourBenchmark {
    static let width = 4032, height = 3024

    static func run(_ arguments: [String], bench: ImageBenchmark) throws {
        let runs = max(arguments.first.flatMap { Int($0) } ?? 7, 1)
        let files = try fixtures(bench)
        let untagged = [UInt8](try Data(contentsOf: URL(fileURLWithPath: files.untagged)))
        let tagged = [UInt8](try Data(contentsOf: URL(fileURLWithPath: files.tagged)))
        let preparer = PhotoPreparer()
        let clock = ContinuousClock()
        func timed(_ bytes: [UInt8]) throws -> (Double, PhotoPreparer.Outcome) {
            let start = clock.now
            let outcome = try preparer.prepareReporting(bytes)
            return (Self.seconds(clock.now - start), outcome)
        }
        var plainBest = Double.infinity, taggedBest = Double.infinity
        var outcomes: [PhotoPreparer.Outcome] = []
        for _ in 0..<runs {
            let (plain, plainOutcome) = try timed(untagged)
            let (converted, taggedOutcome) = try timed(tagged)
            plainBest = min(plainBest, plain)
            taggedBest = min(taggedBest, converted)
            outcomes = [plainOutcome, taggedOutcome]
        }
        // The conversion alone, on the size preparation converts (the untagged photo's first round), tables included.
        let profile = try Data(contentsOf: URL(fileURLWithPath: files.profile))
        let resized = try preparer.preparedPixels(untagged)
        var conversionBest = Double.infinity, tablesBest = Double.infinity
        for _ in 0..<runs {
            var pixels = resized
            pixels.bytes[0] ^= 1  // a private copy, made before the clock starts
            let start = clock.now
            let conversion = SRGBConversion(profile: [UInt8](profile), format: pixels.format)
            let built = clock.now
            conversion.apply(to: &pixels)
            let elapsed = clock.now - start
            tablesBest = min(tablesBest, Self.seconds(built - start))
            conversionBest = min(conversionBest, Self.seconds(elapsed))
        }
        print("PrepareColour: \(width)x\(height) camera-like JPEG (q92 4:2:0), in process, best of \(runs) alternating")
        print("conversion alone on \(resized.width)x\(resized.height): \(fmt(conversionBest * 1000, 2)) ms, of which "
            + "building the tables \(fmt(tablesBest * 1000, 2)) ms")
        print("prepare 12 MP untagged: \(fmt(plainBest * 1000)) ms (\(outcomes[0].photo.jpeg.count) B)"
            + " | Display P3 tagged, converted to sRGB: \(fmt(taggedBest * 1000)) ms"
            + " (\(outcomes[1].photo.jpeg.count) B)"
            + " | ×\(fmt(taggedBest / plainBest, 3)) (goal ≤ ×1.10)")
    }

    /// The two fixtures in `.build/prepare-colour/`, built when missing.
    static func fixtures(_ bench: ImageBenchmark) throws -> (untagged: String, tagged: String, profile: String) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let directory = root.appendingPathComponent(".build/prepare-colour").path
        let untagged = directory + "/photo-12mp.jpg", tagged = directory + "/photo-12mp-p3.jpg"
        let profile = directory + "/display-p3.icc"
        let script = root.appendingPathComponent("scripts/icc-test-profiles").path
        if !FileManager.default.fileExists(atPath: profile) {
            _ = try Reference.run("python3", [script, "write", "display-p3", profile])
        }
        if FileManager.default.fileExists(atPath: untagged) && FileManager.default.fileExists(atPath: tagged) {
            return (untagged, tagged, profile)
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let image = try bench.tiledImage(from: try bench.fixtures(), width: width, height: height)
        let ppm = directory + "/photo-12mp.ppm"
        try Data(PortablePixmap.encode(image)).write(to: URL(fileURLWithPath: ppm))
        defer { try? FileManager.default.removeItem(atPath: ppm) }
        for (profile, path) in [("none", untagged), ("display-p3", tagged)] {
            _ = try Reference.run("python3", [script, "tag", profile, ppm, path, "92"])
        }
        return (untagged, tagged, profile)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    static func fmt(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
}
