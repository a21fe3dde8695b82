import Foundation
import ImagePipeline
import ReceptionCore

/// Issue 31: the baseline encoder (q80 4:2:0, standard tables) and the full-size decoder on a varied set of real
/// photos (`scripts/varied-photos`: fine texture, foliage, a landscape, a night scene, flat colour, a screenshot of
/// text), each beside libjpeg-turbo through Pillow in the same run, per photo and as the geometric mean, so that a
/// gain on one kind of photo that costs another shows. The tiled image of the plain run stays beside it.
struct VariedSet {
    let encoderBench: ImageBenchmark
    let decodeBench: DecodeBenchmark

    /// One photo's figures: our speed over libjpeg-turbo's, encoding and decoding.
    struct Ratios {
        let encode: Double
        let decode: Double
    }

    func run() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/varied-photos").path
        let directory = try Reference.run("python3", [script])
        let listing = try Reference.run("python3", [script, directory, "--list"])
        print("VariedSet: real photos of scripts/varied-photos, libjpeg-turbo \(Reference.version()) via Pillow")
        var all: [Ratios] = []
        for line in listing.split(separator: "\n") {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 3 else { continue }
            all.append(try measure(name: fields[0], kind: fields[1], directory: directory))
        }
        guard !all.isEmpty else { throw BenchFailure("no varied photos in \(directory)") }
        let encodeMean = Self.geometricMean(all.map(\.encode))
        let decodeMean = Self.geometricMean(all.map(\.decode))
        print(
            "varied set, geometric mean over \(all.count) photos: encode q80 420 ×\(fmt(encodeMean, 3)) (goal ≥ ×0.95),"
                + " decode full ×\(fmt(decodeMean, 3)) (goal ≥ ×0.9); worst encode ×\(fmt(all.map(\.encode).min() ?? 0, 3)),"
                + " worst decode ×\(fmt(all.map(\.decode).min() ?? 0, 3))")
    }

    /// Encodes the photo's pixels and decodes its camera-like JPEG (Pillow q92 4:2:0) on both sides, alternating
    /// rounds and keeping each side's best.
    private func measure(name: String, kind: String, directory: String) throws -> Ratios {
        let ppm = "\(directory)/\(name).ppm", jpeg = "\(directory)/\(name).jpg"
        guard let pixels = FileManager.default.contents(atPath: ppm),
              let jpegData = FileManager.default.contents(atPath: jpeg) else { throw BenchFailure("missing \(name)") }
        let image = try PortablePixmap.decode([UInt8](pixels))
        let jpegBytes = [UInt8](jpegData)
        let megapixels = Double(image.width * image.height) / 1e6
        let encoder = JPEGEncoder(options: .init(quality: 80, chroma: .halved, optimizeHuffman: false))
        var ourEncode = Double.infinity
        var theirEncode = 0.0
        var ourDecode = Double.infinity
        var theirDecode = Double.infinity
        for _ in 0..<encoderBench.rounds {
            ourEncode = min(ourEncode, try encoderBench.time(encoder, image).0)
            let theirs = try Reference.pillow(
                source: ppm, quality: 80, chroma: "420", optimize: false, output: ppm + ".pillow.jpg",
                seconds: encoderBench.seconds)
            theirEncode = max(theirEncode, theirs.megapixelsPerSecond)
            ourDecode = min(ourDecode, try decodeBench.best { _ = try JPEGDecoder.decode(jpegBytes) })
            theirDecode = min(theirDecode, try decodeBench.pillow("decode", jpeg))
        }
        let ratios = Ratios(encode: megapixels / ourEncode / theirEncode, decode: theirDecode / ourDecode)
        var text = "\(name) (\(kind), \(image.width)x\(image.height)): encode ours \(fmt(megapixels / ourEncode)) MP/s"
        text += " | libjpeg-turbo \(fmt(theirEncode)) MP/s | ×\(fmt(ratios.encode, 3))"
        text += " || decode ours \(fmt(ourDecode * 1000)) ms | Pillow \(fmt(theirDecode * 1000)) ms"
        text += " | ×\(fmt(ratios.decode, 3))"
        print(text)
        return ratios
    }

    static func geometricMean(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        return exp(values.map { log($0) }.reduce(0, +) / Double(values.count))
    }

    private func fmt(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
}
