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
