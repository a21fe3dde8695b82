/// Codes one scan of a progressive frame (T.81 G.1.2) into a `SymbolConsumer`, one strip at a time: the counting
/// pass that builds the scan's optimised tables and the writing pass run the same walk, so the tables always fit
/// what is written. Every scan of the frame has a coder of its own, so all of them can code a strip while its
/// coefficients are still in cache; the state that crosses strips (DC predictions, the end-of-band run and its
/// correction bits, the restart count) lives here.
struct ProgressiveScanCoder: ~Copyable {
    let scan: ProgressiveScan
    let layout: FrameLayout
    /// MCUs (interleaved scans) or blocks (single-component scans) between restart markers; 0 for none.
    let restartInterval: Int
    /// The bits of zig-zag positions `scan.start...scan.end`.
    private let band: UInt64

    /// Units (MCUs or blocks) coded so far, for restart markers.
    private var unit = 0
    /// DC predictions per component (a pointer: a SIMD value updated one lane at a time stalls on store forwarding).
    private let predictions: UnsafeMutablePointer<Int32>
    /// Al as the shift count the coefficient paths use.
    private let low: Int32
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

    init(scan: ProgressiveScan, layout: FrameLayout, restartInterval: Int) {
        self.scan = scan
        self.layout = layout
        self.restartInterval = restartInterval
        let upTo = scan.end == 63 ? UInt64.max : (1 &<< UInt64(scan.end + 1)) &- 1
        band = upTo & ~((1 &<< UInt64(scan.start)) &- 1)
        low = Int32(scan.low)
        corrections = .allocate(capacity: Self.correctionCapacity + 64)
        corrections.initialize(repeating: (0, 0), count: Self.correctionCapacity + 64)
        predictions = .allocate(capacity: 4)
        predictions.initialize(repeating: 0, count: 4)
    }

    deinit {
        corrections.deallocate()
        predictions.deallocate()
    }

    /// Codes the blocks of strip `strip` (whose coefficients `source` holds) that this scan covers. DC symbols go
    /// to the component's DC table, AC symbols to AC table 0 (each AC scan brings its own table). A counting pass
    /// over a sample codes only some strips (`EncodingPlan.countingStep`), in order.
    mutating func code<Consumer: SymbolConsumer & ~Copyable>(
        strip: Int, _ source: StripCoefficients, into consumer: inout Consumer
    ) {
        let predictions = self.predictions
        let low = self.low
        let refinement = scan.isRefinement
        if scan.components.count > 1 {
            // Interleaved (only DC scans are): MCU order over the padded grid, T.81 A.2.3.
            for mcuX in 0..<layout.mcusPerRow {
                if restartIfDue(into: &consumer) { predictions.update(repeating: 0, count: 4) }
                consumer.beginMCU(blocks: layout.blocksPerMCU)
                for index in scan.components {
                    let component = layout.components[index]
                    let plane = source.plane(index)
                    for v in 0..<component.vertical {
                        for h in 0..<component.horizontal {
                            let block = plane.block(x: mcuX &* component.horizontal &+ h, row: v)
                            Self.codeDC(
                                block, low: low, refinement: refinement, previous: &predictions[index],
                                table: component.table, into: &consumer)
                        }
                    }
                }
            }
            return
        }
        guard let index = scan.components.first else { return }
        // One component: its own blocks row by row, without MCU padding (T.81 A.2.2).
        let component = layout.components[index]
        let plane = source.plane(index)
        let bit = scan.low
        for v in 0..<component.vertical {
            let y = strip &* component.vertical &+ v
            guard y < plane.scanBlocksHigh else { break }
            let masks = plane.masks(row: v)
            for x in 0..<plane.scanBlocksWide {
                if restartIfDue(into: &consumer) { predictions.update(repeating: 0, count: 4) }
                // A block and a flushed run of corrections together stay under two blocks' worth of output.
                consumer.beginMCU(blocks: 2)
                let block = plane.block(x: x, row: v)
                if scan.isDC {
                    Self.codeDC(
                        block, low: low, refinement: refinement, previous: &predictions[index],
                        table: component.table, into: &consumer)
                } else if refinement {
                    codeACRefinement(
                        block, nonZero: masks[x &* 3 &+ bit], earlier: masks[x &* 3 &+ bit &+ 1], into: &consumer)
                } else {
                    codeACFirst(block, mask: masks[x &* 3 &+ bit], into: &consumer)
                }
            }
        }
    }

