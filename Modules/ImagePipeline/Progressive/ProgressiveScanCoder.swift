/// Codes the scans of a progressive frame (T.81 G.1.2) into a `SymbolConsumer`: the counting pass that builds each
/// scan's optimised tables and the writing pass run the same walk, so the tables always fit what is written.
struct ProgressiveScanCoder: ~Copyable {
    let image: CoefficientImage
    let layout: FrameLayout
    /// MCUs (interleaved scans) or blocks (single-component scans) between restart markers; 0 for none.
    let restartInterval: Int

    /// Blocks whose every remaining coefficient of the band is zero, not yet coded (G.1.2.2: EOBRUN).
    private var endOfBandRun = 0
    /// Correction bits of refinement scans waiting for the end-of-band run they follow (G.1.2.3): per block that
    /// joined the run with corrections, its bits (first bit highest) and their count.
    private let corrections: UnsafeMutablePointer<(bits: UInt64, count: Int)>
    private var pendingBlocks = 0
    /// Correction bits in `corrections`.
    private var pendingCorrections = 0

    /// Longest run of buffered correction bits before the run is written out early (as libjpeg bounds it).
    private static let correctionCapacity = 1000

    init(image: CoefficientImage, layout: FrameLayout, restartInterval: Int) {
        self.image = image
        self.layout = layout
        self.restartInterval = restartInterval
        corrections = .allocate(capacity: Self.correctionCapacity + 64)
        corrections.initialize(repeating: (0, 0), count: Self.correctionCapacity + 64)
    }

    deinit {
        corrections.deallocate()
    }

    /// Codes every block of `scan`, ending with the pending end-of-band run. DC symbols go to the component's DC
    /// table, AC symbols to AC table 0 (each AC scan brings its own table). With `stripStep` above 1 only every
    /// `stripStep`-th strip is coded: a counting pass over a sample (`EncodingPlan.countingStep`).
    mutating func code<Consumer: SymbolConsumer & ~Copyable>(
        _ scan: ProgressiveScan, into consumer: inout Consumer, stripStep: Int = 1
    ) {
        endOfBandRun = 0
        pendingBlocks = 0
        pendingCorrections = 0
        var predictions = [Int32](repeating: 0, count: layout.components.count)
        var unit = 0
        if scan.components.count > 1 {
            // Interleaved (only DC scans are): MCU order over the padded grid, T.81 A.2.3.
            for strip in stride(from: 0, to: layout.stripCount, by: stripStep) {
                for mcuX in 0..<layout.mcusPerRow {
                    restartIfDue(unit: unit, predictions: &predictions, into: &consumer)
                    unit += 1
                    consumer.beginMCU(blocks: layout.blocksPerMCU)
                    for index in scan.components {
                        let component = layout.components[index]
                        let plane = image.planes[index]
                        for v in 0..<component.vertical {
                            for h in 0..<component.horizontal {
                                let block = plane.block(
                                    x: mcuX * component.horizontal + h, y: strip * component.vertical + v)
                                codeDC(
                                    block, scan: scan, previous: &predictions[index], table: component.table,
                                    into: &consumer)
                            }
                        }
                    }
                }
            }
        } else if let index = scan.components.first {
            // One component: its own blocks row by row, without MCU padding (T.81 A.2.2).
            let plane = image.planes[index]
            let table = layout.components[index].table
            let rowsPerStrip = layout.components[index].vertical
            for y in 0..<plane.scanBlocksHigh where (y / rowsPerStrip) % stripStep == 0 {
                for x in 0..<plane.scanBlocksWide {
                    restartIfDue(unit: unit, predictions: &predictions, into: &consumer)
                    unit += 1
                    // A block and a flushed run of corrections together stay under two blocks' worth of output.
                    consumer.beginMCU(blocks: 2)
                    let block = plane.block(x: x, y: y)
                    if scan.isDC {
                        codeDC(block, scan: scan, previous: &predictions[index], table: table, into: &consumer)
                    } else if scan.isRefinement {
                        codeACRefinement(
                            block, nonZero: plane.mask(x: x, y: y, bit: scan.low),
                            earlier: plane.mask(x: x, y: y, bit: scan.low + 1), scan: scan, into: &consumer)
                    } else {
                        codeACFirst(block, mask: plane.mask(x: x, y: y, bit: scan.low), scan: scan, into: &consumer)
                    }
                }
            }
        }
        consumer.beginMCU(blocks: 2)
        flushEndOfBandRun(into: &consumer)
    }

