import Foundation
import ImagePipeline
import JPEGCodec
import PixmapFiles
import ReceptionCore

/// Issue 31: the baseline encoder (q80 4:2:0, standard tables) and the full-size decoder on a varied set of real
/// photos (`scripts/varied-photos`: fine texture, foliage, a landscape, a night scene, flat colour, a portrait, a
/// screenshot of text), each beside libjpeg-turbo through Pillow in the same run, per photo and as the geometric mean, so that a
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
        let (directory, photos) = try Self.photos()
        print("VariedSet: real photos of scripts/varied-photos, libjpeg-turbo \(Reference.version()) via Pillow")
        var all: [Ratios] = []
        for photo in photos {
            all.append(try measure(name: photo.name, kind: photo.kind, directory: directory))
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

    /// The set's folder (`scripts/varied-photos` fetches it on first use) and each photo's name and kind.
    static func photos() throws -> (directory: String, photos: [(name: String, kind: String)]) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/varied-photos").path
        let directory = try Reference.run("python3", [script])
        let photos = try Reference.run("python3", [script, directory, "--list"]).split(separator: "\n")
            .map { $0.split(separator: "\t").map(String.init) }
            .filter { $0.count == 3 }
            .map { (name: $0[0], kind: $0[1]) }
        return (directory, photos)
    }

    static func geometricMean(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        return exp(values.map { log($0) }.reduce(0, +) / Double(values.count))
    }

    private func fmt(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
}

extension VariedSet {
    /// `ImageBench --varied-prepare`: spec 7.9's preparation of each varied photo's camera-like JPEG with the
    /// encoder preparation used before issue 31 (progressive, Annex K tables), with preparation's encoder now
    /// (baseline + trellis, Annex K tables) and with the other trellis candidate, beside Pillow's pipeline for the
    /// same job: the quality step the ladder chose, the bytes, and the time (best of a timed loop each). Issue 31:
    /// the new encoder must fit every photo at the step the old one fits it at, or a higher one.
    static let candidates: [(name: String, encoder: JPEGEncoder)] = [
        ("progressive (before issue 31)", JPEGEncoder(options: .init(progressive: true))),
        ("baseline+trellis/annexK (preparation's)", PhotoPreparer.defaultEncoder),
        ("progressive+trellis/annexK", JPEGEncoder(options: .init(progressive: true, trellis: true, tables: .annexK))),
    ]

    func prepare() throws {
        let (directory, photos) = try Self.photos()
        print("VariedSet preparation: spec 7.9 on each photo's q92 JPEG; Pillow \(Reference.version()) (draft + LANCZOS + ladder)")
        var lowered: [String: Int] = [:]
        for (name, _) in photos {
            let path = "\(directory)/\(name).jpg"
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            let bytes = [UInt8](data)
            let pillow = try decodeBench.pillow("prepare", path)
            var text = "\(name): Pillow \(fmt(pillow * 1000)) ms"
            var currentQuality = 0
            for (index, candidate) in Self.candidates.enumerated() {
                let preparer = PhotoPreparer(encoder: candidate.encoder)
                var outcome: PhotoPreparer.Outcome?
                let time = try decodeBench.best { outcome = try preparer.prepareReporting(bytes) }
                guard let outcome else { continue }
                if index == 0 { currentQuality = outcome.quality }
                if outcome.quality < currentQuality { lowered[candidate.name, default: 0] += 1 }
                text += " | \(candidate.name): q\(outcome.quality) \(outcome.photo.jpeg.count) B \(fmt(time * 1000)) ms"
                text += " ×\(fmt(time / pillow, 3))"
            }
            print(text)
        }
        for candidate in Self.candidates.dropFirst() {
            print("\(candidate.name): photos prepared at a lower quality step than the encoder's before issue 31:"
                  + " \(lowered[candidate.name] ?? 0) (goal 0)")
        }
    }
}
