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
/// The programme is built for speed (it runs on every block of the image, twice for the blocks of counting
/// strips): one pass over the candidates extracts each one, prices it and closes the block after it; a candidate's
/// predecessor is searched among the `window` candidates before it only (unrolled, branch-free selects), so zeroing
/// is limited to runs of `window − 1` consecutive candidates *between* kept ones, while a tail of any length can
/// still be dropped by ending the block early (the end-of-block choice considers every candidate). Zeroing more
/// than three non-zero coefficients and then keeping a later one practically never pays: an unbounded search over
/// every predecessor wrote within 0.03% of the same bytes at the same PSNR on the benchmark photo (see
/// Docs/ImagePipeline.md). Blocks whose AC rounds to zero cost one mask test; the write-back touches only the
/// candidates kept (and those dropped).
///
/// λ can be adapted per block the way perceptual trellis encoders do (`masking`, off by default): a busy block hides
/// error, so its λ grows with the block's AC energy, `λ_block = λ · (1 + E / masking)`, E the mean square of its AC
/// coefficients (≈ the variance of its pixels).
final class TrellisQuantizer {
    /// λ: how many squared quantiser steps of error one bit is worth, in a smooth block.
    let lambda: Float
    /// The AC energy (mean square of the orthonormal DCT coefficients) at which a block's λ doubles; 0 for none.
    let masking: Float
    /// The quantiser steps in zig-zag order, luma then chroma: they turn a coefficient in steps back into its
    /// value for the block's energy.
    private let steps: UnsafeMutablePointer<Float>
    /// Per AC table (0 luma, 1 chroma), per size category s (0...15) and zero run r (0...63), the bits of
    /// the symbols that code run r followed by a value of size s: r / 16 ZRL codes, the (r % 16, s) code and s
    /// extra bits. Stored size-major so one row serves a candidate's every predecessor. A symbol the table cannot
    /// code, and size 0 (a value lowered to zero, which is not an option), cost `forbidden`.
    private let runCosts: UnsafeMutablePointer<Float>
    /// The bits of end of block, per table.
    private let endOfBlockCosts: (Float, Float)

    /// How many candidates before a candidate the programme considers as its predecessor.
    static let window = 4
    /// Costs at or above this mark a path that cannot be coded with the tables.
    private static let forbidden: Float = 1e20
    /// The cost of the sentinel nodes before the start node (never chosen, but always safe to add to).
    private static let unreachable: Float = 1e30
    private static let runsPerSize = 64
    private static let sizes = 16
    private static let costsPerTable = sizes * runsPerSize

