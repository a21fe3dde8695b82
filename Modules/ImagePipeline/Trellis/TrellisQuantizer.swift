/// Rate–distortion optimised quantisation of the AC coefficients of 8×8 blocks ("trellis quantisation").
///
/// Rounding each coefficient to the nearest step minimises distortion alone. Here, per block, the encoder chooses
/// the quantised values that minimise `D + λ·R` instead: `D` is the squared error of the coefficients measured in
/// quantiser steps (the DCT-domain error of coefficient k weighted by 1/Q_k², which is the same as a λ scaled by
/// Q_k² in unweighted terms, the usual choice for JPEG), and `R` the bits the block's AC symbols cost with the
/// Huffman code lengths that will be written (code plus extra bits, zero-run symbols, end of block).
///
/// Each coefficient whose rounded value is non-zero may keep it, move one step toward zero (only when that is not
/// zero itself) or become zero; coefficients that round to zero stay zero (a larger value never lowers either
/// term). A dynamic programme over those candidate positions in zig-zag order finds the best block: the state is
/// the position of the last non-zero coefficient, because the cost of the next symbol depends only on the zero run
/// since then and on the next value's size category. The DC coefficient is left as rounded.
///
/// λ is adapted per block the way perceptual trellis encoders do: a busy block hides error, so its λ grows with
/// the block's AC energy, `λ_block = λ · (1 + E / masking)`, E the mean square of its AC coefficients (≈ the
/// variance of its pixels); smooth blocks, where SSIM and the eye notice error, keep λ.
///
/// Work is O(n²) per block in the number n of coefficients that round to non-zero, small for the qualities
/// photos use; blocks whose AC is all zero cost nothing.
final class TrellisQuantizer {
    /// λ: how many squared quantiser steps of error one bit is worth, in a smooth block.
    let lambda: Float
    /// The AC energy (mean square of the orthonormal DCT coefficients) at which a block's λ doubles; 0 for none.
    let masking: Float
    /// The quantiser steps in zig-zag order, luma then chroma: they turn a coefficient in steps back into its
    /// value for the block's energy.
    private let steps: UnsafeMutablePointer<Float>
    /// Per AC table (0 luma, 1 chroma), per size category s (0...15) and zero run r (0...62), the bits of
    /// the symbols that code run r followed by a value of size s: r / 16 ZRL codes, the (r % 16, s) code and s
    /// extra bits. Stored size-major so the inner loop walks runs contiguously. A symbol the table cannot code
    /// costs `forbidden`.
    private let runCosts: UnsafeMutablePointer<Float>
    /// The bits of end of block, per table.
    private let endOfBlockCosts: (Float, Float)

    /// Costs at or above this mark a path that cannot be coded with the tables.
    private static let forbidden: Float = 1e20
    private static let runsPerSize = 64
    private static let sizes = 16
    private static let costsPerTable = sizes * runsPerSize

    /// Per block scratch, one entry per candidate plus the DC position: zig-zag position, |x| in steps, rounded
    /// magnitude, best cost of a prefix ending with this candidate non-zero, its predecessor and chosen magnitude.
    private let scratch: UnsafeMutableRawPointer
    private let positions: UnsafeMutablePointer<Int32>
    private let values: UnsafeMutablePointer<Float>
    private let magnitudes: UnsafeMutablePointer<Int32>
    private let best: UnsafeMutablePointer<Float>
    private let previous: UnsafeMutablePointer<Int32>
    private let chosen: UnsafeMutablePointer<Int32>

