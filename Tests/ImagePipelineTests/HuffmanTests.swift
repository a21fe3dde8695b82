@testable import ImagePipeline
@testable import JPEGCodec
import Testing

/// Annex K.2 optimised tables: valid prefix codes of at most 16 bits, shorter codes for frequent symbols.
@Suite struct HuffmanTests {
    /// Kraft sum of the code lengths in units of 2⁻¹⁶; below 2¹⁶ when the all-ones code is left free.
    private func kraft(_ spec: HuffmanSpec) -> Int {
        spec.counts.enumerated().reduce(0) { $0 + Int($1.element) << (15 - $1.offset) }
    }

    @Test("skewed (Fibonacci) frequencies still give codes of at most 16 bits")
    func lengthLimit() {
        var frequencies = [Int](repeating: 0, count: 256)
        var a = 1, b = 1
        for symbol in 0..<40 {
            frequencies[symbol] = a
            (a, b) = (b, a + b)
        }
        let spec = HuffmanSpec(frequencies: frequencies)
        #expect(spec.counts.count == 16)
        #expect(spec.symbols.count == 40)
        #expect(kraft(spec) < 1 << 16)
        let lengths = HuffmanEncodingTable(spec).packed.map { $0 & 0xFF }
        #expect(lengths[39] <= lengths[20] && lengths[20] <= lengths[0], "frequent symbols get shorter codes")
        #expect(lengths[0] == 16 && lengths[0...39].allSatisfy { $0 > 0 })
    }

    @Test("a single used symbol gets a one-bit code that is not all ones")
    func singleSymbol() {
        var frequencies = [Int](repeating: 0, count: 256)
        frequencies[0] = 1000
        let spec = HuffmanSpec(frequencies: frequencies)
        #expect(spec.symbols == [0])
        #expect(spec.counts[0] == 1)
        #expect(HuffmanEncodingTable(spec).packed[0] == 0 << 8 | 1)
    }

    @Test("the Annex K example tables are complete: 12 DC and 162 AC symbols")
    func exampleTables() {
        for spec in [HuffmanSpec.luminanceDC, .chrominanceDC] {
            #expect(spec.symbols.count == 12 && spec.counts.reduce(0) { $0 + Int($1) } == 12)
        }
        for spec in [HuffmanSpec.luminanceAC, .chrominanceAC] {
            #expect(spec.symbols.count == 162 && Set(spec.symbols).count == 162)
            #expect(spec.counts.reduce(0) { $0 + Int($1) } == 162)
            #expect(kraft(spec) < 1 << 16)
        }
    }
}
