import Foundation
import ImagePipeline
import JPEGCodec
import PixmapFiles
import ReceptionCore
import ReceptionTesting
import Testing

/// Issue 51's colour management: photos the tests tag themselves (scripts/icc-test-profiles writes the profiles
/// from the published primaries and embeds them with Pillow) are prepared, and littleCMS (Pillow's `ImageCms`,
/// relative colorimetric) converting the same decoded pixels is the judge, by mean CIEDE2000.
@Suite struct ColourManagementTests {
    static let script = Reference.packageRoot.appendingPathComponent("scripts/icc-test-profiles").path

    /// A fixture photo (512 px, so preparation does not resize it) with `profile` embedded (`none`: untagged; a
    /// name of scripts/icc-test-profiles or a profile file's path),
    /// as a JPEG (q92, as a camera writes it) or PNG; returns the file's path and bytes.
    static func tagged(_ profile: String, _ format: String, photo: String = "astronaut") throws
        -> (path: String, bytes: [UInt8])
    {
        let directory = try #require(Reference.fixtureDirectory)
        let label = profile.split(separator: "/").last.map(String.init) ?? profile  // a name, or a profile's path
        let path = Reference.temporaryPath("\(photo)-\(label)-\(UUID().uuidString).\(format)")
        let result = try Reference.run("python3", [script, "tag", profile, "\(directory)/\(photo).ppm", path])
        try #require(result.status == 0, "tagging failed: \(result.stderr)")
        return (path, try DecodingReference.file(path))
    }

    /// The profile's bytes as scripts/icc-test-profiles writes them.
    static func profile(_ name: String) throws -> [UInt8] {
        let path = Reference.temporaryPath("\(name)-\(UUID().uuidString).icc")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Reference.run("python3", [script, "write", name, path])
        try #require(result.status == 0, "writing the profile failed: \(result.stderr)")
        return try DecodingReference.file(path)
    }

    /// Mean CIEDE2000 between littleCMS's conversion of `file` (decoded by Pillow) and `ours` (a PPM or JPEG).
    static func judge(_ profile: String, file: String, ours: [UInt8], ext: String) throws -> Double {
        let path = Reference.temporaryPath(UUID().uuidString + "." + ext)
        try Data(ours).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Reference.run("python3", [script, "judge", profile, file, path])
        try #require(result.status == 0, "the judge failed: \(result.stderr)")
        let text = String(decoding: result.stdout, as: UTF8.self)
        let field = try #require(text.split(separator: " ").first { $0.hasPrefix("mean_ciede2000=") })
        let name = file.split(separator: "/").last ?? ""
        print("colour: \(profile) \(name) \(ext): \(text.trimmingCharacters(in: .whitespacesAndNewlines))")
        return try #require(Double(field.dropFirst("mean_ciede2000=".count)))
    }

    static let cases: [(String, String)] = [
        ("display-p3", "jpg"), ("adobe-rgb", "jpg"), ("prophoto", "jpg"),
        ("display-p3", "png"), ("adobe-rgb", "png"), ("prophoto", "png"),
        ("display-p3-table", "jpg"), ("rec2020", "jpg"),
    ]

    @Test("a tagged photo's prepared pixels are within 0.5 mean CIEDE2000 of littleCMS's conversion", arguments: cases)
    func matchesLittleCMS(profile: String, format: String) throws {
        let tagged = try Self.tagged(profile, format)
        defer { try? FileManager.default.removeItem(atPath: tagged.path) }
        // Before JPEG's own loss: the conversion itself (PNG: the very pixels littleCMS converts; JPEG: our decode
        // against libjpeg-turbo's, which the untagged control below prices).
        let pixels = try PhotoPreparer().preparedPixels(tagged.bytes)
        let converted = try Self.judge(profile, file: tagged.path, ours: PortablePixmap.encode(pixels), ext: "ppm")
        #expect(converted <= 0.5)
        let untagged = try Self.tagged("none", format)
        defer { try? FileManager.default.removeItem(atPath: untagged.path) }
        let controlPixels = try PhotoPreparer().preparedPixels(untagged.bytes)
        let control = try Self.judge(
            "none", file: untagged.path, ours: PortablePixmap.encode(controlPixels), ext: "ppm")
        #expect(converted <= control + 0.5)
        // End to end, the uploaded JPEG: the conversion may add at most 0.5 to what re-encoding alone costs.
        let prepared = try PhotoPreparer().prepare(Data(tagged.bytes))
        let endToEnd = try Self.judge(profile, file: tagged.path, ours: [UInt8](prepared.jpeg), ext: "jpg")
        let controlPrepared = try PhotoPreparer().prepare(Data(untagged.bytes))
        let reencoding = try Self.judge("none", file: untagged.path, ours: [UInt8](controlPrepared.jpeg), ext: "jpg")
        #expect(endToEnd <= reencoding + 0.5)
    }

