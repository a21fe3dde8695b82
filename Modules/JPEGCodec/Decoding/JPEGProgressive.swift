
/// Progressive scans (T.81 G.1.2): DC first and refinement scans, AC spectral-selection scans with end-of-band
/// runs, and AC successive-approximation refinement. Coefficients stay quantized until the last scan, stored as
/// `JPEGComponent+Coefficients.swift` describes (only those the scaled IDCT reads).
extension JPEGDecoding {
    func decodeProgressive(_ header: ScanHeader, frame: JPEGFrame, reader: inout JPEGBitReader)
        throws(CodecError)
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
            try decodeDC(header, frame: frame, tables: tables.map { $0?.lookup }, reader: &reader)
            return
        }
        guard let component = header.components.first, let table = (tables.first ?? nil)?.lookup,
            let values = component.coefficients.baseAddress, let histories = component.history.baseAddress
        else { throw .invalidImage }
        let bit = Int16(truncatingIfNeeded: 1 << low)
        let n = component.blockSize, blocksX = component.blocksX, blocksY = component.blocksY
        let lastKept = (0..<64).last { component.keptSlot[$0] >= 0 } ?? 0
        let keptTop = JPEGBitReader.span(lastKept + 1, 63)
        let interval = restartInterval
        // Dropped positions' stores point at the DC entry, which the kept mask leaves unchanged.
        let stores = UnsafeMutablePointer<Int>.allocate(capacity: 64)
        defer { stores.deallocate() }
        let keeps = UnsafeMutablePointer<Int16>.allocate(capacity: 64)
        defer { keeps.deallocate() }
        var kept: UInt64 = 0
        for k in 0..<64 {
            let slot = k < component.keptSlot.count ? component.keptSlot[k] : -1
            stores[k] = max(slot, 0)
            keeps[k] = slot >= 0 ? -1 : 0
            if slot >= 0 { kept |= 1 << UInt64(k) }
        }
        let lookups = (JPEGBitReader.selectTable, JPEGBitReader.windowTable)
        try lookups.0.withUnsafeBufferPointer { (select) throws(CodecError) in
            try lookups.1.withUnsafeBufferPointer { (window) throws(CodecError) in
                guard select.count == 256 * 8, window.count == 256 * 16, let select = select.baseAddress,
                    let window = window.baseAddress
                else { throw .invalidImage }
                let scan = JPEGBitReader.ProgressiveScan(
                    keptTop: keptTop, lastKept: lastKept, stores: stores, kept: kept, keeps: keeps, select: select,
                    window: window)
                // A one-component scan visits the component's own block grid, one block per "MCU" (T.81 A.2.2).
                var endOfBandRun = 0
                var untilRestart = interval
                for by in 0..<component.scanBlocksY {
                    for bx in 0..<component.scanBlocksX {
                        if interval > 0 {
                            if untilRestart == 0 {
                                reader.restart()
                                endOfBandRun = 0
                                untilRestart = interval
                            }
                            untilRestart -= 1
                        }
                        guard bx < blocksX, by < blocksY else { continue }
                        let index = by * blocksX + bx
                        let blockValues = values + index * n * n, blockHistory = histories + index
                        let decoded =
                            refining
                            ? reader.refineAC(
                                table, scan, blockValues, blockHistory, start: start, end: end, bit: bit,
                                endOfBandRun: &endOfBandRun)
                            : reader.firstAC(
                                table, scan, blockValues, blockHistory, start: start, end: end, low: low,
                                endOfBandRun: &endOfBandRun)
                        guard decoded else { throw .invalidImage }
                    }
                }
            }
        }
    }

    /// What a DC scan needs of one component, with no reference counting in the block loop.
    private struct DCTarget {
        let values: UnsafeMutablePointer<Int16>
        let blockStride: Int, blocksX: Int, blocksY: Int, h: Int, v: Int
        let table: HuffmanLookup?
        var predictor = 0
    }

    /// A DC first or refinement scan (T.81 G.1.2.1), interleaved over MCUs or over one component's block grid.
    private func decodeDC(
        _ header: ScanHeader, frame: JPEGFrame, tables: [HuffmanLookup?], reader: inout JPEGBitReader
    ) throws(CodecError) {
        var targets: [DCTarget] = []
        for (component, table) in zip(header.components, tables) {
            guard let values = component.coefficients.baseAddress else { throw .invalidImage }
            targets.append(
                DCTarget(
                    values: values, blockStride: component.blockSize * component.blockSize,
                    blocksX: component.blocksX, blocksY: component.blocksY, h: component.h, v: component.v,
                    table: table))
        }
        let single = targets.count == 1
        let columns = single ? header.components[0].scanBlocksX : frame.mcusX
        let rows = single ? header.components[0].scanBlocksY : frame.mcusY
        let refining = header.high > 0, low = header.low
        let bit = Int16(truncatingIfNeeded: 1 << low)
        let interval = restartInterval
        try targets.withUnsafeMutableBufferPointer { (targets) throws(CodecError) in
            guard let first = targets.baseAddress else { throw .invalidImage }
            let count = targets.count
            var untilRestart = interval
            for my in 0..<rows {
                for mx in 0..<columns {
                    if interval > 0 {
                        if untilRestart == 0 {
                            reader.restart()
                            for index in 0..<count { first[index].predictor = 0 }
                            untilRestart = interval
                        }
                        untilRestart -= 1
                    }
                    for index in 0..<count {
                        let target = first + index
                        let h = single ? 1 : target.pointee.h, v = single ? 1 : target.pointee.v
                        for y in 0..<v {
                            for x in 0..<h {
                                let bx = mx * h + x, by = my * v + y
                                guard bx < target.pointee.blocksX, by < target.pointee.blocksY else { continue }
                                let dc = target.pointee.values + (by * target.pointee.blocksX + bx)
                                    * target.pointee.blockStride
                                if refining {
                                    // Branch-free: the bits are close to random.
                                    dc.pointee |= bit & Int16(truncatingIfNeeded: 0 &- reader.bit())
                                    continue
                                }
                                guard let table = target.pointee.table, let difference = reader.dcDifference(table)
                                else { throw .invalidImage }
                                target.pointee.predictor &+= difference
                                dc.pointee = Int16(truncatingIfNeeded: target.pointee.predictor << low)
                            }
                        }
                    }
                }
            }
        }
    }
}
