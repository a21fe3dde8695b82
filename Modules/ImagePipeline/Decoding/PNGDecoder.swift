import JPEGCodec

/// Decodes PNG files (ISO/IEC 15948) through the system zlib: every colour type and bit depth, palette and
/// `tRNS` transparency, Adam7 interlacing, CRC checks on every chunk, any number of `IDAT` chunks.
///
/// Output is `gray8` for opaque grey, `rgb8` for opaque colour and palette images, `rgba8` (straight alpha) for
/// anything with an alpha channel or a `tRNS` chunk. 16-bit samples become 8-bit by rounding `v × 255 / 65,535`.
/// Only the default image is read: APNG frames (`fdAT`) and all metadata except the EXIF orientation and the `iCCP`
/// colour profile (inflated to at most `ICCProfile.maximumSize` bytes; a malformed one is ignored) are dropped.
/// Anything malformed — a bad signature, CRC, chunk order or zlib stream, a truncated file, a missing `IEND` —
/// throws `invalid_image`; a header beyond `DecodeLimits` throws before anything is allocated.
package enum PNGDecoder {
    /// The eight bytes every PNG starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Whether `bytes` start with the PNG signature.
    @inline(never) @_optimize(size) package static func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 8 && zip(bytes.prefix(8), signature).allSatisfy { $0 == $1 }
    }

    /// Decodes a whole PNG file.
    @inline(never) @_optimize(size) package static func decode(_ bytes: [UInt8]) throws(CodecError) -> DecodedImage {
        try bytes.withUnsafeBufferPointer { (file) throws(CodecError) in try decode(file) }
    }

    /// Decodes a whole PNG file held in memory. `verifiesChecksums: false` skips the chunk CRCs; only the fuzz
    /// targets use it, so that mutated inputs reach the decoder instead of stopping at the first CRC.
    @inline(never)
    @_optimize(size) package static func decode(_ file: UnsafeBufferPointer<UInt8>, verifiesChecksums: Bool = true)
        throws(CodecError) -> DecodedImage
    {
        guard matches(file) else { throw .invalidImage }
        let chunks = try PNGChunks.read(file, verifiesChecksums: verifiesChecksums)
        let header = chunks.header
        // Deflate cannot expand more than 1,032:1 (a 258-byte match in two bits), so a header that claims more
        // rows than the IDAT payloads can hold is a lie, refused before the output is allocated.
        let compressed = chunks.data.reduce(0) { $0 + $1.count }
        guard header.filteredByteCount <= compressed * 1032 + 1024 else { throw .invalidImage }
        let format: BitmapFormat =
            header.hasAlpha || chunks.transparency != nil ? .rgba8 : (header.colorType == 0 ? .gray8 : .rgb8)
        let rows = PNGRowConverter(header: header, format: format, palette: chunks.palette, transparency: chunks.transparency)
        let inflater = try PNGInflater(file: file, ranges: chunks.data)
        // Two rows (with their filter-type byte): the one being unfiltered in place and the one above it.
        let lineCapacity = 1 + header.rowBytes(width: header.width)
        let lines = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * lineCapacity)
        defer { lines.deallocate() }
        let outputRow = header.width * format.bytesPerPixel
        @inline(never) @_optimize(size) func fill(_ out: UnsafeMutableBufferPointer<UInt8>) throws(CodecError) {
            guard let outBase = out.baseAddress else { throw .invalidImage }
            // Interlaced passes fill the image in pieces; start from zeros so no byte is ever uninitialised.
            if header.interlaced { outBase.initialize(repeating: 0, count: out.count) }
            for pass in header.passes {
                let rowBytes = header.rowBytes(width: pass.width)
                var line = lines, above = lines + lineCapacity
                for row in 0..<pass.height {
                    try inflater.read(into: line, count: 1 + rowBytes)
                    try PNGFilter.unfilter(
                        type: line[0], row: line + 1, previous: row == 0 ? nil : above + 1, count: rowBytes,
                        bytesPerPixel: header.filterStride)
                    let y = pass.y0 + row * pass.dy
                    rows.convert(line + 1, width: pass.width, into: outBase + y * outputRow, x0: pass.x0, dx: pass.dx)
                    swap(&line, &above)
                }
            }
        }
        // The closure does not throw: the Swift 6.1 standard library (Xcode 16's SDKs, which the package supports)
        // takes only an untyped-throwing closure here, so a failure is kept and thrown after it returns.
        var failure: CodecError?
        let pixels = [UInt8](unsafeUninitializedCapacity: header.height * outputRow) { out, initialized in
            do throws(CodecError) {
                try fill(out)
                initialized = out.count
            } catch {
                // UInt8 is trivial: the bytes already written need no deinitialisation.
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        var profile: [UInt8]?
        if let range = chunks.iccProfile {
            profile = try PNGInflater(file: file, ranges: [range]).readToEnd(limit: ICCProfile.maximumSize)
        }
        return DecodedImage(
            pixels: Bitmap(width: header.width, height: header.height, format: format, bytes: pixels),
            orientation: chunks.orientation, iccProfile: profile)
    }
}

