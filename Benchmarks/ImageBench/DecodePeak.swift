import Foundation
import ImagePipeline
import JPEGCodec
import PixmapFiles
import ReceptionCore

/// `ImageBench --decode-peak FILE EIGHTHS [OUT.ppm]`: one JPEG decode at `EIGHTHS`/8 in a fresh process, for
/// `/usr/bin/time -v` to measure the process's peak memory (issue 15). Prints the decoder's own count of its large
/// buffers at their peak, the process's peak resident size, and the output size; writes the pixels as PPM when
/// asked (to compare with `djpeg -scale`). `--decode-time FILE EIGHTHS RUNS` prints the best of RUNS decodes.
enum DecodePeak {
    static func run(_ arguments: [String]) throws {
        guard arguments.count >= 2, let eighths = Int(arguments[1]) else {
            throw BenchFailure("usage: ImageBench --decode-peak FILE EIGHTHS [OUT.ppm]")
        }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: arguments[0])))
        let before = residentPeak()
        let (image, peak) = try JPEGDecoder.decodeReportingMemory(bytes, eighths: eighths)
        let pixels = image.pixels
        print("decode-peak: \(pixels.width)x\(pixels.height) at \(eighths)/8, file \(bytes.count) B")
        print("decoder buffers at peak: \(peak) B (\(mebibytes(peak)) MiB)")
        print("process peak RSS: before decode \(mebibytes(before)) MiB, after \(mebibytes(residentPeak())) MiB")
        if arguments.count >= 3 {
            try Data(PortablePixmap.encode(pixels)).write(to: URL(fileURLWithPath: arguments[2]))
        }
    }

    static func time(_ arguments: [String]) throws {
        guard arguments.count >= 3, let eighths = Int(arguments[1]), let runs = Int(arguments[2]) else {
            throw BenchFailure("usage: ImageBench --decode-time FILE EIGHTHS RUNS")
        }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: arguments[0])))
        let clock = ContinuousClock()
        var best = Duration.seconds(1_000)
        for _ in 0..<max(runs, 1) {
            let start = clock.now
            _ = try JPEGDecoder.decode(bytes, eighths: eighths)
            best = min(best, clock.now - start)
        }
        let milliseconds = Double(best.components.seconds) * 1e3 + Double(best.components.attoseconds) * 1e-15
        print("decode-time: \(arguments[0]) at \(eighths)/8, best of \(runs): \(String(format: "%.1f", milliseconds)) ms")
    }

    /// `ru_maxrss` in bytes (Linux reports kibibytes).
    static func residentPeak() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    static func mebibytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
}