    /// Before the unit that starts a restart interval: the pending run is coded, the marker written and the DC
    /// predictions start again from zero.
    private mutating func restartIfDue<Consumer: SymbolConsumer & ~Copyable>(
        unit: Int, predictions: inout [Int32], into consumer: inout Consumer
    ) {
        guard restartInterval > 0, unit > 0, unit % restartInterval == 0 else { return }
        flushEndOfBandRun(into: &consumer)
        consumer.restart(unit / restartInterval - 1)
        for index in predictions.indices { predictions[index] = 0 }
    }

    /// G.1.2.1: a first DC scan codes the difference of the point-transformed DC like baseline; a refinement
    /// sends bit Al of the DC as it is.
    @inline(__always)
    private func codeDC<Consumer: SymbolConsumer & ~Copyable>(
        _ block: UnsafePointer<Int16>, scan: ProgressiveScan, previous: inout Int32, table: Int,
        into consumer: inout Consumer
    ) {
        let dc = Int32(block[0]) &>> Int32(scan.low)
        if scan.isRefinement {
            consumer.raw(UInt64(dc & 1), length: 1)
            return
        }
        let (size, bits) = magnitude(dc &- previous)
        previous = dc
        consumer.dc(size, extra: bits, extraLength: size, table: table)
    }

    /// The bits of zig-zag positions `start...end`.
    @inline(__always)
    private static func band(_ scan: ProgressiveScan) -> UInt64 {
        let upTo = scan.end == 63 ? UInt64.max : (1 &<< UInt64(scan.end + 1)) &- 1
        return upTo & ~((1 &<< UInt64(scan.start)) &- 1)
    }

    /// G.1.2.2: the band's coefficients divided by 2^Al (towards zero) as run/size symbols; a block with nothing
    /// left in the band joins the end-of-band run instead of coding an EOB of its own. The walk visits only the
    /// coefficients the block's mask marks as non-zero after the division.
    @inline(__always)
    private mutating func codeACFirst<Consumer: SymbolConsumer & ~Copyable>(
        _ block: UnsafePointer<Int16>, mask: UInt64, scan: ProgressiveScan, into consumer: inout Consumer
    ) {
        var remaining = mask & Self.band(scan)
        var last = scan.start - 1
        while remaining != 0 {
            let k = remaining.trailingZeroBitCount
            remaining &= remaining &- 1
            flushEndOfBandRun(into: &consumer)
            var run = k &- last &- 1
            while run > 15 {
                consumer.ac(0xF0, extra: 0, extraLength: 0, table: 0)
                run &-= 16
            }
            let value = Int32(block[k &* 8])
            let sign = value &>> 31
            let shifted = ((value ^ sign) &- sign) &>> Int32(scan.low)
            let size = 32 &- shifted.leadingZeroBitCount
            // Negative values send the one's complement of their magnitude, as in baseline.
            let bits = UInt64(UInt32(bitPattern: shifted ^ sign)) & ((1 &<< UInt64(size)) &- 1)
            consumer.ac(run &<< 4 | size, extra: bits, extraLength: size, table: 0)
            last = k
        }
        if last < scan.end {
            endOfBandRun &+= 1
            if endOfBandRun == 0x7FFF { flushEndOfBandRun(into: &consumer) }
        }
    }

