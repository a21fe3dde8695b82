import ReceptionCore

/// Progressive scans (T.81 G.1.2): DC first and refinement scans, AC spectral-selection scans with end-of-band
/// runs, and AC successive-approximation refinement. Coefficients stay quantized until the last scan, stored as
/// `JPEGComponent+Coefficients.swift` describes (only those the scaled IDCT reads).
extension JPEGDecoding {
    func decodeProgressive(_ header: ScanHeader, frame: JPEGFrame, reader: inout JPEGBitReader)
        throws(ReceptionError)
    {
        let start = header.spectralStart, end = header.spectralEnd, low = header.low
        let dcScan = start == 0
        // DC scans carry no AC; AC scans carry one component (T.81 G.1.1.1.1).
        guard low <= 13, header.high <= 13, dcScan ? end == 0 : (start <= end && end <= 63 && header.components.count == 1)
        else { throw .invalidImage }
        // DC refinement reads raw bits and needs no table.
        var tables: [HuffmanDecodingTable?] = []
        for component in header.components {
            guard component.coefficients.baseAddress != nil else { throw .invalidImage }
            let table = dcScan ? dcTables[component.dcTable] : acTables[component.acTable]
            guard table != nil || (dcScan && header.high > 0) else { throw .invalidImage }
            tables.append(table)
        }
        // An AC scan of a component whose IDCT reads only DC (1/8 scale) cannot change the picture: its data is
        // delimited by markers (the caller already found where it ends) and no later scan depends on it, so it is
        // skipped whole.
        if !dcScan, let component = header.components.first, !component.needsAC { return }
        let refining = header.high > 0
        if dcScan {
            try forEachBlock(header, frame, &reader, restart: {}) {
                (index, component, bx, by, reader) throws(ReceptionError) in
                guard bx < component.blocksX, by < component.blocksY, let base = component.coefficients.baseAddress
                else { return }
                let dc = base + (by * component.blocksX + bx) * component.blockSize * component.blockSize
                if refining {
                    if reader.bit() != 0 { dc.pointee |= Int16(truncatingIfNeeded: 1 << low) }
                } else {
                    guard let table = tables[index] else { throw .invalidImage }
                    let size = reader.decode(table)
                    guard (0...11).contains(size) else { throw .invalidImage }
                    component.predictor += reader.signed(size)
                    dc.pointee = Int16(truncatingIfNeeded: component.predictor << low)
                }
            }
            return
        }
        guard let component = header.components.first, let table = tables.first ?? nil else { throw .invalidImage }
        var endOfBandRun = 0
        try component.keptSlot.withUnsafeBufferPointer { (slots) throws(ReceptionError) in
            guard slots.count == 64, let slots = slots.baseAddress else { throw .invalidImage }
            try forEachBlock(header, frame, &reader, restart: { endOfBandRun = 0 }) {
                (_, component, bx, by, reader) throws(ReceptionError) in
                guard bx < component.blocksX, by < component.blocksY,
                    let block = component.coefficientBlock(bx, by, slots: slots)
                else { return }
                if refining {
                    try refineAC(block, start: start, end: end, low: low, table: table, &endOfBandRun, &reader)
                    return
                }
                if endOfBandRun > 0 {
                    endOfBandRun -= 1
                    return
                }
                var k = start
                while k <= end {
                    let symbol = reader.decode(table)
                    guard symbol >= 0 else { throw .invalidImage }
                    let run = symbol >> 4, bits = symbol & 15
                    if bits == 0 {
                        if run < 15 {
                            endOfBandRun = (1 << run) - 1 + reader.bits(run)
                            break
                        }
                        k += 16
                        continue
                    }
                    k += run
                    guard k <= 63 else { throw .invalidImage }
                    block.set(k, Int16(truncatingIfNeeded: reader.signed(bits) << low))
                    k += 1
                }
            }
        }
    }

    /// One block of an AC refinement scan (T.81 G.1.2.3): new coefficients of magnitude 1 << low placed after
    /// `run` zero-history positions, and one correction bit for every coefficient that was already non-zero —
    /// kept or dropped, since the bits are in the stream either way.
    private func refineAC(
        _ block: CoefficientBlock, start: Int, end: Int, low: Int, table: HuffmanDecodingTable,
        _ endOfBandRun: inout Int, _ reader: inout JPEGBitReader
    ) throws(ReceptionError) {
        let bit = Int16(truncatingIfNeeded: 1 << low)
        var k = start
        if endOfBandRun == 0 {
            while k <= end {
                let symbol = reader.decode(table)
                guard symbol >= 0 else { throw .invalidImage }
                var run = symbol >> 4
                let bits = symbol & 15
                var value: Int16 = 0
                if bits != 0 {
                    guard bits == 1 else { throw .invalidImage }
                    value = reader.bit() != 0 ? bit : 0 &- bit
                } else if run != 15 {
                    endOfBandRun = (1 << run) + reader.bits(run)
                    break
                }
                // Skip `run` zero-history coefficients, correcting the non-zero ones passed on the way.
                while k <= end {
                    if block.isNonZero(k) {
                        if reader.bit() != 0 { block.refine(k, bit: bit) }
                    } else {
                        if run == 0 {
                            if value != 0 { block.set(k, value) }
                            k += 1
                            break
                        }
                        run -= 1
                    }
                    k += 1
                }
            }
        }
        if endOfBandRun > 0 {
            if let history = block.history {
                // Only the band's non-zero positions from k on carry a correction bit: visit just those.
                let band = (UInt64.max << UInt64(k)) & (end >= 63 ? UInt64.max : (1 << UInt64(end + 1)) - 1)
                var mask = history.pointee & band
                while mask != 0 {
                    let position = mask.trailingZeroBitCount
                    mask &= mask &- 1
                    if reader.bit() != 0 { block.refine(position, bit: bit) }
                }
            } else {
                while k <= end {
                    if block.isNonZero(k), reader.bit() != 0 { block.refine(k, bit: bit) }
                    k += 1
                }
            }
            endOfBandRun -= 1
        }
    }
}
