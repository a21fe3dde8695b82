
/// One scan (T.81 B.2.3, Annex F and G.1.2): the header, then the entropy-coded data in MCU order with restart
/// intervals. Sequential scans are transformed block by block straight into the planes; progressive scans refine
/// the stored coefficients.
extension JPEGDecoding {
    /// The parameters of the scan being decoded.
    struct ScanHeader {
        var components: [JPEGComponent]
        var spectralStart: Int, spectralEnd: Int, high: Int, low: Int
    }

    /// Decodes the scan whose header is `header` and returns where its entropy-coded data ends (the next marker).
    mutating func decodeScan(header segment: Range<Int>) throws(CodecError) -> Int {
        guard let frame else { throw .invalidImage }
        scans += 1
        guard scans <= Self.maximumScans, segment.count >= 1 else { throw .invalidImage }
        let n = Int(data[segment.lowerBound])
        guard (1...4).contains(n), segment.count >= 4 + 2 * n else { throw .invalidImage }
        var components: [JPEGComponent] = []
        for index in 0..<n {
            let at = segment.lowerBound + 1 + 2 * index
            guard let component = frame.components.first(where: { $0.id == data[at] }) else { throw .invalidImage }
            component.dcTable = Int(data[at + 1] >> 4)
            component.acTable = Int(data[at + 1] & 15)
            guard component.dcTable < 4, component.acTable < 4 else { throw .invalidImage }
            component.predictor = 0
            components.append(component)
        }
        let at = segment.lowerBound + 1 + 2 * n
        let header = ScanHeader(
            components: components, spectralStart: Int(data[at]), spectralEnd: Int(data[at + 1]),
            high: Int(data[at + 2] >> 4), low: Int(data[at + 2] & 15))
        let start = segment.upperBound
        let end = entropyEnd(from: start)
        // The data must stop at a marker: a file that ends inside a scan is truncated.
        guard end < count else { throw .invalidImage }
        var reader = JPEGBitReader(data, start: start, end: end)
        if frame.progressive {
            try decodeProgressive(header, frame: frame, reader: &reader)
        } else {
            guard header.spectralStart == 0, header.spectralEnd == 63 else { throw .invalidImage }
            try decodeSequential(header, frame: frame, reader: &reader)
        }
        return end
    }

    /// The first marker after `start` that is not a stuffed zero or a restart marker.
    private func entropyEnd(from start: Int) -> Int {
        var at = start
        @inline(__always) func hasFF(_ word: UInt64) -> UInt64 {
            (~word &- 0x0101_0101_0101_0101) & word & 0x8080_8080_8080_8080
        }
        while at + 1 < count {
            // Thirty-two bytes at a time while none is 0xFF (one branch for four words), then eight (the
            // has-zero-byte test on the complement).
            while at + 32 <= count {
                let words = UnsafeRawPointer(data + at)
                @inline(__always) func word(_ i: Int) -> UInt64 {
                    words.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                }
                if hasFF(word(0)) | hasFF(word(8)) | hasFF(word(16)) | hasFF(word(24)) != 0 { break }
                at += 32
            }
            while at + 8 <= count {
                if hasFF(UnsafeRawPointer(data + at).loadUnaligned(as: UInt64.self)) != 0 { break }
                at += 8
            }
            guard at + 1 < count else { break }
            if data[at] == 0xFF {
                let next = data[at + 1]
                if next != 0 && !(0xD0...0xD7).contains(next) && next != 0xFF { return at }
                at += next == 0xFF ? 1 : 2
            } else {
                at += 1
            }
        }
        return count
    }

