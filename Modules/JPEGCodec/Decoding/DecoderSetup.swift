/// What the decoder builds before its first block: its constant tables, built once per process on first use, and
/// per file the frame header, the quantization and Huffman tables of the DQT and DHT segments, and the colour model. Each is a function of its own rather than a
/// closure in the `static let`, so it is compiled for size (`scripts/cold-code`): the one-time initializer that calls
/// it is compiled at the host's `-O`, and at `-O` it would take the loops in. The tables are the same numbers
/// either way (`scripts/arm-lab --check`: byte-identical output).
extension InverseDCT {
    /// `basis`, for every size there is a transform for.
    @inline(never) @_optimize(size) static func makeBasis() -> [[Float]] {
        var table = [[Float]](repeating: [], count: 9)
        for n in 1...8 where hasTransform(size: n) {
            var values = [Float](repeating: 0, count: n * n)
            for i in 0..<n {
                for u in 0..<n {
                    let c = u == 0 ? 1 / 2.0.squareRoot() : 1.0
                    let angle = Double(2 * i + 1) * Double(u) * Double.pi / Double(2 * n)
                    values[i * n + u] = Float(c * cosine(angle) / 2)
                }
            }
            table[n] = values
        }
        return table
    }
}

extension JPEGBitReader {
    /// 256 × `ranks` entries: entry `b * ranks + r` is the position of the (r + 1)-th set bit of byte b, or `none`
    /// where b has fewer set bits (`selectTable`, `windowTable`).
    @inline(never) @_optimize(size) static func bitPositionTable(ranks: Int, else none: UInt8) -> [UInt8] {
        var table = [UInt8](repeating: none, count: 256 * ranks)
        for byte in 0..<256 {
            var found = 0
            for position in 0..<8 where byte & (1 << position) != 0 {
                if found < ranks { table[byte * ranks + found] = UInt8(position) }
                found += 1
            }
        }
        return table
    }
}

extension JPEGDecoding {
    /// A DQT segment: each table's 64 entries, 8 or 16 bits, in zig-zag order.
    @_optimize(size) mutating func readQuantizationTables(_ segment: Range<Int>) throws(CodecError) {
        var at = segment.lowerBound
        while at < segment.upperBound {
            let precision = Int(data[at] >> 4), slot = Int(data[at] & 15)
            let size = precision == 0 ? 64 : 128
            guard slot < 4, precision <= 1, at + 1 + size <= segment.upperBound else { throw .invalidImage }
            var table = [Int32](repeating: 0, count: 64)
            for k in 0..<64 { table[k] = precision == 0 ? Int32(data[at + 1 + k]) : Int32(u16(at + 1 + 2 * k)) }
            quantization[slot] = table
            at += 1 + size
        }
    }

    /// A DHT segment: each table's 16 code-length counts and its symbols.
    @_optimize(size) mutating func readHuffmanTables(_ segment: Range<Int>) throws(CodecError) {
        var at = segment.lowerBound
        while at < segment.upperBound {
            guard at + 17 <= segment.upperBound else { throw .invalidImage }
            let tableClass = Int(data[at] >> 4), slot = Int(data[at] & 15)
            var counts = [Int](repeating: 0, count: 16)
            var total = 0
            for length in 0..<16 {
                counts[length] = Int(data[at + 1 + length])
                total += counts[length]
            }
            guard tableClass <= 1, slot < 4, total <= 256, at + 17 + total <= segment.upperBound else {
                throw .invalidImage
            }
            let values = Array(UnsafeBufferPointer(start: data + at + 17, count: total))
            guard let table = HuffmanDecodingTable(counts: counts, values: values) else { throw .invalidImage }
            if tableClass == 0 { dcTables[slot] = table } else { acTables[slot] = table }
            at += 17 + total
        }
    }
}

