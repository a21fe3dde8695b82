/// The per-block loops of progressive scans (T.81 G.1.2), written like `decodeBlock`: the bit register, its count
/// and the read position are locals for the whole block so they stay in machine registers, and each Huffman code
/// comes with its magnitude (or, in a refinement scan, its sign) from one lookahead load.
///
/// A block's non-zero history (bit k set when zig-zag coefficient k is non-zero so far) drives the AC refinement:
/// a symbol's target (the (run + 1)-th zero-history position) comes from one table load, the count of non-zero
/// positions it passes from the distance, and their correction bits from one shift; the bits of stored positions
/// are applied once per block, those of positions the scale's IDCT never reads (above the last stored one) only
/// stepped over (`refineAC`).
extension JPEGBitReader {
    /// What every block of an AC scan shares: which zig-zag positions are stored and where, and the bit tables.
    /// Built once per scan; the block loop passes only a block's coefficients and history word.
    struct ProgressiveScan {
        /// The bits above the last stored position (0 when every coefficient is stored).
        let keptTop: UInt64
        /// The last stored zig-zag position (63 when every coefficient is stored).
        let lastKept: Int
        /// `stores[k]`: where zig-zag coefficient k lives in `values`, or 0 (the DC's entry) for a dropped
        /// position; `kept`: bit k set when coefficient k is stored; `keeps[k]`: the same as an all-ones or zero
        /// mask (a load the compiler cannot turn into a branch). 64 entries each.
        let stores: UnsafePointer<Int>, kept: UInt64, keeps: UnsafePointer<Int16>
        /// `selectTable` and `windowTable`, read once per scan.
        let select: UnsafePointer<UInt8>, window: UnsafePointer<UInt8>
    }