    /// G.1.2.3: coefficients that become non-zero at bit Al are coded as run/1 symbols with their sign; every
    /// coefficient already non-zero sends bit Al as a correction bit after the next symbol (or after the end-of-band
    /// run the block joins). `nonZero` marks |coefficient| ≥ 2^Al, `earlier` |coefficient| ≥ 2^(Al+1) (already
    /// non-zero in the previous scan of the band).
    @inline(__always)
    private mutating func codeACRefinement<Consumer: SymbolConsumer & ~Copyable>(
        _ block: UnsafePointer<Int16>, nonZero: UInt64, earlier: UInt64, scan: ProgressiveScan,
        into consumer: inout Consumer
    ) {
        let band = Self.band(scan)
        var remaining = nonZero & band
        let newlyNonZero = remaining & ~earlier
        // The last coefficient that becomes non-zero in this plane: zero runs after it need no ZRL.
        let lastNew = newlyNonZero == 0 ? 0 : 63 - newlyNonZero.leadingZeroBitCount
        // Zero-history coefficients since the last symbol (corrections do not count and do not end a run).
        var run = 0
        var previous = scan.start &- 1
        // This block's correction bits since its last symbol, first bit highest.
        var blockBits: UInt64 = 0
        var blockCount = 0
        while remaining != 0 {
            let k = remaining.trailingZeroBitCount
            remaining &= remaining &- 1
            run &+= k &- previous &- 1
            previous = k
            while run > 15 && k <= lastNew {
                flushEndOfBandRun(into: &consumer)
                consumer.ac(0xF0, extra: 0, extraLength: 0, table: 0)
                run &-= 16
                emitCorrections(blockBits, count: blockCount, into: &consumer)
                blockBits = 0
                blockCount = 0
            }
            let value = Int32(block[k &* 8])
            if earlier & (1 &<< UInt64(k)) != 0 {
                let sign = value &>> 31
                let shifted = ((value ^ sign) &- sign) &>> Int32(scan.low)
                blockBits = blockBits &<< 1 | UInt64(truncatingIfNeeded: shifted & 1)
                blockCount &+= 1
                continue
            }
            flushEndOfBandRun(into: &consumer)
            consumer.ac(run &<< 4 | 1, extra: value < 0 ? 0 : 1, extraLength: 1, table: 0)
            emitCorrections(blockBits, count: blockCount, into: &consumer)
            blockBits = 0
            blockCount = 0
            run = 0
        }
        run &+= scan.end &- previous
        if run > 0 || blockCount > 0 {
            endOfBandRun &+= 1
            if blockCount > 0 {
                corrections[pendingBlocks] = (blockBits, blockCount)
                pendingBlocks &+= 1
                pendingCorrections &+= blockCount
            }
            if endOfBandRun == 0x7FFF || pendingCorrections > Self.correctionCapacity - 64 + 1 {
                flushEndOfBandRun(into: &consumer)
            }
        }
    }

    /// Codes the pending end-of-band run (symbol 16·⌊log₂ run⌋ and the run's low bits) and the correction bits
    /// that wait for it.
    @inline(__always)
    private mutating func flushEndOfBandRun<Consumer: SymbolConsumer & ~Copyable>(into consumer: inout Consumer) {
        guard endOfBandRun > 0 else { return }
        let size = 63 &- UInt64(endOfBandRun).leadingZeroBitCount
        let extra = UInt64(endOfBandRun) & ((1 &<< UInt64(size)) &- 1)
        consumer.ac(size &<< 4, extra: extra, extraLength: size, table: 0)
        endOfBandRun = 0
        for index in 0..<pendingBlocks {
            emitCorrections(corrections[index].bits, count: corrections[index].count, into: &consumer)
        }
        pendingBlocks = 0
        pendingCorrections = 0
    }

    /// Sends the low `count` (0...63) bits of `bits`, highest first, as raw bits in pieces of at most 32.
    @inline(__always)
    private func emitCorrections<Consumer: SymbolConsumer & ~Copyable>(
        _ bits: UInt64, count: Int, into consumer: inout Consumer
    ) {
        if count > 32 {
            consumer.raw(bits &>> UInt64(count &- 32), length: 32)
            consumer.raw(bits & ((1 &<< UInt64(count &- 32)) &- 1), length: count &- 32)
        } else if count > 0 {
            consumer.raw(bits, length: count)
        }
    }
}
