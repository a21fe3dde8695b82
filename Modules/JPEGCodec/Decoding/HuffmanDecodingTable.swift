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
