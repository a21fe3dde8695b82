import ReceptionCore

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
    mutating func decodeScan(header segment: Range<Int>) throws(ReceptionError) -> Int {
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
        while at + 1 < count {
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

    /// Calls `body` for every block of the scan in order (interleaved MCUs, or the component's own block grid for
    /// a one-component scan), restarting the reader and the predictions every `restartInterval` MCUs.
    @inline(__always)
    func forEachBlock(
        _ header: ScanHeader, _ frame: JPEGFrame, _ reader: inout JPEGBitReader, restart: () -> Void,
        _ body: (Int, JPEGComponent, Int, Int, inout JPEGBitReader) throws(ReceptionError) -> Void
    ) throws(ReceptionError) {
        var mcu = 0
        func boundary(_ reader: inout JPEGBitReader) {
            if restartInterval > 0 && mcu > 0 && mcu % restartInterval == 0 {
                reader.restart()
                for component in header.components { component.predictor = 0 }
                restart()
            }
            mcu += 1
        }
        if header.components.count == 1, let component = header.components.first {
            for by in 0..<component.scanBlocksY {
                for bx in 0..<component.scanBlocksX {
                    boundary(&reader)
                    try body(0, component, bx, by, &reader)
                }
            }
            return
        }
        for my in 0..<frame.mcusY {
            for mx in 0..<frame.mcusX {
                boundary(&reader)
                for (index, component) in header.components.enumerated() {
                    for y in 0..<component.v {
                        for x in 0..<component.h {
                            try body(index, component, mx * component.h + x, my * component.v + y, &reader)
                        }
                    }
                }
            }
        }
    }

    private func decodeSequential(_ header: ScanHeader, frame: JPEGFrame, reader: inout JPEGBitReader)
        throws(ReceptionError)
    {
        let block = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        defer { block.deallocate() }
        block.initialize(repeating: 0, count: 64)
        // Per component: Huffman tables and dequantization steps by zig-zag index.
        var tables: [(HuffmanDecodingTable, HuffmanDecodingTable)] = []
        // Dequantization steps by zig-zag index, 64 per scan component.
        let steps = UnsafeMutablePointer<Float>.allocate(capacity: 64 * header.components.count)
        defer { steps.deallocate() }
        for (index, component) in header.components.enumerated() {
            guard let dc = dcTables[component.dcTable], let ac = acTables[component.acTable],
                quantization[component.quantizationTable].count == 64
            else { throw .invalidImage }
            tables.append((dc, ac))
            for k in 0..<64 { steps[index * 64 + k] = Float(quantization[component.quantizationTable][k]) }
        }
        try forEachBlock(header, frame, &reader, restart: {}) { (index, component, bx, by, reader) throws(ReceptionError) in
            let (dc, ac) = tables[index]
            let steps = steps + index * 64
            guard let plane = component.plane.baseAddress else { throw .invalidImage }
            let size = reader.decode(dc)
            guard (0...11).contains(size) else { throw .invalidImage }
            component.predictor += reader.signed(size)
            block[0] = Float(component.predictor) * steps[0]
            let n = component.blockSize
            var rows = 1, columns = 1
            var k = 1
            while k < 64 {
                let symbol = reader.decode(ac)
                guard symbol >= 0 else { throw .invalidImage }
                let run = symbol >> 4, bits = symbol & 15
                if bits == 0 {
                    if run == 15 { k += 16; continue }
                    break
                }
                k += run
                guard k < 64 else { throw .invalidImage }
                let value = reader.signed(bits)
                let z = naturalOrder[k]
                let row = z >> 3, column = z & 7
                if row < n && column < n {
                    block[z] = Float(value) * steps[k]
                    rows = max(rows, row + 1)
                    columns = max(columns, column + 1)
                }
                k += 1
            }
            guard bx < component.blocksX, by < component.blocksY else { return }
            InverseDCT.transform(
                block, size: n, rows: rows, columns: columns,
                into: plane + by * n * component.stride + bx * n, stride: component.stride)
            for v in 0..<rows { (block + v * 8).update(repeating: 0, count: columns) }
        }
    }
}
