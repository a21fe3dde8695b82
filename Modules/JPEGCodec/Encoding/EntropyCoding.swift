/// What the block coder does with each Huffman symbol: write it (`HuffmanBlockWriter`) or count it for an optimised
/// table (`SymbolCounter`). Both run the same walk over the coefficients, so the counts always match what is written.
protocol SymbolConsumer: ~Copyable {
    /// Called before each MCU with the number of blocks it holds.
    mutating func beginMCU(blocks: Int)
    /// Called before the MCU that follows restart marker number `index` (0, 1, …).
    mutating func restart(_ index: Int)
    /// A DC symbol (the magnitude category of the difference) with its `extraLength` extra bits.
    mutating func dc(_ symbol: Int, extra: UInt64, extraLength: Int, table: Int)
    /// An AC symbol (run << 4 | size) with its extra bits; 0x00 is end-of-block and 0xF0 a run of 16 zeros.
    mutating func ac(_ symbol: Int, extra: UInt64, extraLength: Int, table: Int)
    /// `length` (1...32) bits sent as they are, outside any Huffman code: the correction bits of progressive
    /// refinement scans (T.81 G.1.2.1, G.1.2.3).
    mutating func raw(_ bits: UInt64, length: Int)
}

/// The magnitude category of `value` (T.81 F.1.2.1: bits needed for |value|) and its extra bits: the value itself
/// when positive, value − 1 (one's complement) when negative, keeping only the low `size` bits.
@inline(__always)
func magnitude(_ value: Int32) -> (size: Int, bits: UInt64) {
    let sign = value &>> 31  // 0 or −1
    let absolute = (value ^ sign) &- sign
    let size = 32 - absolute.leadingZeroBitCount
    let bits = UInt64(truncatingIfNeeded: UInt32(bitPattern: value &+ sign)) & ((1 &<< UInt64(size)) &- 1)
    return (size, bits)
}

/// Every value's magnitude category and extra bits (`magnitude`) looked up instead of computed: entry `v & 4095`
/// holds `bits << 4 | size` for each `v` in −2,048...2,047 (baseline AC values stay within ±1,023). One load
/// replaces the sign, absolute value, bit count and mask of the computation, about ten instructions for each
/// non-zero AC coefficient, the block coder's busiest step on detailed photos. Indexing by the low twelve bits keeps
/// every read inside the table whatever the value.
struct MagnitudeTable: ~Copyable {
    let entries: UnsafeMutablePointer<UInt16>
    /// Bytes a table holds.
    static let byteCount = 4096 * 2

    init() {
        entries = .allocate(capacity: 4096)
        for index in 0..<4096 {
            let (size, bits) = magnitude(Int32(index < 2048 ? index : index - 4096))
            entries[index] = UInt16(truncatingIfNeeded: bits &<< 4 | UInt64(size))
        }
    }

    deinit { entries.deallocate() }
}

/// Entropy-codes one 8×8 block of quantized coefficients (T.81 F.1.2): the DC difference from `previousDC`, then
/// the AC coefficients in zig-zag order as (zero run, size) symbols.
///
/// `coefficients` points at coefficient 0 of the block inside a lane-interleaved buffer stored in zig-zag order
/// (quantization writes it so), so the k-th coefficient of the scan is at `coefficients[k * 8]`, followed by the
/// block's 64-bit non-zero mask; `magnitudes` is a `MagnitudeTable`'s entries. The walk jumps from one non-zero
/// coefficient to the next with a trailing-zero count: photos at usual qualities leave most coefficients zero, and this skips them without a branch each.
@inline(__always)
func codeBlock<Consumer: SymbolConsumer & ~Copyable>(
    _ coefficients: UnsafePointer<Int32>, previousDC: inout Int32, dcTable: Int, acTable: Int,
    magnitudes: UnsafePointer<UInt16>, into consumer: inout Consumer
) {
    let dc = coefficients[0]
    let (dcSize, dcBits) = magnitude(dc &- previousDC)
    previousDC = dc
    consumer.dc(dcSize, extra: dcBits, extraLength: dcSize, table: dcTable)

    // The mask quantization stored after the 64 coefficients, without the DC bit.
    let low = UInt64(UInt32(bitPattern: coefficients[64 &* 8]))
    let high = UInt64(UInt32(bitPattern: coefficients[65 &* 8]))
    var nonZero = (high &<< 32 | low) & ~1
    var last = 0
    while nonZero != 0 {
        let k = nonZero.trailingZeroBitCount
        nonZero &= nonZero &- 1
        var run = k &- last &- 1
        while run >= 16 {
            consumer.ac(0xF0, extra: 0, extraLength: 0, table: acTable)
            run &-= 16
        }
        // Baseline AC sizes stop at 10 (|v| ≤ 1023): quantization clamps when a step of 1 could exceed it.
        let entry = Int(magnitudes[Int(truncatingIfNeeded: coefficients[k &* 8]) & 0xFFF])
        let size = entry & 15
        consumer.ac(run &<< 4 | size, extra: UInt64(truncatingIfNeeded: entry &>> 4), extraLength: size, table: acTable)
        last = k
    }
    if last != 63 {
        consumer.ac(0x00, extra: 0, extraLength: 0, table: acTable)
    }
}

