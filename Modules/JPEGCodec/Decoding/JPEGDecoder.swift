
/// A pure-Swift JPEG decoder (ITU T.81): baseline and extended sequential and progressive Huffman frames with 8-bit
/// samples, restart intervals, any integer chroma subsampling (4:4:4, 4:2:2, 4:2:0, 4:4:0, 4:1:1, 4:1:0…),
/// grayscale, Adobe RGB, CMYK and YCCK, and the EXIF orientation.
///
/// It can decode at 1/2, 3/8, 1/4 or 1/8 scale in the DCT domain (a reduced inverse DCT per block), which is how
/// photo preparation avoids reconstructing every pixel of a 12–48 MP camera photo it is about to shrink.
/// Output is `gray8` or `rgb8`. Anything it cannot decode — arithmetic coding, 12-bit or lossless frames, a missing
/// frame, corrupt Huffman data, a file that ends inside a scan — throws `invalid_image`.
public enum JPEGDecoder {
    /// Whether `bytes` start like a JPEG (SOI followed by a marker).
    public static func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF
    }

    /// Whether `bytes` start like a JPEG (SOI followed by a marker).
    public static func matches(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { matches($0) }
    }

    /// The pixel size a JPEG's frame header declares, read without decoding; nil when `bytes` are not a JPEG or no
    /// frame header is reachable before the first scan.
    public static func declaredSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var at = 2
        while at + 9 < bytes.count {
            guard bytes[at] == 0xFF else { return nil }
            let marker = bytes[at + 1]
            if marker == 0xFF { at += 1; continue }
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            if (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
                let h = Int(bytes[at + 5]) << 8 | Int(bytes[at + 6])
                let w = Int(bytes[at + 7]) << 8 | Int(bytes[at + 8])
                return (w, h)
            }
            guard marker != 0xDA, length >= 2 else { return nil }
            at += 2 + length
        }
        return nil
    }

    /// The output scales in eighths, smallest first: 1/8, 1/4, 3/8, 1/2 and full size.
    public static let scales = [1, 2, 3, 4, 8]

    /// Decodes at the smallest of 1/8, 1/4, 3/8, 1/2 and 1/1 scale whose longer edge is still at least
    /// `minimumLongestEdge` (full size when nil).
    public static func decode(_ bytes: [UInt8], minimumLongestEdge: Int? = nil) throws(CodecError)
        -> DecodedImage
    {
        try bytes.withUnsafeBufferPointer { (file) throws(CodecError) in
            try decode(file, minimumLongestEdge: minimumLongestEdge)
        }
    }

    /// Decodes at a fixed scale of `eighths`/8 (1, 2, 3, 4 or 8).
    public static func decode(_ bytes: [UInt8], eighths: Int) throws(CodecError) -> DecodedImage {
        try bytes.withUnsafeBufferPointer { (file) throws(CodecError) in
            guard JPEGDecoder.scales.contains(eighths), let base = file.baseAddress else { throw .invalidImage }
            var decoding = JPEGDecoding(base, count: file.count) { _ in eighths }
            return try decoding.run()
        }
    }

    /// Decodes at a fixed scale of `eighths`/8 like `decode(_:eighths:)` and reports the most bytes the decode held
    /// at once in buffers that grow with the picture: coefficients, sample planes, upsampling rows and the output.
    /// A test knob and a benchmark figure; the input array is the caller's and is not counted.
    package static func decodeReportingMemory(_ bytes: [UInt8], eighths: Int) throws(CodecError)
        -> (image: DecodedImage, peakBufferBytes: Int)
    {
        try bytes.withUnsafeBufferPointer { (file) throws(CodecError) in
            guard JPEGDecoder.scales.contains(eighths), matches(file), let base = file.baseAddress else {
                throw .invalidImage
            }
            var decoding = JPEGDecoding(base, count: file.count) { _ in eighths }
            let image = try decoding.run()
            return (image, decoding.ledger.peak)
        }
    }

    /// Decodes a JPEG file held in memory; see `decode(_:minimumLongestEdge:)`.
    package static func decode(_ file: UnsafeBufferPointer<UInt8>, minimumLongestEdge: Int?) throws(CodecError)
        -> DecodedImage
    {
        let (rows, orientation) = try decodeRows(file, minimumLongestEdge: minimumLongestEdge)
        return DecodedImage(pixels: rows.renderAll(), orientation: orientation, iccProfile: rows.iccProfile)
    }

    /// Decodes every scan of a JPEG file like `decode(_:minimumLongestEdge:)` but leaves the last step, the
    /// upsampling and colour conversion, to the caller, one output row at a time (photo preparation resizes
    /// from these rows without holding the full RGB picture). The rows do not refer to `file`; they carry the
    /// file's ICC profile (`JPEGFrameRows.iccProfile`).
    package static func decodeRows(_ file: UnsafeBufferPointer<UInt8>, minimumLongestEdge: Int?) throws(CodecError)
        -> (rows: JPEGFrameRows, orientation: Orientation)
    {
        guard matches(file), let base = file.baseAddress else { throw .invalidImage }
        var decoding = JPEGDecoding(base, count: file.count) { longest in
            guard let target = minimumLongestEdge else { return 8 }
            return JPEGDecoder.scales.first { (longest * $0 + 7) / 8 >= target } ?? 8
        }
        return try decoding.decodeRows()
    }
}

