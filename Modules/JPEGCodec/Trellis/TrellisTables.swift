extension TrellisQuantizer {
    /// Fills `steps` (the quantiser steps in zig-zag order, luma then chroma) and `tables` (both tables' rate rows,
    /// row offsets, closings, sources, multipliers and weights, laid out as `tables` describes) and answers each
    /// table's end-of-block bits and settled bound. Run once per photo, so it is compiled for size (Docs/Footprint.md).
    @_optimize(size) static func fillTables(
        _ tables: UnsafeMutableRawPointer, steps: UnsafeMutablePointer<Float>, ac: [HuffmanSpec],
        quantization: [QuantizationTable], weighting: Float
    ) -> (endOfBlock: [Float], bounds: [Float]) {
        for table in 0..<2 {
            let spec = table < quantization.count ? quantization[table] : quantization.first
            for k in 0..<64 { steps[table * 64 + k] = Float(spec?.steps[ZigZag.naturalIndex[k]] ?? 1) }
        }
        var endOfBlock: [Float] = [0, 0]
        var bounds: [Float] = [0, 0]
        for table in 0..<2 {
            let spec = table < ac.count ? ac[table] : ac.first ?? HuffmanSpec.luminanceAC
            let packed = HuffmanEncodingTable(spec).packed
            var lengths = [Int](repeating: 0, count: packed.count)
            for symbol in packed.indices { lengths[symbol] = Int(packed[symbol] & 0xFF) }
            let zeroRun = lengths[0xF0]
            endOfBlock[table] = lengths[0x00] > 0 ? Float(lengths[0x00]) : Self.forbidden
            let region = tables + table * Self.tableBytes
            let base = region.bindMemory(to: Float.self, capacity: Self.costsPerTable)
            for size in 0..<Self.sizes {
                for run in 0..<Self.runsPerSize {
                    let symbol = (run & 15) << 4 | size
                    let codeable = (1...10).contains(size) && lengths[symbol] > 0 && (run < 16 || zeroRun > 0)
                    base[size * Self.runsPerSize + run] = codeable
                        ? Float((run >> 4) * zeroRun + lengths[symbol] + size) : Self.forbidden
                }
            }
            // The dearest and cheapest of sizes 1...10.
            var dearest = base[Self.runsPerSize], cheapest = dearest
            for index in Self.runsPerSize..<(11 * Self.runsPerSize) {
                let cost = base[index]
                if cost > dearest { dearest = cost }
                if cost < cheapest { cheapest = cost }
            }
            bounds[table] = dearest < Self.forbidden ? 2 * dearest - cheapest : .infinity
            let rowOffsets = (region + Self.rowOffsetsAt).bindMemory(to: Int32.self, capacity: 2048)
            for magnitude in 0..<1024 {
                for slot in 0..<2 {
                    let value = slot == 0 ? magnitude : max(magnitude - 1, 0)
                    let size = Int.bitWidth - value.leadingZeroBitCount
                    rowOffsets[magnitude * 2 + slot] = Int32((size * Self.runsPerSize - 1) * 4)
                }
            }
            let closings = (region + Self.closingsAt).bindMemory(to: Float.self, capacity: 64)
            let sources = (region + Self.sourcesAt).bindMemory(to: Int32.self, capacity: 64)
            let multipliers = (region + Self.multipliersAt).bindMemory(to: Float.self, capacity: 64)
            let natural = quantization.isEmpty ? nil
                : QuantizationMultipliers(table: table < quantization.count ? quantization[table] : quantization[0])
            let weights = (region + Self.weightsAt).bindMemory(to: Float.self, capacity: 64)
            var meanStep: Float = 0
            for k in 1..<64 { meanStep += steps[table * 64 + k] / 63 }
            for k in 0..<64 {
                weights[k] = Self.weight(ratio: steps[table * 64 + k] / meanStep, exponent: weighting)
                closings[k] = k == 63 ? 0 : endOfBlock[table]
                sources[k] = Int32(ZigZag.naturalIndex[k] * 8 * 4)
                multipliers[k] = natural?.values[ZigZag.naturalIndex[k]] ?? 1
            }
        }
        return (endOfBlock, bounds)
    }
}
