/// Reads the entropy-coded bits of one JPEG scan (T.81 F.2.2.5): removes stuffed zero bytes, stops at a marker and
/// feeds zero bits from there on, so corrupt or truncated data can never read past the segment.
struct JPEGBitReader {
    // Internal (not private) for the block loops of `JPEGBitReader+Progressive.swift`.
    let data: UnsafePointer<UInt8>
    var position: Int
    let end: Int
    /// Bits not yet consumed, left-aligned.
    var buffer: UInt64 = 0
    var count = 0

    /// Reads `data[start..<end]`; `end` is where the scan's entropy-coded segment stops.
    init(_ data: UnsafePointer<UInt8>, start: Int, end: Int) {
        self.data = data
        self.position = start
        self.end = end
    }

    /// Where reading stopped, for the marker parser to continue from.
    var offset: Int { position }

    /// Tops the register up to at least 56 bits.
    @inline(__always) mutating func refill() {
        if !Self.refillFast(data, end, &buffer, &count, &position) { refillSlowly() }
    }

    /// The fast refill: when the next eight bytes hold no 0xFF (a byte of `word` is 0xFF exactly when that byte of
    /// `~word` is zero, which the classic has-zero-byte test finds), takes the whole bytes that fit and returns
    /// true; otherwise changes nothing and returns false (stuffing, markers and the end take the byte path).
    @inline(__always)
    static func refillFast(
        _ data: UnsafePointer<UInt8>, _ end: Int, _ buffer: inout UInt64, _ count: inout Int, _ position: inout Int
    ) -> Bool {
        guard position &+ 8 <= end else { return false }
        let word = UInt64(bigEndian: UnsafeRawPointer(data + position).loadUnaligned(as: UInt64.self))
        let inverted = ~word
        guard (inverted &- 0x0101_0101_0101_0101) & word & 0x8080_8080_8080_8080 == 0 else { return false }
        let bytes = (63 &- count) &>> 3
        let kept = word & ~(UInt64.max &>> UInt64(bytes &<< 3))
        buffer |= kept &>> UInt64(count)
        count &+= bytes &<< 3
        position &+= bytes
        return true
    }

    mutating func refillSlowly() {
        while count <= 56 {
            var byte: UInt8 = 0
            if position < end {
                byte = data[position]
                if byte == 0xFF {
                    if position + 1 < end, data[position + 1] == 0 {
                        position += 2
                    } else {
                        // A marker (RSTm inside the segment): do not consume it; pad with zeros.
                        byte = 0
                    }
                } else {
                    position += 1
                }
            }
            buffer |= UInt64(byte) << UInt64(56 - count)
            count += 8
        }
    }

    @inline(__always) mutating func bits(_ n: Int) -> Int {
        guard n > 0 else { return 0 }
        if count < n { refill() }
        let value = Int(buffer >> UInt64(64 - n))
        buffer <<= UInt64(n)
        count -= n
        return value
    }

    @inline(__always) mutating func bit() -> Int { bits(1) }

    /// `n` bits read as a signed coefficient (T.81 F.2.2.1, RECEIVE and EXTEND).
    @inline(__always) mutating func signed(_ n: Int) -> Int {
        guard n > 0 else { return 0 }
        let value = bits(n)
        return value < 1 << (n - 1) ? value - (1 << n) + 1 : value
    }

    /// The next Huffman symbol; -1 for a code the table does not contain.
    @inline(__always) mutating func decode(_ table: HuffmanDecodingTable) -> Int {
        if count < 16 { refill() }
        let entry = Int(table.fast[Int(buffer >> 55)])
        if entry != 0 {
            let length = entry >> 8
            buffer <<= UInt64(length)
            count -= length
            return entry & 0xFF
        }
        for length in 10...16 {
            let code = Int(buffer >> UInt64(64 - length))
            if code <= table.maximumCode[length] {
                buffer <<= UInt64(length)
                count -= length
                let index = code + table.valueOffset[length]
                return index >= 0 && index < table.values.count ? Int(table.values[index]) : -1
            }
        }
        return -1
    }