    /// Per block scratch, one node per candidate after the start node 0 (the DC position), and `window` sentinel
    /// nodes before it so the unrolled predecessor search never leaves the arrays: zig-zag position, best cost of
    /// a prefix ending with this candidate non-zero, its predecessor and chosen magnitude.
    private let scratch: UnsafeMutableRawPointer
    private let positions: UnsafeMutablePointer<Int32>
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
            let zeroRun = lengths[0xF0]
            endOfBlock[table] = lengths[0x00] > 0 ? Float(lengths[0x00]) : Self.forbidden
            let base = runCosts + table * Self.costsPerTable
            for size in 0..<Self.sizes {
                for run in 0..<Self.runsPerSize {
                    let symbol = (run & 15) << 4 | size
                    let codeable = (1...10).contains(size) && lengths[symbol] > 0 && (run < 16 || zeroRun > 0)
                    base[size * Self.runsPerSize + run] = codeable
                        ? Float((run >> 4) * zeroRun + lengths[symbol] + size) : Self.forbidden
                }
            }
        }
        endOfBlockCosts = (endOfBlock[0], endOfBlock[1])
        let nodes = Self.window + 65
        scratch = .allocate(byteCount: nodes * 4 * 4, alignment: 16)
        positions = scratch.bindMemory(to: Int32.self, capacity: nodes) + Self.window
        best = (scratch + nodes * 4).bindMemory(to: Float.self, capacity: nodes) + Self.window
        previous = (scratch + nodes * 8).bindMemory(to: Int32.self, capacity: nodes) + Self.window
        chosen = (scratch + nodes * 12).bindMemory(to: Int32.self, capacity: nodes) + Self.window
        for node in -Self.window...0 {
            positions[node] = 0
            best[node] = node == 0 ? 0 : Self.unreachable
            previous[node] = 0
            chosen[node] = 0
        }
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
        let positions = self.positions
        let best = self.best
        let previous = self.previous
        let chosen = self.chosen
        let stride = Self.runsPerSize
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
            var weight = smoothWeight
            if energyScale != 0 {
                // The zeros of the block add nothing to its energy; rounded zeros are small, so this is close.
                var energy: Float = 0
                var rest = candidates
                while rest != 0 {
                    let k = rest.trailingZeroBitCount
                    rest &= rest &- 1
                    let coefficient = samples[Int(scanOrder[k]) &* 8 &+ lane] * multipliers[k] * steps[k]
                    energy += coefficient * coefficient
                }
                weight = smoothWeight / (1 + energy * energyScale)
            }
            // One pass: extract candidate i, price its two values against its `window` predecessors, and close
            // the block after it (end of block unless it is the 63rd coefficient). Ties keep the later
            // predecessor and the larger value, so λ = 0 reproduces rounding exactly.
            var last = 0
            var total = endOfBlock
            var i = 0
            while candidates != 0 {
                let k = candidates.trailingZeroBitCount
                candidates &= candidates &- 1
                i &+= 1
                let position = Int32(truncatingIfNeeded: k)
                positions[i] = position
                let signed = samples[Int(scanOrder[k]) &* 8 &+ lane] * multipliers[k]
                let x = signed < 0 ? -signed : signed
                let rounded = block[k &* 8]
                let a = min(1023, rounded < 0 ? 0 &- rounded : rounded)
                let b = a &- 1
                let fa = Float(a)
                // Distortion of each value relative to zeroing this coefficient: m² − 2·m·|x|;
                // (x − b)² − (x − a)² = 1 − 2·(a − x), with a − x exact, so ties of the two values are exact too.
                let gainA = weight * (fa * (fa - 2 * x))
                let gainB = gainA + weight * (1 - 2 * (fa - x))
                // b = 0 (a = 1) reads the size-0 row, which is `forbidden` throughout.
                let rowA = costs + Int(32 &- a.leadingZeroBitCount) &* stride
                let rowB = costs + Int(32 &- b.leadingZeroBitCount) &* stride
                var j = i &- Self.window
                var run = Int(position &- positions[j] &- 1)
                var bestA = best[j] + rowA[run]
                var bestB = best[j] + rowB[run]
                var fromA = j
                var fromB = j
                for _ in 1..<Self.window {
                    j &+= 1
                    run = Int(position &- positions[j] &- 1)
                    let base = best[j]
                    let costA = base + rowA[run]
                    let costB = base + rowB[run]
                    if costA <= bestA { bestA = costA; fromA = j }
                    if costB <= bestB { bestB = costB; fromB = j }
                }
                bestA += gainA
                bestB += gainB
                let lower = bestB < bestA
                let cost = lower ? bestB : bestA
                best[i] = cost
                previous[i] = Int32(truncatingIfNeeded: lower ? fromB : fromA)
                chosen[i] = lower ? b : a
                let closing = cost + (k == 63 ? 0 : endOfBlock)
                if closing <= total { total = closing; last = i }
            }
            // Walk back from the last kept candidate, writing the chosen values with their signs.
            var kept: UInt64 = mask & 1
            var node = last
            while node > 0 {
                let k = Int(positions[node])
                kept |= 1 &<< UInt64(k)
                let rounded = block[k &* 8]
                let magnitude = chosen[node]
                block[k &* 8] = rounded < 0 ? 0 &- magnitude : magnitude
                node = Int(previous[node])
            }
            guard kept != mask else { continue }
            var dropped = mask & ~kept
            while dropped != 0 {
                block[dropped.trailingZeroBitCount &* 8] = 0
                dropped &= dropped &- 1
            }
            block[64 &* 8] = Int32(bitPattern: UInt32(truncatingIfNeeded: kept))
            block[65 &* 8] = Int32(bitPattern: UInt32(truncatingIfNeeded: kept >> 32))
        }
    }
}