/// The state of one decode: tables as the marker segments define them, the frame, and the output scale.
struct JPEGDecoding {
    let data: UnsafePointer<UInt8>
    let count: Int
    /// Picks the output scale in eighths from the longer edge of the frame.
    let chooseScale: (Int) -> Int

    /// Quantization tables in zig-zag order.
    var quantization = [[Int32]](repeating: [], count: 4)
    var dcTables = [HuffmanDecodingTable?](repeating: nil, count: 4)
    var acTables = [HuffmanDecodingTable?](repeating: nil, count: 4)
    var restartInterval = 0
    var adobeTransform: Int?
    var orientation = Orientation.up
    var iccProfile = ICCProfileChunks()
    var frame: JPEGFrame?
    var scans = 0
    /// Counts the buffers that grow with the picture (see `decodeReportingMemory`).
    let ledger = BufferLedger()

    /// At most this many scans: real progressive files use about ten; each scan visits every block.
    static let maximumScans = 128

    init(_ data: UnsafePointer<UInt8>, count: Int, chooseScale: @escaping (Int) -> Int) {
        self.data = data
        self.count = count
        self.chooseScale = chooseScale
    }

    func u16(_ at: Int) -> Int { Int(data[at]) << 8 | Int(data[at + 1]) }

    mutating func run() throws(CodecError) -> DecodedImage {
        let (rows, orientation) = try decodeRows()
        return DecodedImage(pixels: rows.renderAll(), orientation: orientation, iccProfile: rows.iccProfile)
    }

    /// Reads every segment and scan up to EOI and returns the frame's rows, ready to be rendered.
    mutating func decodeRows() throws(CodecError) -> (rows: JPEGFrameRows, orientation: Orientation) {
        var position = 2
        while true {
            // Find the next marker; bytes between segments are skipped as libjpeg-class decoders do.
            while position < count && data[position] != 0xFF { position += 1 }
            while position < count && data[position] == 0xFF { position += 1 }
            guard position < count else { throw .invalidImage }  // ended without EOI: truncated
            let marker = data[position]
            position += 1
            if marker == 0xD9 { break }
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { continue }
            guard position + 2 <= count else { throw .invalidImage }
            let length = u16(position)
            guard length >= 2, position + length <= count else { throw .invalidImage }
            let segment = (position + 2)..<(position + length)
            position += length
            switch marker {
            case 0xC0, 0xC1, 0xC2:
                guard frame == nil else { throw .invalidImage }
                frame = try JPEGFrame(
                    data, segment, progressive: marker == 0xC2, fileSize: count, scale: chooseScale, ledger: ledger)
            case 0xC3, 0xC5...0xC7, 0xC8...0xCB, 0xCD...0xCF:
                throw .invalidImage  // lossless, hierarchical or arithmetic coding
            case 0xC4:
                try readHuffmanTables(segment)
            case 0xDB:
                try readQuantizationTables(segment)
            case 0xDD:
                guard segment.count >= 2 else { throw .invalidImage }
                restartInterval = u16(segment.lowerBound)
            case 0xDA:
                position = try decodeScan(header: segment)
            case 0xE1:
                let exif: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
                if segment.count > 6, (0..<6).allSatisfy({ data[segment.lowerBound + $0] == exif[$0] }) {
                    orientation = ExifOrientation.read(
                        tiff: UnsafeBufferPointer(start: data + segment.lowerBound + 6, count: segment.count - 6))
                }
            case 0xE2:
                iccProfile.add(data, segment)
            case 0xEE:
                // Adobe APP14: "Adobe", version, flags0, flags1, transform.
                let adobe: [UInt8] = [0x41, 0x64, 0x6F, 0x62, 0x65]
                if segment.count >= 12, (0..<5).allSatisfy({ data[segment.lowerBound + $0] == adobe[$0] }) {
                    adobeTransform = Int(data[segment.lowerBound + 11])
                }
            default:
                break
            }
        }
        guard let frame, scans > 0 else { throw .invalidImage }
        if frame.progressive { frame.transformCoefficients(quantization) }
        let rows = JPEGFrameRows(frame, adobeTransform: adobeTransform, ledger: ledger)
        rows.iccProfile = iccProfile.assembled(data)
        return (rows, orientation)
    }
}