    /// Decodes the coefficients of one sequential block (T.81 F.2.2.1–F.2.2.2): the DC difference, added to
    /// `predictor` and dequantized into `block[0]`, then the AC run/size codes, each dequantized (`steps`, by
    /// zig-zag index) into `block[slots[k]]`, where a dropped coefficient's slot (reduced scales) is 64, a scratch
    /// entry the IDCT never reads (`block` has 65). Returns the last zig-zag index decoded (0 for a DC-only
    /// block), or -1 for corrupt data (an unknown code, a DC size above 11, a run past the block).
    ///
    /// The register and its count are locals for the whole block so they stay in machine registers; at least 32
    /// bits are buffered before each code, which covers the longest code (16) with the largest magnitude (15), so
    /// the code and its magnitude need no further checks.
    ///
    /// The component's tables are read through `target` where they are used, not copied per block.
    @inline(__always)
    mutating func decodeBlock(_ target: UnsafeMutablePointer<SequentialTarget>, into block: UnsafeMutablePointer<Int32>)
        -> Int
    {
        let steps = target.pointee.steps, slots = target.pointee.slots
        var buffer = self.buffer, count = self.count, position = self.position
        let data = self.data, end = self.end
        @inline(__always) func fill() {
            if Self.refillFast(data, end, &buffer, &count, &position) { return }
            (self.buffer, self.count, self.position) = (buffer, count, position)
            refillSlowly()
            (buffer, count, position) = (self.buffer, self.count, self.position)
        }
        if count < 32 { fill() }
        let (size, difference) = Self.codeWithValue(target.pointee.dc, &buffer, &count)
        guard size >= 0 && size <= 11 else {
            (self.buffer, self.count, self.position) = (buffer, count, position)
            return -1
        }
        let predictor = target.pointee.predictor &+ difference
        target.pointee.predictor = predictor
        block[0] = Int32(truncatingIfNeeded: predictor) &* steps[0]
        var last = 0
        var k = 1
        var ended = false
        while k <= target.pointee.keptLimit {
            if count < 32 { fill() }
            // One `coefficients` load: the bits of the code and its magnitude, the run and the extended value.
            let prefix = Int(buffer &>> UInt64(64 - HuffmanDecodingTable.lookaheadBits))
            let entry = Int(target.pointee.ac.coefficients[prefix])
            let length = entry & 31
            buffer &<<= UInt64(length)
            count &-= length
            var run = (entry &>> 8) & 0xFF, value = entry &>> 16
            if value == 0 {
                // An end of block, a ZRL, a magnitude past the prefix (bits 8–15 hold the symbol) or a longer code.
                var symbol = run
                if entry == 0 {
                    symbol = Self.slowSymbol(target.pointee.ac, &buffer, &count)
                    guard symbol >= 0 else { return -1 }
                }
                let size = symbol & 15
                run = symbol &>> 4
                if size == 0 {
                    if run == 15 {  // ZRL: sixteen zeros
                        k &+= 16
                        continue
                    }
                    ended = true  // EOB
                    break
                }
                let raw = Int(buffer &>> UInt64(64 - size))
                buffer &<<= UInt64(size)
                count &-= size
                value = raw < 1 &<< (size - 1) ? raw &- (1 &<< size) &+ 1 : raw
            }
            k &+= run
            // A dropped position's slot is 64, a scratch entry past the block, so there is no branch to mispredict;
            // so is every index past 63 a corrupt run reaches (the tables have 80), which the end checks.
            block[Int(slots[k])] = Int32(truncatingIfNeeded: value) &* steps[k]
            last = k
            k &+= 1
        }
        guard last < 64 else { return -1 }  // a coefficient past zig-zag 63
        // Past the last kept position (reduced scales) the codes are only stepped over: one `skips` load gives the
        // bits of a code and its magnitude and how far it moves k (an end of block moves it past 79); below
        // `pairLimit` one `pairs` load does that for two symbols when they fit.
        var step = HuffmanDecodingTable.skipZeroRun  // no coefficient read here yet
        // One loop body for both tables (a nested function for it kept the register in memory).
        var table = target.pointee.ac.pairs, limit = HuffmanDecodingTable.pairLimit
        while !ended {
            while k < limit {
                if count < 32 { fill() }
                step = Int(table[Int(buffer &>> UInt64(64 - HuffmanDecodingTable.lookaheadBits))])
                if step == 0 {
                    let symbol = Self.slowSymbol(target.pointee.ac, &buffer, &count)
                    guard symbol >= 0 else { return -1 }
                    step = HuffmanDecodingTable.skipEntry(symbol: symbol, codeLength: 0)
                }
                let length = step & 31
                buffer &<<= UInt64(length)
                count &-= length
                k &+= step &>> 8
            }
            if limit == 64 { break }
            (table, limit) = (target.pointee.ac.skips, 64)
        }
        // A coefficient past zig-zag 63 is corrupt (k = its index + 1); a ZRL that runs past the end is not, as
        // in the kept loop above.
        if k > 64 && k < HuffmanDecodingTable.skipEndOfBlock && step & HuffmanDecodingTable.skipZeroRun == 0 {
            return -1
        }
        (self.buffer, self.count, self.position) = (buffer, count, position)
        return last
    }