    private func decodeSequential(_ header: ScanHeader, frame: JPEGFrame, reader: inout JPEGBitReader)
        throws(CodecError)
    {
        let count = header.components.count
        // One block of dequantized coefficients, kept zero between blocks, and a scratch entry for dropped ones.
        let block = UnsafeMutablePointer<Int32>.allocate(capacity: 65)
        defer { block.deallocate() }
        block.initialize(repeating: 0, count: 65)
        // Per scan component: dequantization steps, kept slots and IDCT bounds by zig-zag index (80 each, so a
        // corrupt run can index past 63 without leaving them).
        let scratch = UnsafeMutablePointer<Int32>.allocate(capacity: 3 * 80 * count)
        defer { scratch.deallocate() }
        scratch.initialize(repeating: 0, count: 3 * 80 * count)
        var targets: [SequentialTarget] = []
        for (index, component) in header.components.enumerated() {
            guard let dc = dcTables[component.dcTable], let ac = acTables[component.acTable],
                quantization[component.quantizationTable].count == 64, let plane = component.plane.baseAddress
            else { throw .invalidImage }
            let table = quantization[component.quantizationTable]
            let steps = scratch + index * 240, slots = steps + 80, bounds = slots + 80
            let n = component.blockSize
            var rows = 1, columns = 1
            for k in 0..<80 {
                let z = naturalOrder[k], row = z >> 3, column = z & 7
                steps[k] = k < 64 ? table[k] : 0
                let kept = k < 64 && row < n && column < n
                slots[k] = kept ? Int32(z) : 64
                if kept && k > 0 { (rows, columns) = (max(rows, row + 1), max(columns, column + 1)) }
                bounds[k] = Int32(rows << 8 | columns)
            }
            targets.append(
                SequentialTarget(
                    dc: dc.lookup, ac: ac.lookup, steps: steps, slots: slots, bounds: bounds, plane: plane,
                    stride: component.stride, blockSize: n, h: component.h, v: component.v,
                    blocksX: component.blocksX, blocksY: component.blocksY,
                    keptLimit: (0..<64).last { slots[$0] < 64 } ?? 0))
        }
        try targets.withUnsafeMutableBufferPointer { (targets) throws(CodecError) in
            guard let first = targets.baseAddress else { throw .invalidImage }
            let single = count == 1
            // A one-component scan visits that component's own block grid (T.81 A.2.2), one block per "MCU".
            let columns = single ? header.components[0].scanBlocksX : frame.mcusX
            let rows = single ? header.components[0].scanBlocksY : frame.mcusY
            let interval = restartInterval
            var mcu = 0
            for my in 0..<rows {
                for mx in 0..<columns {
                    if interval > 0 && mcu > 0 && mcu % interval == 0 {
                        reader.restart()
                        for index in 0..<count { first[index].predictor = 0 }
                    }
                    mcu += 1
                    // One loop for both kinds, so the block decoder is inlined once: a one-component scan's "MCU"
                    // is its single block (1 × 1).
                    for index in 0..<count {
                        let target = first + index
                        let h = single ? 1 : target.pointee.h, v = single ? 1 : target.pointee.v
                        for y in 0..<v {
                            for x in 0..<h { try decodeBlock(target, mx * h + x, my * v + y, block, &reader) }
                        }
                    }
                }
            }
        }
    }

    /// Decodes one block of a sequential scan (T.81 F.2.2) and transforms it into its component's plane.
    @inline(__always)
    private func decodeBlock(
        _ target: UnsafeMutablePointer<SequentialTarget>, _ bx: Int, _ by: Int, _ block: UnsafeMutablePointer<Int32>,
        _ reader: inout JPEGBitReader
    ) throws(CodecError) {
        let last = reader.decodeBlock(target, into: block)
        guard last >= 0 else { throw .invalidImage }
        let bounds = Int(target.pointee.bounds[last])
        let rows = last == 0 ? 1 : bounds >> 8, columns = last == 0 ? 1 : bounds & 0xFF
        // Fields one by one: a copy of the whole target per block cost more than the reads.
        if bx < target.pointee.blocksX, by < target.pointee.blocksY {
            let n = target.pointee.blockSize, stride = target.pointee.stride
            InverseDCT.transform(
                block, size: n, rows: rows, columns: columns, into: target.pointee.plane + by * n * stride + bx * n,
                stride: stride)
        }
        // Whole rows as one vector store each (the columns past `columns` are zero already): a `memset` call per
        // row of three cost more than the stores.
        for v in 0..<rows {
            UnsafeMutableRawPointer(block + v * 8).storeBytes(of: SIMD8<Int32>(), as: SIMD8<Int32>.self)
        }
    }
}

/// What the sequential block loop needs of one scan component, with no reference counting in the loop.
struct SequentialTarget {
    let dc: HuffmanLookup, ac: HuffmanLookup
    let steps: UnsafeMutablePointer<Int32>, slots: UnsafeMutablePointer<Int32>, bounds: UnsafeMutablePointer<Int32>
    let plane: UnsafeMutablePointer<UInt8>
    let stride: Int, blockSize: Int, h: Int, v: Int, blocksX: Int, blocksY: Int
    /// The last zig-zag index whose coefficient is kept (63 at full size).
    let keptLimit: Int
    var predictor = 0
}