/// The IHDR fields and the geometry derived from them.
struct PNGHeader {
    let width: Int
    let height: Int
    let bitDepth: Int
    let colorType: Int
    let interlaced: Bool

    /// Samples per pixel for the colour type.
    @inline(never) @_optimize(size) var channels: Int {
        switch colorType {
        case 2: 3
        case 4: 2
        case 6: 4
        default: 1
        }
    }

    @_optimize(size) var hasAlpha: Bool { colorType == 4 || colorType == 6 }
    @_optimize(size) var bitsPerPixel: Int { channels * bitDepth }
    /// The filter's "corresponding byte to the left" distance (at least one byte).
    @_optimize(size) var filterStride: Int { max(1, bitsPerPixel / 8) }

    @_optimize(size) func rowBytes(width: Int) -> Int { (width * bitsPerPixel + 7) / 8 }

    /// One Adam7 pass (or the whole image): its size and where its pixels land.
    struct Pass {
        let x0: Int, y0: Int, dx: Int, dy: Int, width: Int, height: Int
    }

    /// The seven Adam7 passes that contain pixels, or one pass for a non-interlaced image.
    @inline(never) @_optimize(size) var passes: [Pass] {
        guard interlaced else { return [Pass(x0: 0, y0: 0, dx: 1, dy: 1, width: width, height: height)] }
        let starts = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        return starts.compactMap { (x0, y0, dx, dy) in
            let w = (width - x0 + dx - 1) / dx
            let h = (height - y0 + dy - 1) / dy
            return w > 0 && h > 0 ? Pass(x0: x0, y0: y0, dx: dx, dy: dy, width: w, height: h) : nil
        }
    }

    /// Bytes the zlib stream must inflate to: every row of every pass plus its filter-type byte.
    @inline(never) @_optimize(size)
    var filteredByteCount: Int { passes.reduce(0) { $0 + $1.height * (1 + rowBytes(width: $1.width)) } }

    /// Parses and validates the 13 IHDR bytes.
    @inline(never) @_optimize(size) init(_ data: UnsafeBufferPointer<UInt8>) throws(CodecError) {
        guard data.count == 13 else { throw .invalidImage }
        let width = PNGChunks.bigEndian32(data, 0), height = PNGChunks.bigEndian32(data, 4)
        bitDepth = Int(data[8])
        colorType = Int(data[9])
        let allowed: [Int]
        switch colorType {
        case 0: allowed = [1, 2, 4, 8, 16]
        case 3: allowed = [1, 2, 4, 8]
        case 2, 4, 6: allowed = [8, 16]
        default: throw .invalidImage
        }
        guard allowed.contains(bitDepth), data[10] == 0, data[11] == 0, data[12] <= 1 else { throw .invalidImage }
        try DecodeLimits.check(width: width, height: height)
        self.width = width
        self.height = height
        interlaced = data[12] == 1
    }
}