    /// One Huffman symbol and, for a symbol whose low nibble is a magnitude size, the extended magnitude
    /// (DECODE, RECEIVE and EXTEND of T.81 F.2.2.1); symbol -1 for a code the table does not contain. At least 31
    /// bits must be buffered. Where the code and its magnitude fit the lookahead, one load gives both.
    @inline(__always)
    static func codeWithValue(_ table: HuffmanLookup, _ buffer: inout UInt64, _ count: inout Int)
        -> (symbol: Int, value: Int)
    {
        let entry = Int(table.lookahead[Int(buffer &>> UInt64(64 - HuffmanDecodingTable.lookaheadBits))])
        var symbol: Int
        if entry != 0 {
            let length = entry & 31
            buffer &<<= UInt64(length)
            count &-= length
            symbol = (entry &>> 8) & 0xFF
            let value = entry &>> 16
            if value != 0 || symbol & 15 == 0 { return (symbol, value) }
        } else {
            symbol = slowSymbol(table, &buffer, &count)
            guard symbol >= 0 else { return (-1, 0) }
        }
        let size = symbol & 15
        guard size > 0 else { return (symbol, 0) }
        let raw = Int(buffer &>> UInt64(64 - size))
        buffer &<<= UInt64(size)
        count &-= size
        return (symbol, raw < 1 &<< (size - 1) ? raw &- (1 &<< size) &+ 1 : raw)
    }

    /// A code longer than the lookahead (Annex F.2.2.3's MAXCODE/VALPTR search), with the bits already buffered:
    /// the symbol, its code stepped over, or -1 for a code the table does not contain.
    @inline(__always)
    private static func slowSymbol(_ table: HuffmanLookup, _ buffer: inout UInt64, _ count: inout Int) -> Int {
        // The search takes the register by value: an inout argument of a call that is not inlined keeps the
        // caller's register in memory for the whole block loop.
        guard let (symbol, length) = longCode(table, buffer) else { return -1 }
        buffer &<<= UInt64(length)
        count &-= length
        return symbol
    }

    /// The search itself: the symbol and its code's length, or nil.
    private static func longCode(_ table: HuffmanLookup, _ buffer: UInt64) -> (symbol: Int, length: Int)? {
        for length in 1...16 {
            let code = Int(buffer >> UInt64(64 - length))
            if code <= table.maximumCode[length] {
                let index = code + table.valueOffset[length]
                return index >= 0 && index < table.valueCount ? (Int(table.values[index]), length) : nil
            }
        }
        return nil
    }

    /// At a restart interval boundary: drop the partial byte and step over the RSTm marker (T.81 F.2.2.5).
    mutating func restart() {
        // Only fill bits remain in the buffer (reading never passes a marker). Corrupt data may leave bytes of
        // the interval unread: resynchronise on the next RSTm.
        buffer = 0
        count = 0
        while position + 1 < end, !(data[position] == 0xFF && (0xD0...0xD7).contains(data[position + 1])) {
            position += 1
        }
        if position + 1 < end { position += 2 }
    }
}

/// The buffers of a `HuffmanDecodingTable` as plain pointers, for the sequential block loop (no reference counting).
struct HuffmanLookup {
    let lookahead: UnsafeMutablePointer<Int32>, coefficients: UnsafeMutablePointer<Int32>
    let skips: UnsafeMutablePointer<UInt16>, pairs: UnsafeMutablePointer<UInt16>
    let maximumCode: UnsafeMutablePointer<Int>, valueOffset: UnsafeMutablePointer<Int>
    let values: UnsafeMutablePointer<UInt8>, valueCount: Int
}