    /// Bits `from…through` as a mask without a branch, for 1 ≤ from ≤ 64 and 0 ≤ through ≤ 63 (empty when
    /// `from > through`): an AC band never starts at 0, and the bits above the last stored position start at 1…64.
    @inline(__always)
    static func span(_ from: Int, _ through: Int) -> UInt64 {
        ((UInt64.max &<< 1) &<< UInt64(from &- 1)) & (UInt64.max &>> UInt64(63 &- through))
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
        _ table: HuffmanLookup, _ scan: ProgressiveScan, _ blockValues: UnsafeMutablePointer<Int16>,
        _ blockHistory: UnsafeMutablePointer<UInt64>, start: Int, end last: Int, low: Int,
        endOfBandRun: inout Int
    ) -> Bool {
        if endOfBandRun > 0 {
            endOfBandRun -= 1
            return true
        }
        var buffer = self.buffer, count = self.count, position = self.position
        defer { (self.buffer, self.count, self.position) = (buffer, count, position) }
        var history = blockHistory.pointee
        defer { blockHistory.pointee = history }
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
            // Branch-free: a dropped position's entry is the DC's, rewritten with its own value.
            let keep = scan.keeps[k]
            let entry = blockValues + scan.stores[k]
            entry.pointee = entry.pointee & ~keep | coefficient & keep
            if coefficient != 0 { history |= 1 &<< UInt64(k) }
            k &+= 1
        }
        return true
    }

    /// One block of an AC refinement scan over `start…end` adding bit `bit` (1 << Al; T.81 G.1.2.3): new
    /// coefficients of magnitude `bit` placed after `run` zero-history positions, a correction bit for every
    /// position already non-zero that the scan passes (read whether or not the position is stored), and the
    /// end-of-band run in `endOfBandRun`. False for corrupt data.
    ///
    /// Per symbol there is no loop: the (run + 1)-th zero-history position is found with one table load for the
    /// next eight positions (`windowTable`, else `selectBit`), the number of non-zero positions passed on the way
    /// is the distance minus the run, and their correction bits are taken from the register in one shift. Up to
    /// the last stored position the bits are gathered in order and applied once the block's symbols are parsed (a
    /// position passed in this scan was non-zero before it, and no later symbol of the block touches it), so a
    /// block has one loop over its corrections instead of one per symbol; past it (the second loop, never entered
    /// at full size) the symbols are only parsed and the bits stepped over.
    @inline(__always)
    mutating func refineAC(
        _ table: HuffmanLookup, _ scan: ProgressiveScan, _ blockValues: UnsafeMutablePointer<Int16>,
        _ blockHistory: UnsafeMutablePointer<UInt64>, start: Int, end last: Int, bit: Int16,
        endOfBandRun: inout Int
    ) -> Bool {
        var buffer = self.buffer, count = self.count, position = self.position
        defer { (self.buffer, self.count, self.position) = (buffer, count, position) }
        var history = blockHistory.pointee
        defer { blockHistory.pointee = history }
        let values = blockValues, stores = scan.stores, kept = scan.kept, keptTop = scan.keptTop
        let lastLow = min(last, scan.lastKept)

        /// The next `n` bits (0…63), right-aligned (0 for n = 0).
        @inline(__always) func take(_ n: Int) -> UInt64 {
            if n > count {
                fill(&buffer, &count, &position)
                if n > count {  // more than a full register: two halves
                    let first = n &>> 1
                    let upper = (buffer &>> 1) &>> UInt64(63 &- first)
                    buffer &<<= UInt64(first)
                    count &-= first
                    fill(&buffer, &count, &position)
                    let rest = n &- first
                    let lower = (buffer &>> 1) &>> UInt64(63 &- rest)
                    buffer &<<= UInt64(rest)
                    count &-= rest
                    return upper &<< UInt64(rest) | lower
                }
            }
            let value = (buffer &>> 1) &>> UInt64(63 &- n)
            buffer &<<= UInt64(n)
            count &-= n
            return value
        }

        /// The next symbol from position k: where its coefficient goes (`at`; last + 1 when the band has fewer
        /// zero-history positions left than the run), how many non-zero positions it passes (`n`, each with a
        /// correction bit) and its value (±1, or 0 for ZRL). `at` is -1 for corrupt data and -2 at the end of
        /// the band (EOB/EOBRUN, with `endOfBandRun` set).
        @inline(__always) func next(_ k: Int) -> (at: Int, n: Int, value: Int) {
            if count < 32 { fill(&buffer, &count, &position) }
            let (symbol, value) = Self.codeWithValue(table, &buffer, &count)
            guard symbol >= 0 else { return (-1, 0, 0) }
            let run = symbol &>> 4
            let size = symbol & 15
            if size == 0 && run != 15 {
                let extra = run == 0 ? 0 : Int(buffer &>> UInt64(64 &- run))
                buffer <<= UInt64(run)
                count &-= run
                endOfBandRun = (1 &<< run) &+ extra
                return (-2, 0, 0)
            }
            guard size <= 1 else { return (-1, 0, 0) }
            // The (run + 1)-th zero-history position from k on (ZRL: the sixteenth, with no coefficient), mostly
            // within the next eight positions: one load from `windowTable`.
            let zeros = ~history & Self.span(k, last)
            let near = Int(scan.window[Int(truncatingIfNeeded: (zeros &>> UInt64(k)) & 0xFF) &<< 4 | run])
            let at = near < 8 ? k &+ near : Self.selectBit(zeros, run, scan.select)
            if at <= last { return (at, at &- k &- run, value) }
            return (last &+ 1, (history & Self.span(k, last)).nonzeroBitCount, 0)
        }

        // Positions up to the last stored one passed so far in this block, and their correction bits in order,
        // the latest lowest.
        var passed: UInt64 = 0, gathered: UInt64 = 0, gatheredCount = 0
        /// Takes the `n` correction bits of the non-zero positions `mask`, gathering those up to the last stored
        /// position and stepping over the rest.
        @inline(__always) func gather(_ mask: UInt64, _ n: Int) {
            let low = mask & ~keptTop
            let high = low == mask ? 0 : (mask & keptTop).nonzeroBitCount
            let bits = take(n)
            passed |= low
            gathered = gathered &<< UInt64(n &- high) | bits &>> UInt64(high)
            gatheredCount &+= n &- high
        }

        var k = start
        var ended = endOfBandRun > 0
        while !ended && k <= lastLow {
            let (at, n, value) = next(k)
            if at < 0 {
                guard at == -2 else { return false }
                ended = true
                break
            }
            gather(history & Self.span(k, at &- 1), n)
            if at <= last {
                // A zero-history stored position holds 0 and a dropped one's entry is the block's DC, which the
                // keep mask leaves as it is; ZRL's value is 0.
                values[stores[at]] |= Int16(truncatingIfNeeded: value) &* bit & scan.keeps[at]
                history |= UInt64(truncatingIfNeeded: value & 1) &<< UInt64(at)
            }
            k = at &+ 1
        }
        if ended || endOfBandRun > 0 {
            // The rest of the band is in the end-of-band run: its non-zero positions still take correction bits.
            let mask = history & Self.span(k, last)
            if k <= lastLow { gather(mask, mask.nonzeroBitCount) } else { _ = take(mask.nonzeroBitCount) }
            endOfBandRun -= 1
            ended = true
        }
        // The gathered correction bits, first one highest, applied branch-free: the bits are close to random, so a
        // branch on them would mispredict half the time. A dropped position's entry is the DC, left as it is.
        if passed != 0 {
            var bits = gathered &<< UInt64(64 &- gatheredCount)
            var positions = passed
            repeat {
                let k = positions.trailingZeroBitCount
                positions &= positions &- 1
                let set = Int16(truncatingIfNeeded: bits &>> 63) & Int16(truncatingIfNeeded: (kept &>> UInt64(k)) & 1)
                bits &<<= 1
                let target = values + stores[k]
                let value = target.pointee
                let sign = value &>> 15
                let step = (bit ^ sign) &- sign
                // Only where `bit` is still clear (always, in a well-formed file): (0 - 1) >> 15 is all ones,
                // (bit - 1) >> 15 zero.
                let clear = ((value & bit) &- 1) &>> 15
                target.pointee = value &+ (step & (0 &- set) & clear)
            } while positions != 0
        }
        // Past the last stored position (the corrections above are applied first, so this loop keeps fewer values
        // live): parse and step over.
        while !ended && k <= last {
            let (at, n, value) = next(k)
            if at < 0 {
                guard at == -2 else { return false }
                _ = take((history & Self.span(k, last)).nonzeroBitCount)
                endOfBandRun -= 1
                break
            }
            _ = take(n)
            if at <= last { history |= UInt64(truncatingIfNeeded: value & 1) &<< UInt64(at) }
            k = at &+ 1
        }
        return true
    }

    /// The position of the (`rank` + 1)-th set bit of `x` (rank 0…63), or 64 when `x` has fewer: per-byte counts
    /// and their running sums in one multiply find the byte, `selectTable` the bit inside it. No loop over the
    /// rank, so no branch whose count depends on the data.
    @inline(__always)
    static func selectBit(_ x: UInt64, _ rank: Int, _ table: UnsafePointer<UInt8>) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var counts = x &- ((x &>> 1) & 0x5555_5555_5555_5555)
        counts = (counts & 0x3333_3333_3333_3333) &+ ((counts &>> 2) & 0x3333_3333_3333_3333)
        counts = (counts &+ (counts &>> 4)) & 0x0F0F_0F0F_0F0F_0F0F
        // Byte i: the set bits of bytes 0…i (at most 64, so no carry between bytes).
        let running = counts &* ones
        // High bit of byte i set when that sum exceeds `rank` (sums and rank + 1 stay below 128).
        let reached = ((running | highs) &- UInt64(truncatingIfNeeded: rank &+ 1) &* ones) & highs
        guard reached != 0 else { return 64 }
        let shift = UInt64(reached.trailingZeroBitCount &- 7)
        let before = Int(truncatingIfNeeded: ((running &<< 8) &>> shift) & 0xFF)
        let byte = Int(truncatingIfNeeded: (x &>> shift) & 0xFF)
        return Int(shift) &+ Int(table[byte &<< 3 &+ (rank &- before)])
    }

    /// `selectTable[b * 8 + j]`: the position of the (j + 1)-th set bit of byte b (0 where b has fewer).
    static let selectTable: [UInt8] = bitPositionTable(ranks: 8, else: 0)

    /// `windowTable[b * 16 + r]`: the position of the (r + 1)-th set bit of byte b, or 8 where b has fewer.
    static let windowTable: [UInt8] = bitPositionTable(ranks: 16, else: 8)
}