    /// A quantizer for the quantisation tables `quantization` (index 0 luma, 1 chroma) whose rates are the code
    /// lengths of `ac` (a missing chroma table reuses the luma one).
    init(ac: [HuffmanSpec], quantization: [QuantizationTable], lambda: Float, masking: Float) {
        self.lambda = lambda
        self.masking = masking
        steps = .allocate(capacity: 128)
        for table in 0..<2 {
            let spec = table < quantization.count ? quantization[table] : quantization.first
            for k in 0..<64 { steps[table * 64 + k] = Float(spec?.steps[ZigZag.naturalIndex[k]] ?? 1) }
        }
        runCosts = .allocate(capacity: 2 * Self.costsPerTable)
        var endOfBlock: [Float] = [0, 0]
        for table in 0..<2 {
            let spec = table < ac.count ? ac[table] : ac.first ?? HuffmanSpec.luminanceAC
            let lengths = HuffmanEncodingTable(spec).packed.map { Int($0 & 0xFF) }
            // Bits, or `forbidden` when a symbol has no code.
            func cost(_ symbols: [Int], extra: Int) -> Float {
                guard symbols.allSatisfy({ lengths[$0] > 0 }) else { return Self.forbidden }
                return Float(symbols.reduce(extra) { $0 + lengths[$1] })
            }
            endOfBlock[table] = cost([0x00], extra: 0)
            let base = runCosts + table * Self.costsPerTable
            for size in 0..<Self.sizes {
                for run in 0..<Self.runsPerSize {
                    let symbols = Array(repeating: 0xF0, count: run >> 4) + [(run & 15) << 4 | size]
                    base[size * Self.runsPerSize + run] = (1...10).contains(size)
                        ? cost(symbols, extra: size) : Self.forbidden
                }
            }
        }
        endOfBlockCosts = (endOfBlock[0], endOfBlock[1])
        let entries = 65
        scratch = .allocate(byteCount: entries * 4 * 6, alignment: 16)
        positions = scratch.bindMemory(to: Int32.self, capacity: entries)
        values = (scratch + entries * 4).bindMemory(to: Float.self, capacity: entries)
        magnitudes = (scratch + entries * 8).bindMemory(to: Int32.self, capacity: entries)
        best = (scratch + entries * 12).bindMemory(to: Float.self, capacity: entries)
        previous = (scratch + entries * 16).bindMemory(to: Int32.self, capacity: entries)
        chosen = (scratch + entries * 20).bindMemory(to: Int32.self, capacity: entries)
    }

    deinit {
        runCosts.deallocate()
        steps.deallocate()
        scratch.deallocate()
    }

    /// Re-decides the AC coefficients of the first `lanes` blocks of one group of eight, after
    /// `ForwardDCT.quantize` has rounded them: `transformed` is the group's AAN output (natural order, still in
    /// place), `multipliers` and `scanOrder` are those quantisation used (zig-zag order), and `coefficients` the
    /// group's quantised output, whose values and non-zero masks are rewritten.
    func refine(
        _ transformed: UnsafePointer<SIMD8<Float>>, multipliers: UnsafePointer<Float>,
        scanOrder: UnsafePointer<Int32>, coefficients: UnsafeMutablePointer<SIMD8<Int32>>, lanes: Int, table: Int
    ) {
        let samples = UnsafeRawPointer(transformed).assumingMemoryBound(to: Float.self)
        let quantized = UnsafeMutableRawPointer(coefficients).assumingMemoryBound(to: Int32.self)
        let costs = UnsafePointer(runCosts + (table == 0 ? 0 : Self.costsPerTable))
        let endOfBlock = table == 0 ? endOfBlockCosts.0 : endOfBlockCosts.1
        let steps = UnsafePointer(self.steps + (table == 0 ? 0 : 64))
        // Squared steps of error per bit → weight of distortion against bits. λ = 0 means rounding: a weight so
        // large that no rate matters, yet small enough that a symbol without a code (`forbidden`) never wins.
        let smoothWeight = 1 / max(lambda, 1e-12)
        let energyScale = masking > 0 ? 1 / (63 * masking) : 0
        for lane in 0..<min(lanes, 8) {
            let block = quantized + lane
            let low = UInt64(UInt32(bitPattern: block[64 &* 8]))
            let high = UInt64(UInt32(bitPattern: block[65 &* 8]))
            let mask = high &<< 32 | low
            var candidates = mask & ~1
            guard candidates != 0 else { continue }
            var count = 0
            var energy: Float = 0
            while candidates != 0 {
                let k = candidates.trailingZeroBitCount
                candidates &= candidates &- 1
                count &+= 1
                positions[count] = Int32(truncatingIfNeeded: k)
                let x = samples[Int(scanOrder[k]) &* 8 &+ lane] * multipliers[k]
                values[count] = x < 0 ? -x : x
                let coefficient = x * steps[k]
                energy += coefficient * coefficient
                let rounded = block[k &* 8]
                magnitudes[count] = min(1023, rounded < 0 ? 0 &- rounded : rounded)
            }
            // The zeros of the block add nothing to its energy; rounded zeros are small, so this is close.
            let weight = smoothWeight / (1 + energy * energyScale)
            let kept = solve(count: count, costs: costs, endOfBlock: endOfBlock, weight: weight)
            // Write the chosen values back with their signs and rebuild the mask.
            var newMask = mask & 1
            for index in 1...count {
                let k = Int(positions[index])
                let magnitude = (kept >> UInt64(k)) & 1 == 0 ? 0 : chosen[index]
                let rounded = block[k &* 8]
                block[k &* 8] = rounded < 0 ? 0 &- magnitude : magnitude
                if magnitude != 0 { newMask |= 1 &<< UInt64(k) }
            }
            block[64 &* 8] = Int32(bitPattern: UInt32(truncatingIfNeeded: newMask))
            block[65 &* 8] = Int32(bitPattern: UInt32(truncatingIfNeeded: newMask >> 32))
        }
    }