/// A DHT table ready for decoding: a 9-bit lookup for short codes, Annex F.2.2.3's MAXCODE/VALPTR for the rest.
/// A class over fixed buffers so the per-symbol lookups in the hot loop touch no reference counts.
final class HuffmanDecodingTable {
    /// `length << 8 | symbol` for every 9-bit prefix that starts with a code of at most 9 bits; 0 otherwise.
    let fast: UnsafeMutablePointer<UInt16>
    let maximumCode: UnsafeMutablePointer<Int>
    let valueOffset: UnsafeMutablePointer<Int>
    let values: [UInt8]
    /// Bits of lookahead in `lookahead`.
    static let lookaheadBits = 10
    /// For every `lookaheadBits`-bit prefix that starts with a code: the code's length plus, when the symbol's
    /// magnitude bits also fit, their length (bits 0–4), the symbol (bits 8–15) and, when they fit, the extended
    /// magnitude (bits 16–31, signed; non-zero exactly when it is there, as EXTEND never gives 0). 0 when the
    /// prefix starts with a longer code. Valid wherever a symbol's low nibble is the count of magnitude bits that
    /// follow: sequential scans (T.81 F.1.2), progressive DC and AC first scans, and AC refinement scans, whose
    /// size-1 symbols are followed by one sign bit (EXTEND gives ±1; G.1.2.3).
    let lookahead: UnsafeMutablePointer<Int32>
    /// For the AC codes of sequential scans up to the last kept position (T.81 F.2.2.2): for every
    /// `lookaheadBits`-bit prefix that starts with a code whose magnitude bits also fit, the bits of both (bits
    /// 0–4), the run of zeros before the coefficient (bits 8–15) and the extended magnitude (bits 16–31, never
    /// 0); for any other code within the prefix (end of block, ZRL, a longer magnitude) the code's length and the
    /// symbol in bits 8–15, so a zero magnitude is the one test the common coefficient needs; 0 for a longer code.
    let coefficients: UnsafeMutablePointer<Int32>
    /// For the AC codes of sequential scans past the last kept position: for every `lookaheadBits`-bit prefix that
    /// starts with a code, `skipEntry` of its symbol (the bits of the code and its magnitude, and how far the
    /// symbol moves the zig-zag index), whether or not the magnitude fits the prefix; 0 when the prefix starts
    /// with a longer code.
    let skips: UnsafeMutablePointer<UInt16>
    /// `skips` with two symbols in one entry where both fit the prefix (lengths and moves added, the second's ZRL
    /// flag), for zig-zag positions where a first symbol cannot end the block (below `pairLimit`).
    let pairs: UnsafeMutablePointer<UInt16>
    /// Below this zig-zag index a first symbol leaves the index at 63 or less (its move is at most 16), so a second
    /// code in the same prefix still belongs to the block.
    static let pairLimit = 48
    /// `values` again, at a stable address.
    let symbols: UnsafeMutablePointer<UInt8>

    /// The table's buffers; valid while the table lives.
    var lookup: HuffmanLookup {
        HuffmanLookup(
            lookahead: lookahead, coefficients: coefficients, skips: skips, pairs: pairs, maximumCode: maximumCode,
            valueOffset: valueOffset, values: symbols, valueCount: values.count)
    }

