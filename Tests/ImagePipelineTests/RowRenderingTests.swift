@testable import ImagePipeline
@testable import JPEGCodec
import ReceptionCore
import Testing

/// Preparation resizes a JPEG from its frame's rows, rendered a window at a time (`JPEGFrameRows`,
/// `AreaResampler.resize(rendering:width:height:)`), instead of from the whole decoded picture. These tests hold
/// the two to the same bytes over every layout the ring meets: grey, 4:2:0 and 4:4:4 frames, reduced and full-size
/// decodes, and targets from one tap per output row to six, plus the decoder's own whole-picture output.
@Suite struct RowRenderingTests {
    /// A deterministic picture with edges, gradients and fine texture (no random source, so nothing to seed).
    static func picture(width: Int, height: Int, format: BitmapFormat) -> Bitmap {
        let channels = format.bytesPerPixel
        var bytes = [UInt8](repeating: 0, count: width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                let texture = (x &* 2_654_435_761 ^ y &* 40_503) >> 7 & 63
                let base = (x * 3 + y * 2) % 200 + ((x / 17 + y / 13) & 1) * 40
                for c in 0..<channels {
                    bytes[(y * width + x) * channels + c] = UInt8(min(255, base + texture / (c + 1) + c * 9))
                }
            }
        }
        return Bitmap(width: width, height: height, format: format, bytes: bytes)
    }

    /// How many bytes differ, a length difference counting in full (a count, so a failure reports a number rather
    /// than two arrays of a hundred thousand bytes).
    static func differing(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).reduce(abs(a.count - b.count)) { $0 + ($1.0 == $1.1 ? 0 : 1) }
    }

    /// The frame's rows of `jpeg` decoded with at least `edge` pixels on the longer side.
    static func rows(_ jpeg: [UInt8], edge: Int) throws -> JPEGFrameRows {
        try jpeg.withUnsafeBufferPointer { (file) throws(CodecError) in
            try JPEGDecoder.decodeRows(file, minimumLongestEdge: edge).rows
        }
    }

    @Test(
        "resizing from rendered rows gives the bytes of resizing the whole decoded picture",
        arguments: [
            (BitmapFormat.rgb8, JPEGEncoder.ChromaSubsampling.halved),
            (.rgb8, .full),
            (.gray8, .halved),
        ])
    func ringMatchesWholePicture(format: BitmapFormat, chroma: JPEGEncoder.ChromaSubsampling) throws {
        let source = Self.picture(width: 331, height: 251, format: format)
        let jpeg = try JPEGEncoder(options: .init(chroma: chroma)).encodeJPEG(source, quality: 90)
        var compared = 0
        // 331 px at full size, 166 at 1/2, 125 at 3/8: every reduced decode path of the frame.
        for edge in [331, 160, 120] {
            let whole = try JPEGDecoder.decode(jpeg, minimumLongestEdge: edge).pixels
            let rows = try Self.rows(jpeg, edge: edge)
            #expect(rows.width == whole.width && rows.height == whole.height)
            #expect(Self.differing(rows.renderAll().bytes, whole.bytes) == 0, "renderAll at edge \(edge)")
            // Heights from no reduction (one tap) to about a sixth of the source (six taps); widths follow.
            for divisor in [1.0, 1.01, 1.3, 1.5, 2.0, 2.7, 3.0, 4.4, 5.9] {
                let height = max(1, Int((Double(whole.height) / divisor).rounded()))
                let width = max(1, Int((Double(whole.width) / divisor).rounded()))
                let expected = AreaResampler.resize(whole, width: width, height: height)
                let fromRows = AreaResampler.resize(rendering: rows, width: width, height: height)
                #expect(fromRows.width == width && fromRows.height == height)
                #expect(Self.differing(fromRows.bytes, expected.bytes) == 0, "edge \(edge), \(width)×\(height)")
                compared += 1
            }
        }
        #expect(compared == 27)
    }

    @Test("preparation from rows equals preparation from the decoded picture, and a shrink round renders again")
    func preparationMatches() throws {
        let source = Self.picture(width: 650, height: 350, format: .rgb8)
        let jpeg = try JPEGEncoder(options: .init(chroma: .halved)).encodeJPEG(source, quality: 92)
        // Edges of 300 and 240 decode at 1/2 (325 px) and 3/8 (244 px), then resize.
        for limit in [300, 240] {
            var configuration = PhotoPreparer.Configuration()
            configuration.maximumEdge = limit
            let prepared = try PhotoPreparer(configuration: configuration).prepareReporting(jpeg)
            let whole = try JPEGDecoder.decode(jpeg, minimumLongestEdge: limit).pixels
            let (width, height) = PhotoPreparer.fit(width: 650, height: 350, maximumEdge: limit)
            let resized = AreaResampler.resize(whole, width: width, height: height)
            let expected = try PhotoPreparer.defaultEncoder.encodeJPEG(resized, quality: prepared.quality)
            #expect(prepared.quality == 85 && prepared.maximumEdge == limit)
            #expect(Self.differing([UInt8](prepared.photo.jpeg), expected) == 0, "maximum edge \(limit)")
        }
        // A budget the first round misses at every quality: the next round resizes from the same rows again.
        let whole = try JPEGDecoder.decode(jpeg, minimumLongestEdge: 300).pixels
        let first = AreaResampler.resize(whole, width: 300, height: 162)
        var tight = PhotoPreparer.Configuration()
        tight.maximumEdge = 300
        tight.byteLimit = try PhotoPreparer.defaultEncoder.encodeJPEG(first, quality: 25).count - 1
        let shrunk = try PhotoPreparer(configuration: tight).prepareReporting(jpeg)
        #expect(shrunk.maximumEdge == 225 && shrunk.photo.jpeg.count <= tight.byteLimit)
        let second = AreaResampler.resize(whole, width: 225, height: 121)
        let expected = try PhotoPreparer.defaultEncoder.encodeJPEG(second, quality: shrunk.quality)
        #expect(Self.differing([UInt8](shrunk.photo.jpeg), expected) == 0)
    }
}