    @Test(
        "an sRGB-tagged photo (littleCMS's v4 sRGB) prepares to exactly the bytes of the untagged one",
        arguments: ["jpg", "png"])
    func sRGBIsSkipped(format: String) throws {
        let tagged = try Self.tagged("srgb-v4", format), untagged = try Self.tagged("none", format)
        defer {
            try? FileManager.default.removeItem(atPath: tagged.path)
            try? FileManager.default.removeItem(atPath: untagged.path)
        }
        #expect(tagged.bytes != untagged.bytes)
        let profile = try #require(ICCProfile(try Self.profile("srgb-v4")))
        #expect(!SRGBConversion(profile, format: .rgb8).converts)
        #expect(try PhotoPreparer().prepare(Data(tagged.bytes)) == PhotoPreparer().prepare(Data(untagged.bytes)))
    }

    /// Real profiles from Debian's icc-profiles-free (`make install`).
    static let debianProfiles = "/usr/share/color/icc"

    @Test("real profiles: Debian's sRGB.icc is skipped as sRGB, its Adobe RGB (1998) clone converts like littleCMS")
    func debianProfiles() throws {
        let srgb = try DecodingReference.file("\(Self.debianProfiles)/sRGB.icc")
        let parsed = try #require(ICCProfile(srgb))
        #expect(!SRGBConversion(parsed, format: .rgb8).converts)
        let adobe = "\(Self.debianProfiles)/compatibleWithAdobeRGB1998.icc"
        let tagged = try Self.tagged(adobe, "jpg")
        defer { try? FileManager.default.removeItem(atPath: tagged.path) }
        let pixels = try PhotoPreparer().preparedPixels(tagged.bytes)
        #expect(try Self.judge(adobe, file: tagged.path, ours: PortablePixmap.encode(pixels), ext: "ppm") <= 0.5)
    }

    @Test("a profile that cannot be read (garbage, LUT-only) is taken as sRGB and logged once per preparer")
    func unreadableProfiles() throws {
        let untagged = try Self.tagged("none", "jpg")
        defer { try? FileManager.default.removeItem(atPath: untagged.path) }
        let lutOnly = try Self.profile("lut-only")
        var garbage = try Self.profile("display-p3")
        garbage.replaceSubrange(128..<garbage.count, with: repeatElement(0xA5, count: garbage.count - 128))
        let log = RecordingLogHandler()
        let preparer = PhotoPreparer(logger: log.logger())
        let expected = try PhotoPreparer().prepare(Data(untagged.bytes))
        for profile in [lutOnly, garbage, [UInt8](repeating: 7, count: 300)] {
            #expect(ICCProfile(profile) == nil)
            let file = JPEGSegments.withICCProfile(profile, chunkSize: 60_000, in: untagged.bytes)
            #expect(try preparer.prepare(Data(file)) == expected)
        }
        #expect(log.records.count == 1)
        #expect(log.contains("colour profile"))
    }

    @Test("APP2 chunks are reassembled by sequence number; a truncated, repeated or inconsistent chain is ignored")
    func app2Chains() throws {
        let untagged = try Self.tagged("none", "jpg")
        defer { try? FileManager.default.removeItem(atPath: untagged.path) }
        let profile = try Self.profile("display-p3")
        let chunks = JPEGSegments.iccChunks(profile, chunkSize: 100)
        #expect(chunks.count == 6)
        func decoded(_ segments: [[UInt8]]) throws -> [UInt8]? {
            try JPEGDecoder.decode(JPEGSegments.inserting(segments, in: untagged.bytes), eighths: 1).iccProfile
        }
        #expect(try decoded(chunks) == profile)
        #expect(try decoded(chunks.reversed()) == profile)
        #expect(try decoded(Array(chunks.dropLast())) == nil)
        #expect(try decoded(chunks + [chunks[2]]) == nil)
        var wrongCount = chunks
        wrongCount[3][17] = 9  // chunk 4 says the chain has 9 chunks
        #expect(try decoded(wrongCount) == nil)
        // Preparation of a truncated chain: the untagged bytes.
        let truncated = JPEGSegments.inserting(Array(chunks.dropFirst()), in: untagged.bytes)
        #expect(try PhotoPreparer().prepare(Data(truncated)) == PhotoPreparer().prepare(Data(untagged.bytes)))
        // And the rows preparation reads carry the profile too.
        let rows = try JPEGSegments.inserting(chunks, in: untagged.bytes).withUnsafeBufferPointer {
            (file) throws(CodecError) in try JPEGDecoder.decodeRows(file, minimumLongestEdge: 2048).rows
        }
        #expect(rows.iccProfile == profile)
    }

