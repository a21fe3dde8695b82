/// The per-block loops of progressive scans (T.81 G.1.2), written like `decodeBlock`: the bit register, its count
/// and the read position are locals for the whole block so they stay in machine registers, and each Huffman code
/// comes with its magnitude (or, in a refinement scan, its sign) from one lookahead load.
///
/// A block's non-zero history (bit k set when zig-zag coefficient k is non-zero so far) drives the AC refinement:
/// the zero positions a run skips and the non-zero positions that take a correction bit are found with mask
/// arithmetic instead of a test per position, and correction bits for coefficients the scale's IDCT never reads
/// (above the last stored position) are stepped over in one shift per register load.
extension JPEGBitReader {
    /// Where a block's coefficients and history live, and which zig-zag positions are stored.
    struct ProgressiveBlock {
        let values: UnsafeMutablePointer<Int16>
        let history: UnsafeMutablePointer<UInt64>
        /// `slots[k]`: where zig-zag coefficient k lives in `values`, or -1 (64 entries).
        let slots: UnsafePointer<Int>
        /// The bits above the last stored position (0 when every coefficient is stored).
        let keptTop: UInt64
        /// Where corrections of dropped positions go (never read).
        let scratch: UnsafeMutablePointer<Int16>
    }

    /// Bits `from…through` (0 ≤ from, through ≤ 63) as a mask; empty when `from > through`.
    @inline(__always)
    static func band(_ from: Int, _ through: Int) -> UInt64 {
        let upper = through >= 63 ? UInt64.max : (1 &<< UInt64(through &+ 1)) &- 1
        return from > 63 ? 0 : upper & (UInt64.max &<< UInt64(from))
    }

    /// Tops up the local register copy (`decodeBlock`'s `fill`).
    @inline(__always)
    private mutating func fill(_ buffer: inout UInt64, _ count: inout Int, _ position: inout Int) {
        if Self.refillFast(data, end, &buffer, &count, &position) { return }
        (self.buffer, self.count, self.position) = (buffer, count, position)
        refillSlowly()
        (buffer, count, position) = (self.buffer, self.count, self.position)
    }

    /// The DC difference of one block in a DC first scan (T.81 F.2.2.1), or nil for corrupt data.
    @inline(__always)
    mutating func dcDifference(_ table: HuffmanLookup) -> Int? {
        var buffer = self.buffer, count = self.count, position = self.position
        if count < 32 { fill(&buffer, &count, &position) }
        let (size, difference) = Self.codeWithValue(table, &buffer, &count)
        (self.buffer, self.count, self.position) = (buffer, count, position)
        return size >= 0 && size <= 11 ? difference : nil
    }

    /// One block of an AC first scan over `start…end` at point transform `low` (T.81 G.1.2.2): stored
    /// coefficients set, every new non-zero position recorded in the history, end-of-band runs counted in
    /// `endOfBandRun`. False for corrupt data.
    @inline(__always)
    mutating func firstAC(
        _ table: HuffmanLookup, _ block: ProgressiveBlock, start: Int, end last: Int, low: Int,
        endOfBandRun: inout Int
    ) -> Bool {
        if endOfBandRun > 0 {
            endOfBandRun -= 1
            return true
        }
        var buffer = self.buffer, count = self.count, position = self.position
        defer { (self.buffer, self.count, self.position) = (buffer, count, position) }
        var history = block.history.pointee
        defer { block.history.pointee = history }
        var k = start
        while k <= last {
            if count < 32 { fill(&buffer, &count, &position) }
            let (symbol, value) = Self.codeWithValue(table, &buffer, &count)
            guard symbol >= 0 else { return false }
            let run = symbol &>> 4
            if symbol & 15 == 0 {
                if run < 15 {
                    // EOBRUN: this block and 2^run − 1 + (run more bits) further blocks end here.
                    let extra = run == 0 ? 0 : Int(buffer &>> UInt64(64 &- run))
                    buffer <<= UInt64(run)
                    count &-= run
                    endOfBandRun = (1 &<< run) &- 1 &+ extra
                    return true
                }
                k &+= 16
                continue
            }
            k &+= run
            guard k <= 63 else { return false }
            let coefficient = Int16(truncatingIfNeeded: value &<< low)
            let slot = block.slots[k]
            if slot >= 0 { block.values[slot] = coefficient }
            if coefficient != 0 { history |= 1 &<< UInt64(k) }
            k &+= 1
        }
        return true
    }

