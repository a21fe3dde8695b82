// ImageBench: our JPEG encoder against libjpeg-turbo on the same images in the same run (issue 3 targets).
//
//   swift run -c release ImageBench [--quick] [--decode-only | --encode-only]   (the plain run prints every figure
//                                   of issues 21 and 31: tiled, 12 MP, varied set, 48 MP, sizes, preparation)
//   swift run -c release ImageBench --decode-peak FILE EIGHTHS [OUT.ppm]   (one decode, for /usr/bin/time -v)
//   swift run -c release ImageBench --decode-time FILE EIGHTHS RUNS        (best of RUNS decodes)
//   swift run -c release ImageBench --size-at-ssim [--quick] [--lambda X] [--no-speed] [--tiled-only |
//                                   --held-out-only] [--qualities Q,…] [--modes NAME,…]
//                                   (bytes against cjpeg -optimize at equal luma SSIM, and trellis speed)
//   swift run -c release ImageBench --prepare-48mp [RUNS]   (48 MP preparation against Pillow's, time and peak RSS)
//   swift run -c release ImageBench --prepare-colour [RUNS]   (issue 51: a 12 MP Display P3 photo's preparation
//                                   beside the same photo untagged, in the same run)
//   swift run -c release ImageBench --varied [--quick]   (issue 31: encode and decode on scripts/varied-photos,
//                                   per photo and as the geometric mean, beside libjpeg-turbo)
//   swift run -c release ImageBench --varied-prepare   (issue 31: preparation of the varied set, current encoder
//                                   and the trellis candidates, beside Pillow's pipeline)
//   swift run -c release ImageBench --cli-encode [RUNS]   (issue 40: the release reception-image's cold encode in
//                                   fresh processes on the trimmed varied set, beside Pillow's warm loop)
//   swift run -c release ImageBench --encode-time FILE.ppm RUNS [Q] [420|444] [MODE] [OUT]
//                                   (MODE: standard|optimized|progressive|trellis|progressive-trellis)
//
// Speed is in-process megapixels per second (best of a timed loop, single thread) for both encoders; size compares
// our optimised-Huffman output with `cjpeg -optimize`; quality compares luma PSNR after decoding both with
// libjpeg-turbo. The test image tiles real photos (scikit-image's public-domain/CC0 samples) to 2048×2048, the
// largest size photo preparation encodes (spec 7.9).
import Foundation

let quick = CommandLine.arguments.contains("--quick")

func runSizeAtSSIM() throws {
    var sizeAtSSIM = SizeAtSSIM(seconds: quick ? 0.3 : 1.0, rounds: quick ? 1 : 3, arguments: CommandLine.arguments)
    try sizeAtSSIM.run()
}
do {
    if let flag = CommandLine.arguments.firstIndex(of: "--decode-peak") {
        try DecodePeak.run(Array(CommandLine.arguments[(flag + 1)...]))
        exit(0)
    }
    if let flag = CommandLine.arguments.firstIndex(of: "--decode-time") {
        try DecodePeak.time(Array(CommandLine.arguments[(flag + 1)...]))
        exit(0)
    }
    if CommandLine.arguments.contains("--size-at-ssim") {
        try runSizeAtSSIM()
        exit(0)
    }
    if let flag = CommandLine.arguments.firstIndex(of: "--encode-time") {
        try EncodeTime.run(Array(CommandLine.arguments[(flag + 1)...]))
        exit(0)
    }
    let encoderBench = ImageBenchmark(seconds: quick ? 0.3 : 1.0, rounds: quick ? 1 : 3)
    let variedSet = VariedSet(encoderBench: encoderBench, decodeBench: DecodeBenchmark(seconds: quick ? 0.3 : 1.0))
    if CommandLine.arguments.contains("--varied") {
        try variedSet.run()
        exit(0)
    }
    if CommandLine.arguments.contains("--varied-prepare") {
        try variedSet.prepare()
        exit(0)
    }
    if let flag = CommandLine.arguments.firstIndex(of: "--cli-encode") {
        try CLIEncode.run(Array(CommandLine.arguments[(flag + 1)...]), bench: encoderBench)
        exit(0)
    }
    if let flag = CommandLine.arguments.firstIndex(of: "--prepare-48mp") {
        try Prepare48Benchmark.run(Array(CommandLine.arguments[(flag + 1)...]), bench: encoderBench)
        exit(0)
    }
    if let flag = CommandLine.arguments.firstIndex(of: "--prepare-colour") {
        try PrepareColourBenchmark.run(Array(CommandLine.arguments[(flag + 1)...]), bench: encoderBench)
        exit(0)
    }
    if let flag = CommandLine.arguments.firstIndex(of: "--prepare-once") {
        try Prepare48Benchmark.once(Array(CommandLine.arguments[(flag + 1)...]))
        exit(0)
    }
    if !CommandLine.arguments.contains("--decode-only") { try encoderBench.run() }
    if !CommandLine.arguments.contains("--encode-only") {
        try DecodeBenchmark(seconds: quick ? 0.5 : 2.0).run(encoderBench)
    }
    if !CommandLine.arguments.contains("--decode-only") && !CommandLine.arguments.contains("--encode-only") {
        // Issue 31: the same encode and decode on varied real photos, beside the tiled image's figures above.
        try variedSet.run()
        // Issue 40's independent check: one cold encode per reception-image process, on trimmed photos.
        try CLIEncode.run([quick ? "3" : "7"], bench: encoderBench)
        try Prepare48Benchmark.run([quick ? "2" : "5"], bench: encoderBench)
        try PrepareColourBenchmark.run([quick ? "3" : "7"], bench: encoderBench)
        // The smaller-files goal (bytes at equal SSIM against cjpeg -optimize) and its modes' speed, so that a plain
        // `make bench` shows every figure of issue 21.
        try runSizeAtSSIM()
        // Issue 31 on the varied set: bytes at equal SSIM in the mode preparation uses (and the progressive mode it
        // replaced), then each photo's preparation beside Pillow's pipeline.
        var variedSize = SizeAtSSIM(
            seconds: quick ? 0.3 : 1.0, rounds: quick ? 1 : 3,
            arguments: ["--varied", "--modes", "progressive,baseline+trellis/annexK"])
        try variedSize.run()
        try variedSet.prepare()
    }
} catch {
    FileHandle.standardError.write(Data("ImageBench: \(error)\n".utf8))
    exit(1)
}
