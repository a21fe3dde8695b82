import CZlib
import JPEGCodec

/// The chunks of a PNG file that decoding needs, read and CRC-checked in one walk: the header, the palette and
/// transparency, where the `IDAT` payloads are (not copied), the EXIF orientation if an `eXIf` chunk has one, and
/// where an `iCCP` chunk's compressed profile is.
struct PNGChunks {
    var header: PNGHeader
    /// RGBA entries; fewer than 256 when the palette is shorter (missing indexes decode as opaque black).
    var palette: [UInt8] = []
    var transparency: PNGTransparency?
    var data: [Range<Int>] = []
    var orientation: Orientation = .up
    /// The zlib stream of the `iCCP` chunk's profile (after its name and compression method), if it has a
    /// well-formed one before the image data; a malformed `iCCP` is ignored (the picture is read as sRGB).
    var iccProfile: Range<Int>?

    @inline(never) @_optimize(size) static func bigEndian32(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int {
        Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }

    @inline(never) @_optimize(size) private static func tag(_ text: String) -> Int {
        text.utf8.reduce(0) { $0 << 8 | Int($1) }
    }

    /// Walks every chunk from after the signature to `IEND`, checking each CRC unless `verifiesChecksums` is off
    /// (fuzzing only).
    @inline(never) @_optimize(size)
    static func read(_ file: UnsafeBufferPointer<UInt8>, verifiesChecksums: Bool = true) throws(CodecError)
        -> PNGChunks
    {
        guard let base = file.baseAddress else { throw .invalidImage }
        var position = 8
        var chunks: PNGChunks?
        var sawPalette = false
        var dataEnded = false
        while true {
            // Length, type, data, CRC: a chunk that does not fit in the file is a truncation.
            guard position + 12 <= file.count else { throw .invalidImage }
            let length = bigEndian32(file, position)
            guard length <= Int(Int32.max), length <= file.count - position - 12 else { throw .invalidImage }
            let type = bigEndian32(file, position + 4)
            let dataStart = position + 8
            if verifiesChecksums {
                let stored = UInt(bigEndian32(file, dataStart + length))
                let computed = UInt(crc32(0, base + position + 4, uInt(length + 4)))
                guard stored == computed else { throw .invalidImage }
            }
            let payload = UnsafeBufferPointer(rebasing: file[dataStart..<(dataStart + length)])
            position = dataStart + length + 4

            if chunks == nil {
                guard type == tag("IHDR") else { throw .invalidImage }
                chunks = PNGChunks(header: try PNGHeader(payload))
                continue
            }
            guard var current = chunks else { throw .invalidImage }
            switch type {
            case tag("IEND"):
                guard !current.data.isEmpty else { throw .invalidImage }
                return current
            case tag("IDAT"):
                // IDAT chunks must be consecutive; a palette image needs its PLTE first.
                guard !dataEnded, current.header.colorType != 3 || sawPalette else { throw .invalidImage }
                current.data.append(dataStart..<(dataStart + length))
            case tag("PLTE"):
                guard !sawPalette, current.data.isEmpty, length % 3 == 0, length > 0, length <= 768 else {
                    throw .invalidImage
                }
                sawPalette = true
                for entry in 0..<(length / 3) {
                    current.palette += [payload[entry * 3], payload[entry * 3 + 1], payload[entry * 3 + 2], 255]
                }
            case tag("tRNS"):
                guard current.data.isEmpty else { throw .invalidImage }
                current.transparency = try PNGTransparency(payload, header: current.header, palette: &current.palette)
            case tag("eXIf"):
                current.orientation = ExifOrientation.read(tiff: payload)
            case tag("iCCP"):
                // A profile name of 1–79 bytes, its NUL, compression method 0 (zlib), then the stream.
                if current.iccProfile == nil, current.data.isEmpty, let end = payload.prefix(80).firstIndex(of: 0),
                   end >= 1, end + 2 < length, payload[end + 1] == 0 {
                    current.iccProfile = (dataStart + end + 2)..<(dataStart + length)
                }
            default:
                // An unknown critical chunk (upper-case first letter) cannot be skipped safely.
                guard type & 0x2000_0000 != 0 else { throw .invalidImage }
            }
            if type != tag("IDAT") && !current.data.isEmpty { dataEnded = true }
            chunks = current
        }
    }
}

/// A `tRNS` chunk: per-entry alpha for palettes (folded into the palette), or the one colour that is transparent
/// for grey and RGB images, kept at the file's bit depth and compared before any reduction to 8 bits.
struct PNGTransparency {
    var grey: Int = -1
    var red: Int = -1, green: Int = -1, blue: Int = -1

    @inline(never) @_optimize(size)
    init(_ data: UnsafeBufferPointer<UInt8>, header: PNGHeader, palette: inout [UInt8]) throws(CodecError) {
        @_optimize(size) func sample(_ at: Int) -> Int { Int(data[at]) << 8 | Int(data[at + 1]) }
        switch header.colorType {
        case 0:
            guard data.count >= 2 else { throw .invalidImage }
            grey = sample(0)
        case 2:
            guard data.count >= 6 else { throw .invalidImage }
            (red, green, blue) = (sample(0), sample(2), sample(4))
        case 3:
            guard data.count <= 256 else { throw .invalidImage }
            for (index, alpha) in data.enumerated() where index * 4 + 3 < palette.count {
                palette[index * 4 + 3] = alpha
            }
        default:
            throw .invalidImage
        }
    }
}