    /// Codes what is still pending after the last strip: the end-of-band run and its corrections.
    mutating func finish<Consumer: SymbolConsumer & ~Copyable>(into consumer: inout Consumer) {
        consumer.beginMCU(blocks: 2)
        flushEndOfBandRun(into: &consumer)
    }

    /// Before the unit that starts a restart interval: the pending run is coded, the marker written and the DC
    /// predictions start again from zero (the caller resets them when this returns true). Counts the unit.
    @inline(__always)
    private mutating func restartIfDue<Consumer: SymbolConsumer & ~Copyable>(into consumer: inout Consumer) -> Bool {
        defer { unit &+= 1 }
        guard restartInterval > 0, unit > 0, unit % restartInterval == 0 else { return false }
        flushEndOfBandRun(into: &consumer)
        consumer.restart(unit / restartInterval - 1)
        return true
    }

    /// G.1.2.1: a first DC scan codes the difference of the point-transformed DC like baseline; a refinement
    /// sends bit Al of the DC as it is.
    @inline(__always)
    private static func codeDC<Consumer: SymbolConsumer & ~Copyable>(
        _ block: UnsafePointer<Int32>, low: Int32, refinement: Bool, previous: inout Int32, table: Int,
        into consumer: inout Consumer
    ) {
        let dc = block[0] &>> low
        if refinement {
            consumer.raw(UInt64(dc & 1), length: 1)
            return
        }
        let (size, bits) = magnitude(dc &- previous)
        previous = dc
        consumer.dc(size, extra: bits, extraLength: size, table: table)
    }

