/// A Huffman table as JPEG stores it (ITU T.81 B.2.4.2): how many codes of each length 1...16, and the symbols in
/// code order.
struct HuffmanSpec {
    /// `counts[i]` is the number of codes of length i + 1.
    package var counts: [UInt8]
    /// The symbols, shortest codes first.
    package var symbols: [UInt8]

    @_optimize(size) package init(counts: [UInt8], symbols: [UInt8]) {
        self.counts = counts
        self.symbols = symbols
    }

    // MARK: Annex K.3 example tables (used when optimisation is off)

    static let luminanceDC = HuffmanSpec(
        counts: [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0], symbols: Array(0...11 as ClosedRange<UInt8>))
    static let chrominanceDC = HuffmanSpec(
        counts: [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], symbols: Array(0...11 as ClosedRange<UInt8>))
    static let luminanceAC = HuffmanSpec(
        counts: [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 125],
        symbols: completedAC(prefix: [
            0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07,
            0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xA1, 0x08, 0x23, 0x42, 0xB1, 0xC1, 0x15, 0x52, 0xD1, 0xF0,
            0x24, 0x33, 0x62, 0x72, 0x82,
        ]))
    static let chrominanceAC = HuffmanSpec(
        counts: [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 119],
        symbols: completedAC(prefix: [
            0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71,
            0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xA1, 0xB1, 0xC1, 0x09, 0x23, 0x33, 0x52, 0xF0,
            0x15, 0x62, 0x72, 0xD1, 0x0A, 0x16, 0x24, 0x34, 0xE1, 0x25, 0xF1,
        ]))

    /// In the Annex K AC tables every symbol with a 16-bit code comes after the shorter ones in ascending order,
    /// so a table is its short-code prefix followed by every other AC symbol (run 0...15, size 1...10) ascending.
    @_optimize(size) private static func completedAC(prefix: [UInt8]) -> [UInt8] {
        var listed = [Bool](repeating: false, count: 256)
        for symbol in prefix { listed[Int(symbol)] = true }
        var symbols = prefix
        for run in 0..<16 {
            for size in 1...10 where !listed[run << 4 | size] {
                symbols.append(UInt8(run << 4 | size))
            }
        }
        return symbols
    }

    // MARK: Optimised tables (Annex K.2)

    /// The optimal table for symbol `frequencies` (256 entries) with code lengths limited to 16 bits, built by the
    /// procedure of Annex K.2 (Figures K.1–K.4). A reserved pseudo-symbol keeps any real code from being all ones.
    @_optimize(size) package init(frequencies: [Int]) {
        var frequencies = frequencies
        var codeSize = Self.codeSizes(frequencies)
        // Figure K.3 assumes no code longer than 32 bits; only a skewed count from a huge image can make one. Halving
        // the counts (keeping every used symbol) flattens the tree at a negligible cost in size.
        while codeSize.contains(where: { $0 > 32 }) {
            frequencies = frequencies.map { $0 == 0 ? 0 : ($0 + 1) / 2 }
            codeSize = Self.codeSizes(frequencies)
        }
        self.init(codeSizes: codeSize)
    }

    /// Figure K.1: the unconstrained code size of each of the 256 symbols and the reserved one (index 256).
    @_optimize(size) private static func codeSizes(_ frequencies: [Int]) -> [Int] {
        var freq = frequencies + [1]  // index 256: the reserved symbol
        var codeSize = [Int](repeating: 0, count: 257)
        var others = [Int](repeating: -1, count: 257)

        // Figure K.1: repeatedly merge the two least frequent trees.
        while true {
            var v1 = -1, v2 = -1
            for v in 0..<257 where freq[v] > 0 {
                // Ties go to the higher symbol value (the reserved symbol first), so it gets the longest code.
                if v1 < 0 || freq[v] <= freq[v1] {
                    v2 = v1
                    v1 = v
                } else if v2 < 0 || freq[v] <= freq[v2] {
                    v2 = v
                }
            }
            guard v2 >= 0 else { break }
            freq[v1] += freq[v2]
            freq[v2] = 0
            var node = v1
            codeSize[node] += 1
            while others[node] >= 0 {
                node = others[node]
                codeSize[node] += 1
            }
            others[node] = v2
            node = v2
            codeSize[node] += 1
            while others[node] >= 0 {
                node = others[node]
                codeSize[node] += 1
            }
        }
        return codeSize
    }

    /// Figures K.2–K.4: counts per length (limited to 16 bits) and symbols in code order.
    @_optimize(size) private init(codeSizes codeSize: [Int]) {
        // Figure K.2: count codes of each size (sizes can exceed 16 before adjustment).
        var bits = [Int](repeating: 0, count: 33)
        for v in 0..<257 where codeSize[v] > 0 {
            bits[codeSize[v]] += 1
        }
        // Figure K.3: move codes longer than 16 bits up the tree, then drop the reserved code.
        for i in stride(from: 32, to: 16, by: -1) {
            while bits[i] > 0 {
                var j = i - 2
                while j > 0 && bits[j] == 0 { j -= 1 }
                bits[i] -= 2
                bits[i - 1] += 1
                bits[j + 1] += 2
                bits[j] -= 1
            }
        }
        var longest = 16
        while longest > 0 && bits[longest] == 0 { longest -= 1 }
        if longest > 0 { bits[longest] -= 1 }

        // Figure K.4: symbols ordered by code size, then by value.
        var symbols: [UInt8] = []
        for size in 1...32 {
            for v in 0..<256 where codeSize[v] == size {
                symbols.append(UInt8(v))
            }
        }
        counts = (1...16).map { UInt8(bits[$0]) }
        self.symbols = symbols
    }
}

/// A Huffman table ready for encoding: for each symbol, its code and length packed as `code << 8 | length`, so the
/// hot loop does one load per symbol.
struct HuffmanEncodingTable {
    /// 256 packed entries; length 0 means the symbol has no code.
    package let packed: [UInt32]

    /// Builds the canonical codes of Annex C (Figures C.1–C.3) from a stored table.
    @_optimize(size) package init(_ spec: HuffmanSpec) {
        var packed = [UInt32](repeating: 0, count: 256)
        var code: UInt32 = 0
        var index = 0
        for length in 1...16 {
            for _ in 0..<Int(spec.counts[length - 1]) where index < spec.symbols.count {
                packed[Int(spec.symbols[index])] = code << 8 | UInt32(length)
                code += 1
                index += 1
            }
            code <<= 1
        }
        self.packed = packed
    }
}