extension JPEGFrame {
    /// Reads a frame header segment and derives the geometry at the scale `chooseScale` picks for the larger edge.
    @_optimize(size) init(
        _ data: UnsafePointer<UInt8>, _ segment: Range<Int>, progressive: Bool, fileSize: Int,
        scale chooseScale: (Int) -> Int, ledger: BufferLedger
    ) throws(CodecError) {
        let s = segment.lowerBound
        guard segment.count >= 6, data[s] == 8 else { throw .invalidImage }  // 8-bit samples only
        height = Int(data[s + 1]) << 8 | Int(data[s + 2])
        width = Int(data[s + 3]) << 8 | Int(data[s + 4])
        let n = Int(data[s + 5])
        // A zero height would need a DNL segment; two-component frames have no colour meaning.
        guard n == 1 || n == 3 || n == 4, segment.count >= 6 + 3 * n else { throw .invalidImage }
        try DecodeLimits.check(width: width, height: height)
        self.progressive = progressive
        var components: [JPEGComponent] = []
        for index in 0..<n {
            let at = s + 6 + 3 * index
            let h = Int(data[at + 1] >> 4), v = Int(data[at + 1] & 15), table = Int(data[at + 2])
            guard (1...4).contains(h), (1...4).contains(v), table < 4 else { throw .invalidImage }
            components.append(JPEGComponent(id: data[at], h: h, v: v, quantizationTable: table, ledger: ledger))
        }
        self.components = components
        var hMax = 1, vMax = 1
        for component in components {
            hMax = max(hMax, component.h)
            vMax = max(vMax, component.v)
        }
        for component in components where hMax % component.h != 0 || vMax % component.v != 0 {
            throw .invalidImage
        }
        (self.hMax, self.vMax) = (hMax, vMax)
        mcusX = (width + 8 * hMax - 1) / (8 * hMax)
        mcusY = (height + 8 * vMax - 1) / (8 * vMax)
        scale = chooseScale(max(width, height))
        outputWidth = (width * scale + 7) / 8
        outputHeight = (height * scale + 7) / 8

        var totalBlocks = 0
        for component in components {
            let sampledWidth = (width * component.h + hMax - 1) / hMax
            let sampledHeight = (height * component.v + vMax - 1) / vMax
            component.scanBlocksX = (sampledWidth + 7) / 8
            component.scanBlocksY = (sampledHeight + 7) / 8
            component.blocksX = n == 1 ? component.scanBlocksX : mcusX * component.h
            component.blocksY = n == 1 ? component.scanBlocksY : mcusY * component.v
            // A component sampled k times coarser in both directions is reconstructed k times larger by its
            // reduced IDCT when that is a block size the IDCT has (1, 2, 3, 4, 6, 8), so it needs no upsampling
            // at all. Other products (k = 3 at 3/8 gives 9, k = 4 gives 12) are upsampled instead (found by the
            // fuzzer: a 3×3 component beside 1×1 ones asked for an IDCT size that did not exist).
            let kx = hMax / component.h, ky = vMax / component.v
            if kx == ky && InverseDCT.hasTransform(size: scale * kx) {
                component.blockSize = scale * kx
            } else {
                component.blockSize = scale
                (component.upX, component.upY) = (kx, ky)
            }
            component.validWidth = (sampledWidth * component.blockSize + 7) / 8
            component.validHeight = (sampledHeight * component.blockSize + 7) / 8
            totalBlocks += component.blocksX * component.blocksY
        }
        // Every block costs at least one bit of entropy-coded data (its DC code), so a header that claims more
        // blocks than the file has bits is a lie: refuse before allocating for it.
        guard totalBlocks <= 8 * fileSize + 4096 else { throw .invalidImage }
        for component in components {
            if progressive { component.allocateCoefficients() } else { component.allocatePlane() }
        }
    }

    /// The colour model of the components (T.81 leaves it to JFIF and Adobe APP14).
    @_optimize(size) func colorModel(adobeTransform: Int?) -> ColorModel {
        switch components.count {
        case 1: return .grey
        case 3:
            if adobeTransform == 0 { return .rgb }
            let rgb = components[0].id == 0x52 && components[1].id == 0x47 && components[2].id == 0x42  // "RGB"
            return adobeTransform == nil && rgb ? .rgb : .yCbCr
        default:
            return adobeTransform == 2 ? .ycck : .cmyk
        }
    }
}