    /// G.1.2.2: the band's coefficients divided by 2^Al (towards zero) as run/size symbols; a block with nothing
    /// left in the band joins the end-of-band run instead of coding an EOB of its own. The walk visits only the
    /// coefficients the block's mask marks as non-zero after the division.
    @inline(__always)
    private mutating func codeACFirst<Consumer: SymbolConsumer & ~Copyable>(
        _ block: UnsafePointer<Int32>, mask: UInt64, into consumer: inout Consumer
    ) {
        var remaining = mask & band
        var last = scan.start - 1
        // The run ends before the block's first symbol; after that it stays empty for the rest of the block.
        if remaining != 0 { flushEndOfBandRun(into: &consumer) }
        while remaining != 0 {
            let k = remaining.trailingZeroBitCount
            remaining &= remaining &- 1
            var run = k &- last &- 1
            while run > 15 {
                consumer.ac(0xF0, extra: 0, extraLength: 0, table: 0)
                run &-= 16
            }
            let value = block[k &* 8]
            let sign = value &>> 31
            let shifted = ((value ^ sign) &- sign) &>> low
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
    ///
    /// The walk visits only the newly non-zero coefficients; the corrections before each of them (and those after
    /// the last, which go with the end-of-band run) are gathered from the set bits of `earlier` on the way, so each
    /// coefficient is read once and the zero run before a symbol is its distance from the previous one less the
    /// corrections between them. Only a segment whose run needs ZRL symbols (more than 15 zeros, rare) is walked
    /// coefficient by coefficient.
    @inline(__always)
    private mutating func codeACRefinement<Consumer: SymbolConsumer & ~Copyable>(
        _ block: UnsafePointer<Int32>, nonZero: UInt64, earlier: UInt64, into consumer: inout Consumer
    ) {
        let inBand = nonZero & band
        // Corrections not yet sent, and the newly non-zero coefficients.
        var old = inBand & earlier
        var remaining = inBand & ~earlier
        // The position of the last symbol (start − 1 before the first).
        var previous = scan.start &- 1
        // The run ends before the block's first symbol; after that it stays empty for the rest of the block.
        if remaining != 0 { flushEndOfBandRun(into: &consumer) }
        while remaining != 0 {
            let k = remaining.trailingZeroBitCount
            remaining &= remaining &- 1
            // Corrections strictly between the previous symbol and k (k ≤ 63, so the shift is < 64).
            let between = old & ((1 &<< UInt64(k)) &- 1)
            old &= ~between
            let (bits, count) = gatherCorrections(block, between)
            let run = k &- previous &- 1 &- count
            if run > 15 {
                codeRefinementSegment(block, between: between, symbol: k, previous: previous, into: &consumer)
            } else {
                consumer.ac(run &<< 4 | 1, extra: block[k &* 8] < 0 ? 0 : 1, extraLength: 1, table: 0)
                emitCorrections(bits, count: count, into: &consumer)
            }
            previous = k
        }
        // Zeros or corrections after the last symbol: the block joins the end-of-band run with those corrections.
        if previous < scan.end {
            endOfBandRun &+= 1
            if old != 0 {
                let (bits, count) = gatherCorrections(block, old)
                corrections[pendingBlocks] = (bits, count)
                pendingBlocks &+= 1
                pendingCorrections &+= count
            }
            if endOfBandRun == 0x7FFF || pendingCorrections > Self.correctionCapacity - 64 + 1 {
                flushEndOfBandRun(into: &consumer)
            }
        }
    }

    /// The correction bits of the coefficients `positions` marks, in zig-zag order (the first one highest), and
    /// how many there are.
    @inline(__always)
    private func gatherCorrections(_ block: UnsafePointer<Int32>, _ positions: UInt64) -> (UInt64, Int) {
        var bits: UInt64 = 0
        var count = 0
        var walk = positions
        while walk != 0 {
            let k = walk.trailingZeroBitCount
            walk &= walk &- 1
            bits = bits &<< 1 | correctionBit(block[k &* 8])
            count &+= 1
        }
        return (bits, count)
    }

    /// Bit Al of |value|: a correction bit.
    @inline(__always)
    private func correctionBit(_ value: Int32) -> UInt64 {
        let sign = value &>> 31
        return UInt64(truncatingIfNeeded: (((value ^ sign) &- sign) &>> low) & 1)
    }

    /// One segment of a refinement block, coefficient by coefficient as G.1.2.3 words it: the corrections
    /// `between` the previous symbol (at `previous`) and the newly non-zero coefficient `symbol`, with a ZRL each
    /// time 16 zeros have passed at a coefficient that is not zero, each ZRL followed by the corrections before it.
    private mutating func codeRefinementSegment<Consumer: SymbolConsumer & ~Copyable>(
        _ block: UnsafePointer<Int32>, between: UInt64, symbol: Int, previous: Int, into consumer: inout Consumer
    ) {
        var run = 0
        var position = previous
        var bits: UInt64 = 0
        var count = 0
        var walk = between | 1 &<< UInt64(symbol)
        while walk != 0 {
            let k = walk.trailingZeroBitCount
            walk &= walk &- 1
            run &+= k &- position &- 1
            position = k
            while run > 15 {
                flushEndOfBandRun(into: &consumer)
                consumer.ac(0xF0, extra: 0, extraLength: 0, table: 0)
                run &-= 16
                emitCorrections(bits, count: count, into: &consumer)
                bits = 0
                count = 0
            }
            if k != symbol {
                bits = bits &<< 1 | correctionBit(block[k &* 8])
                count &+= 1
            }
        }
        flushEndOfBandRun(into: &consumer)
        consumer.ac(run &<< 4 | 1, extra: block[symbol &* 8] < 0 ? 0 : 1, extraLength: 1, table: 0)
        emitCorrections(bits, count: count, into: &consumer)
    }

    /// Codes the pending end-of-band run, if any, and the correction bits that wait for it.
    @inline(__always)
    private mutating func flushEndOfBandRun<Consumer: SymbolConsumer & ~Copyable>(into consumer: inout Consumer) {
        if endOfBandRun > 0 { codeEndOfBandRun(into: &consumer) }
    }

    /// The end-of-band run (symbol 16·⌊log₂ run⌋ and the run's low bits) and its corrections: at most once per
    /// block, so the coding paths that end a run (seven of them) call one copy instead of each holding its own.
    @inline(never)
    private mutating func codeEndOfBandRun<Consumer: SymbolConsumer & ~Copyable>(into consumer: inout Consumer) {
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