    /// The dynamic programme over the `count` candidates in scratch, with distortion counted `weight` times (1/λ
    /// of the block) against bits; returns the mask of positions kept non-zero
    /// (their magnitudes are in `chosen`).
    @inline(__always)
    private func solve(count: Int, costs: UnsafePointer<Float>, endOfBlock: Float, weight: Float) -> UInt64 {
        positions[0] = 0
        best[0] = 0
        let stride = Self.runsPerSize
        for i in 1...count {
            let position = positions[i]
            let x = values[i]
            let a = magnitudes[i]
            // Distortion of each option relative to zeroing this coefficient: m² − 2·m·|x|. Equal costs keep the
            // later predecessor (more coefficients), so λ = 0 reproduces rounding exactly.
            let fa = Float(a)
            let gainA = weight * (fa * (fa - 2 * x))
            let sizeA = 32 &- a.leadingZeroBitCount
            let rowA = costs + Int(sizeA) &* stride
            var bestA = Self.forbidden * 4
            var fromA: Int32 = 0
            if a >= 2 {
                let b = a &- 1
                // (x − b)² − (x − a)² = 1 − 2·(a − x), with a − x exact: ties of the two options are exact too.
                let gainB = gainA + weight * (1 - 2 * (fa - x))
                let sizeB = 32 &- b.leadingZeroBitCount
                let rowB = costs + Int(sizeB) &* stride
                var bestB = Self.forbidden * 4
                var fromB: Int32 = 0
                for j in 0..<i {
                    let run = Int(position &- positions[j] &- 1)
                    let base = best[j]
                    let costA = base + rowA[run]
                    let costB = base + rowB[run]
                    if costA <= bestA { bestA = costA; fromA = Int32(truncatingIfNeeded: j) }
                    if costB <= bestB { bestB = costB; fromB = Int32(truncatingIfNeeded: j) }
                }
                bestA += gainA
                bestB += gainB
                if bestB < bestA {
                    best[i] = bestB
                    previous[i] = fromB
                    chosen[i] = b
                    continue
                }
            } else {
                for j in 0..<i {
                    let run = Int(position &- positions[j] &- 1)
                    let cost = best[j] + rowA[run]
                    if cost <= bestA { bestA = cost; fromA = Int32(truncatingIfNeeded: j) }
                }
                bestA += gainA
            }
            best[i] = bestA
            previous[i] = fromA
            chosen[i] = a
        }
        // Close the block: end of block after the last kept coefficient unless it is the 63rd.
        var last = 0
        var total = endOfBlock
        for j in 1...count {
            let cost = best[j] + (positions[j] == 63 ? 0 : endOfBlock)
            if cost <= total { total = cost; last = j }
        }
        var kept: UInt64 = 0
        while last > 0 {
            kept |= 1 &<< UInt64(positions[last])
            last = Int(previous[last])
        }
        return kept
    }
}