    /// Builds the table from the 16 code-length counts and the symbols (T.81 C.2, F.2.2.3); nil if the counts
    /// describe more codes than fit.
    init?(counts: [Int], values: [UInt8]) {
        var fast = [UInt16](repeating: 0, count: 512)
        var maximumCode = [Int](repeating: -1, count: 18)
        var valueOffset = [Int](repeating: 0, count: 18)
        var code = 0
        var index = 0
        for length in 1...16 {
            let number = counts[length - 1]
            valueOffset[length] = index - code
            for _ in 0..<number {
                guard code < 1 << length, index < values.count else { return nil }
                if length <= 9 {
                    let shift = 9 - length
                    let first = code << shift
                    for prefix in first..<(first + (1 << shift)) {
                        fast[prefix] = UInt16(length << 8) | UInt16(values[index])
                    }
                }
                code += 1
                index += 1
            }
            maximumCode[length] = number > 0 ? code - 1 : -1
            code <<= 1
        }
        self.values = values
        symbols = .allocate(capacity: max(values.count, 1))
        symbols.initialize(repeating: 0, count: max(values.count, 1))
        symbols.update(from: values, count: values.count)
        self.fast = .allocate(capacity: 512)
        self.fast.initialize(from: fast, count: 512)
        self.maximumCode = .allocate(capacity: 18)
        self.maximumCode.initialize(from: maximumCode, count: 18)
        self.valueOffset = .allocate(capacity: 18)
        self.valueOffset.initialize(from: valueOffset, count: 18)
        let bits = Self.lookaheadBits
        lookahead = .allocate(capacity: 1 << bits)
        lookahead.initialize(repeating: 0, count: 1 << bits)
        coefficients = .allocate(capacity: 1 << bits)
        coefficients.initialize(repeating: 0, count: 1 << bits)
        skips = .allocate(capacity: 1 << bits)
        skips.initialize(repeating: 0, count: 1 << bits)
        code = 0
        index = 0
        for length in 1...16 {
            for _ in 0..<counts[length - 1] {
                defer { code += 1; index += 1 }
                guard length <= bits else { continue }
                let symbol = Int(values[index]), size = symbol & 15
                let first = code << (bits - length)
                (skips + first).update(
                    repeating: UInt16(Self.skipEntry(symbol: symbol, codeLength: length)), count: 1 << (bits - length))
                for prefix in first..<(first + (1 << (bits - length))) {
                    var entry = symbol << 8 | length, coefficient = entry
                    if size > 0 && length + size <= bits {
                        // The magnitude bits follow the code inside the prefix (RECEIVE and EXTEND, F.2.2.1).
                        let raw = (prefix >> (bits - length - size)) & ((1 << size) - 1)
                        let value = raw < 1 << (size - 1) ? raw - (1 << size) + 1 : raw
                        entry = value << 16 | symbol << 8 | (length + size)
                        coefficient = value << 16 | (symbol >> 4) << 8 | (length + size)
                    }
                    lookahead[prefix] = Int32(truncatingIfNeeded: entry)
                    coefficients[prefix] = Int32(truncatingIfNeeded: coefficient)
                }
            }
            code <<= 1
        }
        // A second symbol joins the first when both codes and magnitudes fit the prefix and the first is not an
        // end of block. Prefix-free codes make the second lookup exact: its code lies inside the prefix's own bits.
        pairs = .allocate(capacity: 1 << bits)
        for prefix in 0..<(1 << bits) {
            let first = Int(skips[prefix]), firstLength = first & 31
            var entry = first
            if first != 0 && firstLength < bits && first >> 8 != Self.skipEndOfBlock {
                let second = Int(skips[(prefix << firstLength) & ((1 << bits) - 1)]), secondLength = second & 31
                if second != 0 && firstLength + secondLength <= bits {
                    let move = (first >> 8) + (second >> 8)
                    entry = move << 8 | (second & Self.skipZeroRun) | (firstLength + secondLength)
                }
            }
            pairs[prefix] = UInt16(entry)
        }
    }

    /// `skips`' entry bits: an end of block moves the zig-zag index by this (so it ends at 80 or more, past any
    /// index a run reaches), and a ZRL is flagged, as it may run past 63 where a coefficient may not.
    static let skipEndOfBlock = 80, skipZeroRun = 32

    /// The `skips` entry of an AC `symbol` whose code is `codeLength` bits: code plus magnitude bits (bits 0–4,
    /// at most 31), the ZRL flag (bit 5) and the move of the zig-zag index (bits 8–15): run + 1 for a coefficient,
    /// 16 for ZRL, `skipEndOfBlock` for any other symbol of size 0 (EOB, as T.81 F.2.2.2 reads it).
    static func skipEntry(symbol: Int, codeLength: Int) -> Int {
        let run = symbol >> 4, size = symbol & 15
        if size != 0 { return (run + 1) << 8 | (codeLength + size) }
        return run == 15 ? 16 << 8 | skipZeroRun | codeLength : skipEndOfBlock << 8 | codeLength
    }

    deinit {
        fast.deallocate()
        maximumCode.deallocate()
        valueOffset.deallocate()
        lookahead.deallocate()
        coefficients.deallocate()
        skips.deallocate()
        pairs.deallocate()
        symbols.deallocate()
    }
}