    @Test("a PNG's iCCP profile is inflated and reported")
    func pngProfile() throws {
        let tagged = try Self.tagged("prophoto", "png")
        defer { try? FileManager.default.removeItem(atPath: tagged.path) }
        #expect(try PNGDecoder.decode(tagged.bytes).iccProfile == Self.profile("prophoto"))
    }

    @Test("an iCCP stream that inflates beyond 4 MiB is dropped (the picture still decodes, as sRGB)")
    func pngProfileBomb() throws {
        let bytes = try PhotoPreparerTests.pillowFile(
            "im = Image.new('RGB', (8, 8), (200, 30, 40))", format: "png",
            save: ", icc_profile=bytes(4 * 1024 * 1024 + 1)")
        #expect(bytes.count < 20_000)
        let decoded = try PNGDecoder.decode(bytes)
        #expect(decoded.iccProfile == nil && decoded.pixels.width == 8)
    }

    @Test("a grey photo with a gamma 2.2 grey profile becomes sRGB grey through its kTRC")
    func greyProfile() throws {
        let profile = try Self.profile("grey-22").map(String.init).joined(separator: ",")
        let ramp = try PhotoPreparerTests.pillowFile(
            "im = Image.new('L', (256, 4))\nim.putdata([x for y in range(4) for x in range(256)])", format: "png",
            save: ", icc_profile=bytes([\(profile)])")
        let pixels = try PhotoPreparer().preparedPixels(ramp)
        try #require(pixels.format == .gray8 && pixels.width == 256)
        for value in 0..<256 {
            let linear = pow(Double(value) / 255, 563.0 / 256)
            let encoded = linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
            #expect(Int(pixels.bytes[value]) == Int((encoded * 255).rounded()), "grey \(value)")
        }
    }

    @Test("hostile profiles: offsets, sizes, tag counts and curve counts beyond the data read as no profile")
    func hostileProfiles() throws {
        let good = try Self.profile("display-p3")
        #expect(ICCProfile(good) != nil)
        func patched(_ at: Int, _ value: UInt32) -> [UInt8] {
            var bytes = good
            for k in 0..<4 { bytes[at + k] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(k))) }
            return bytes
        }
        #expect(ICCProfile(patched(0, UInt32(good.count + 1))) == nil, "declared size beyond the data")
        #expect(ICCProfile(patched(128, 0xFFFF_FFFF)) == nil, "tag count")
        #expect(ICCProfile(patched(132 + 4, 0xFFFF_FFF0)) == nil, "tag offset")
        #expect(ICCProfile(patched(132 + 8, 0x7FFF_FFFF)) == nil, "tag size")
        #expect(ICCProfile(Array(good.prefix(200))) == nil, "truncated")
        // A curv tag whose count claims more entries than the tag holds.
        var curve = try Self.profile("adobe-rgb")
        let offset = try #require(Self.tagOffset("rTRC", in: curve))
        for k in 0..<4 { curve[offset + 8 + k] = [0, 1, 0, 0][k] }
        #expect(ICCProfile(curve) == nil)
    }

    /// Where tag `name` starts in `profile`.
    static func tagOffset(_ name: String, in profile: [UInt8]) -> Int? {
        let count = Int(profile[131])
        for index in 0..<count {
            let entry = 132 + 12 * index
            if Array(profile[entry..<(entry + 4)]) == Array(name.utf8) {
                return profile[(entry + 4)..<(entry + 8)].reduce(0) { $0 << 8 | Int($1) }
            }
        }
        return nil
    }
}

/// JPEG APP2 `ICC_PROFILE` segments, built by hand so that chains can be broken on purpose.
enum JPEGSegments {
    /// The profile cut into APP2 segments (marker included) of at most `chunkSize` profile bytes each.
    static func iccChunks(_ profile: [UInt8], chunkSize: Int) -> [[UInt8]] {
        let pieces = stride(from: 0, to: profile.count, by: chunkSize).map {
            Array(profile[$0..<min($0 + chunkSize, profile.count)])
        }
        return pieces.enumerated().map { index, piece in
            let length = 2 + 14 + piece.count
            return [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + Array("ICC_PROFILE".utf8) + [0]
                + [UInt8(index + 1), UInt8(pieces.count)] + piece
        }
    }

    /// `jpeg` with `segments` inserted right after SOI.
    static func inserting(_ segments: [[UInt8]], in jpeg: [UInt8]) -> [UInt8] {
        Array(jpeg.prefix(2)) + segments.flatMap { $0 } + Array(jpeg.dropFirst(2))
    }

    static func withICCProfile(_ profile: [UInt8], chunkSize: Int, in jpeg: [UInt8]) -> [UInt8] {
        inserting(iccChunks(profile, chunkSize: chunkSize), in: jpeg)
    }
}