/// Writes symbols with fixed tables through a `BitWriter`.
struct HuffmanBlockWriter: SymbolConsumer, ~Copyable {
    var bits: BitWriter
    /// Per symbol its code already shifted left by the number of extra bits the symbol carries, and the length of
    /// code and extra bits together (`shifted << 8 | total`), 256 entries each: DC tables 0 and 1, then AC tables 0
    /// and 1. One load and one shift-or then put a symbol and its extra bits.
    let tables: UnsafeMutablePointer<UInt64>

    init(dc: [HuffmanEncodingTable], ac: [HuffmanEncodingTable], bits: consuming BitWriter) {
        self.bits = bits
        tables = .allocate(capacity: 4 * 256)
        tables.initialize(repeating: 0, count: 4 * 256)
        for (index, table) in dc.prefix(2).enumerated() { use(table, ac: false, slot: index) }
        for (index, table) in ac.prefix(2).enumerated() { use(table, ac: true, slot: index) }
    }

    deinit { tables.deallocate() }

    /// The extra bits that follow a symbol (T.81 F.1.2, G.1.2.2): a DC symbol is their count; an AC symbol's low
    /// nibble is, except for the run symbols with a zero low nibble: ZRL (0xF0) has none and EOBn (n << 4) has n.
    static func extraBits(symbol: Int, ac: Bool) -> Int {
        guard ac else { return symbol }
        let size = symbol & 15
        return size != 0 || symbol == 0xF0 ? size : symbol >> 4
    }

    @inline(__always)
    mutating func beginMCU(blocks: Int) {
        // A block codes to at most 1 + 63 codes of ≤ 26 bits each, under 210 bytes; 0xFF stuffing can double it.
        bits.reserve(blocks &* 420 &+ 16)
    }

    mutating func restart(_ index: Int) {
        bits.flushBits()
        bits.writeRaw(Markers.restart(index))
    }

    @inline(__always)
    private mutating func emit(_ entry: UInt64, extra: UInt64) {
        bits.put(entry &>> 8 | extra, length: Int(truncatingIfNeeded: entry & 0xFF))
    }

    @inline(__always)
    mutating func dc(_ symbol: Int, extra: UInt64, extraLength: Int, table: Int) {
        emit(tables[table &* 256 &+ symbol], extra: extra)
    }

    @inline(__always)
    mutating func ac(_ symbol: Int, extra: UInt64, extraLength: Int, table: Int) {
        emit(tables[512 &+ table &* 256 &+ symbol], extra: extra)
    }

    @inline(__always)
    mutating func raw(_ bits: UInt64, length: Int) {
        self.bits.put(bits, length: length)
    }

    /// Replaces one table: the next scan of a progressive frame brings its own (`ac` false for DC).
    mutating func use(_ table: HuffmanEncodingTable, ac: Bool, slot: Int) {
        let start = (ac ? 512 : 0) + slot * 256
        for symbol in 0..<256 {
            let packed = UInt64(table.packed[symbol])
            let extra = UInt64(Self.extraBits(symbol: symbol, ac: ac))
            let length = packed & 0xFF
            // A symbol without a code keeps length 0 (never emitted).
            tables[start + symbol] = length == 0 ? 0 : ((packed >> 8) << extra) << 8 | (length + extra)
        }
    }
}

/// Counts symbols per table for the optimised-table pass (Annex K.2 needs only the frequencies).
struct SymbolCounter: SymbolConsumer, ~Copyable {
    /// 256 counts per table: DC tables 0 and 1, then AC tables 0 and 1.
    private let counts: UnsafeMutablePointer<Int>

    init() {
        counts = .allocate(capacity: 4 * 256)
        counts.initialize(repeating: 0, count: 4 * 256)
    }

    deinit { counts.deallocate() }

    func beginMCU(blocks: Int) {}
    func restart(_ index: Int) {}
    func raw(_ bits: UInt64, length: Int) {}

    @inline(__always)
    mutating func dc(_ symbol: Int, extra: UInt64, extraLength: Int, table: Int) {
        counts[table &* 256 &+ symbol] &+= 1
    }

    @inline(__always)
    mutating func ac(_ symbol: Int, extra: UInt64, extraLength: Int, table: Int) {
        counts[512 &+ table &* 256 &+ symbol] &+= 1
    }

    /// The counts of one table: `ac` false for DC, true for AC.
    func frequencies(ac: Bool, table: Int) -> [Int] {
        let start = (ac ? 512 : 0) + table * 256
        return Array(UnsafeBufferPointer(start: counts + start, count: 256))
    }
}