    /// One block of an AC refinement scan over `start…end` adding bit `bit` (1 << Al; T.81 G.1.2.3): new
    /// coefficients of magnitude `bit` placed after `run` zero-history positions, a correction bit for every
    /// position already non-zero that the scan passes (read whether or not the position is stored), and the
    /// end-of-band run in `endOfBandRun`. False for corrupt data.
    @inline(__always)
    mutating func refineAC(
        _ table: HuffmanLookup, _ block: ProgressiveBlock, start: Int, end last: Int, bit: Int16,
        endOfBandRun: inout Int
    ) -> Bool {
        var buffer = self.buffer, count = self.count, position = self.position
        defer { (self.buffer, self.count, self.position) = (buffer, count, position) }
        var history = block.history.pointee
        defer { block.history.pointee = history }
        let values = block.values, slots = block.slots

        /// Reads one correction bit per set position of `mask`, lowest first, refining the stored ones.
        @inline(__always) func correct(_ mask: UInt64) {
            // Positions above the last stored one only need their bits stepped over.
            var skipped = (mask & block.keptTop).nonzeroBitCount
            var low = mask & ~block.keptTop
            while low != 0 {
                if count == 0 { fill(&buffer, &count, &position) }
                let k = low.trailingZeroBitCount
                low &= low &- 1
                let set = Int16(truncatingIfNeeded: buffer &>> 63)
                buffer &<<= 1
                count &-= 1
                // Branch-free: the bits are close to random, so a branch on them mispredicts half the time. A
                // dropped position (slot -1) writes to a scratch entry instead.
                let slot = slots[k]
                let target = slot >= 0 ? values + slot : block.scratch
                let value = target.pointee
                let sign = value &>> 15
                let step = (bit ^ sign) &- sign
                let apply = set & (value & bit == 0 ? 1 : 0)
                target.pointee = value &+ (step & (0 &- apply))
            }
            while skipped > 0 {
                if count == 0 { fill(&buffer, &count, &position) }
                let step = min(skipped, count)
                buffer = step >= 64 ? 0 : buffer &<< UInt64(step)
                count &-= step
                skipped &-= step
            }
        }

        var k = start
        if endOfBandRun == 0 {
            while k <= last {
                if count < 32 { fill(&buffer, &count, &position) }
                let (symbol, value) = Self.codeWithValue(table, &buffer, &count)
                guard symbol >= 0 else { return false }
                let run = symbol &>> 4
                let size = symbol & 15
                if size == 0 && run != 15 {
                    let extra = run == 0 ? 0 : Int(buffer &>> UInt64(64 &- run))
                    buffer <<= UInt64(run)
                    count &-= run
                    endOfBandRun = (1 &<< run) &+ extra
                    break
                }
                guard size <= 1 else { return false }
                // The (run + 1)-th zero-history position from k on is where the new coefficient goes (ZRL: the
                // sixteenth, with no coefficient); the non-zero positions before it take correction bits.
                var zeros = ~history & Self.band(k, last)
                for _ in 0..<run { zeros &= zeros &- 1 }
                let target = zeros == 0 ? last &+ 1 : zeros.trailingZeroBitCount
                correct(history & Self.band(k, target &- 1))
                if target <= last, size != 0 {
                    let slot = slots[target]
                    if slot >= 0 { values[slot] = value > 0 ? bit : 0 &- bit }
                    history |= 1 &<< UInt64(target)
                }
                k = target &+ 1
            }
        }
        if endOfBandRun > 0 {
            correct(history & Self.band(k, last))
            endOfBandRun -= 1
        }
        return true
    }
}
