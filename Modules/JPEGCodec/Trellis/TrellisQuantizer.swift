/// Rate–distortion optimised quantisation of the AC coefficients of 8×8 blocks ("trellis quantisation").
///
/// Rounding each coefficient to the nearest step minimises distortion alone. Here, per block, the encoder chooses
/// the quantised values that minimise `D + λ·R` instead: `D` is the squared error of the coefficients measured in
/// quantiser steps, times a per-frequency weight `(Q_k / Q̄)^(2e)` (Q̄ the table's mean AC step, e the `weighting`).
/// At e = 0 that is the DCT-domain error of coefficient k weighted by 1/Q_k², the same as a λ scaled by Q_k² in
/// unweighted terms, the usual choice for JPEG; at e = ½ each error counts by 1/(Q_k·Q̄), so the coarse high
/// frequencies of the Annex K tables are thinned out less and the fine low ones more than step weighting would,
/// which keeps more of a block's texture for the bytes (what SSIM rewards); at e = 1 it is the plain squared error.
/// `R` is the bits the block's AC symbols cost with the Huffman code lengths that will be written (code plus extra bits, zero-run symbols, end of block).
///
/// Each coefficient whose rounded value is non-zero may keep it, move one step toward zero (only when that is not
/// zero itself) or become zero; coefficients that round to zero stay zero (a larger value never lowers either
/// term). A dynamic programme over those candidate positions in zig-zag order finds the best block: the state is
/// the position of the last non-zero coefficient, because the cost of the next symbol depends only on the zero run
/// since then and on the next value's size category. The DC coefficient is left as rounded.
///
/// The programme is built for speed (it runs on every block of the written pass): a block's leading candidates
/// that every path keeps as rounded ("settled", see `refine`) are skipped; then one pass over the rest extracts
/// each candidate, prices it and closes the block after it, with no branch but the loop's: a candidate's
/// predecessor is searched among the `window` (3) candidates before it only, whose best costs stay in registers,
/// so zeroing is limited to runs of `window − 1` consecutive candidates *between* kept ones, while a tail of any
/// length can still be dropped by ending the block early (the end-of-block choice considers every candidate).
/// Only the step from the candidate just before may lower a value. Both limits cost little: an unbounded search
/// over every predecessor wrote within 0.03% of the bytes of a window of 4 at the same PSNR on the benchmark photo,
/// and the window of 3 with lowering after the previous candidate only 0.07–0.2% more than that (see
/// Docs/ImagePipeline.md). The forward pass records per candidate whether its best cost comes from the candidate
/// before and whether that step lowers it, so the walk back keeps whole runs of candidates at once and searches
/// only where a run starts. Blocks whose AC rounds to zero cost one mask test; the write-back touches only the
/// candidates dropped or lowered.
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
    /// Per AC table (0 luma, 1 chroma), `tableBytes` apart, what pricing a candidate reads, so one base register
    /// serves it all: the rate rows (per size category s, 0...15, and zero run r, 0...63, the bits of the symbols
    /// that code run r followed by a value of size s: r / 16 ZRL codes, the (r % 16, s) code and s extra bits;
    /// size-major so one row serves a candidate's every predecessor; a symbol the table cannot code, and size 0,
    /// a value lowered to zero, which is not an option, cost `forbidden`); per magnitude a, 0...1023, the byte
    /// offsets of the rows of a and a − 1 less one entry (two `Int32`, at `rowOffsetsAt`); then per zig-zag
    /// position k the bits of closing the block after it (end of block, none after 63, at `closingsAt`), the byte
    /// offset of its coefficient in a group's transform output (`Int32`, natural index · 8 lanes · 4, at
    /// `sourcesAt`), the multiplier that turns that coefficient into quantiser steps (the one
    /// `ForwardDCT.quantize` used, from `QuantizationMultipliers`, at `multipliersAt`) and its distortion weight
    /// (at `weightsAt`).
    private let tables: UnsafeMutableRawPointer
    /// The bits of end of block, per table.
    private let endOfBlockCosts: (Float, Float)
    /// Per table, a bound on the bits that zeroing one coefficient can save on any path: the dearest symbol, plus
    /// the most the next symbol's cost can change with its run (dearest − cheapest); infinite when some symbol of
    /// sizes 1...10 has no code (then no coefficient is settled in advance). See `refine`.
    private let settledBounds: (Float, Float)

    /// How many candidates before a candidate the programme considers as its predecessor.
    static let window = 3
    /// Costs at or above this mark a path that cannot be coded with the tables.
    static let forbidden: Float = 1e20
    /// The cost of the sentinel nodes before the start node (never chosen, but always safe to add to).
    private static let unreachable: Float = 1e30
    static let runsPerSize = 64
    static let sizes = 16
    static let costsPerTable = sizes * runsPerSize
    static let rowOffsetsAt = costsPerTable * 4
    static let closingsAt = rowOffsetsAt + 1024 * 8
    static let sourcesAt = closingsAt + 64 * 4
    static let multipliersAt = sourcesAt + 64 * 4
    static let weightsAt = multipliersAt + 64 * 4
    static let tableBytes = weightsAt + 64 * 4

    /// Per block scratch, one node per candidate after the start node 0, and `window` sentinel nodes before it so
    /// the predecessor search never leaves the arrays: the zig-zag position (`Int32`, 4 bytes per node from node
    /// 0) and, `bestAt` bytes further, the best cost of a prefix ending with this candidate non-zero (what the
    /// walk back needs to find the step the forward pass took).
    private let scratch: UnsafeMutableRawPointer
    private let nodes: UnsafeMutableRawPointer
    private static let bestAt = (window + 65) * 4

    /// A quantizer for the quantisation tables `quantization` (index 0 luma, 1 chroma) whose rates are the code
    /// lengths of `ac` (a missing chroma table reuses the luma one).
    init(ac: [HuffmanSpec], quantization: [QuantizationTable], lambda: Float, masking: Float, weighting: Float = 0) {
        self.lambda = lambda
        self.masking = masking
        steps = .allocate(capacity: 128)
        tables = .allocate(byteCount: 2 * Self.tableBytes, alignment: 64)
        let (endOfBlock, bounds) = Self.fillTables(
            tables, steps: steps, ac: ac, quantization: quantization, weighting: weighting)
        endOfBlockCosts = (endOfBlock[0], endOfBlock[1])
        settledBounds = (bounds[0], bounds[1])
        scratch = .allocate(byteCount: Self.bestAt * 2, alignment: 16)
        nodes = scratch + Self.window * 4
        for node in -Self.window...0 {
            nodes.storeBytes(of: 0, toByteOffset: node * 4, as: Int32.self)
            nodes.storeBytes(of: node == 0 ? 0 : Self.unreachable, toByteOffset: node * 4 + Self.bestAt, as: Float.self)
        }
    }

    deinit {
        tables.deallocate()
        steps.deallocate()
        scratch.deallocate()
    }

    /// Re-decides the AC coefficients of the first `lanes` blocks of one group of eight, after
    /// `ForwardDCT.quantize` has rounded them with the multipliers of quantisation table `table`: `transformed` is
    /// the group's AAN output (natural order, still in place) and `coefficients` the group's quantised output
    /// (zig-zag order), whose values and non-zero masks are rewritten.
    func refine(
        _ transformed: UnsafePointer<SIMD8<Float>>, coefficients: UnsafeMutablePointer<SIMD8<Int32>>, lanes: Int,
        table: Int
    ) {
        let quantized = UnsafeMutableRawPointer(coefficients).assumingMemoryBound(to: Int32.self)
        let prices = UnsafeRawPointer(tables + (table == 0 ? 0 : Self.tableBytes))
        let endOfBlock = table == 0 ? endOfBlockCosts.0 : endOfBlockCosts.1
        let settledBound = table == 0 ? settledBounds.0 : settledBounds.1
        let steps = UnsafePointer(self.steps + (table == 0 ? 0 : 64))
        let nodes = self.nodes
        let bestAt = Self.bestAt
        let unreachable = Self.unreachable
        // Squared steps of error per bit → weight of distortion against bits. λ = 0 means rounding: a weight so
        // large that no rate matters, yet small enough that a symbol without a code (`forbidden`) never wins.
        let smoothWeight = 1 / max(lambda, 1e-12)
        let energyScale = masking > 0 ? 1 / (63 * masking) : 0
        for lane in 0..<min(lanes, 8) {
            let block = quantized + lane
            let samples = UnsafeRawPointer(transformed) + lane &* 4
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
                    let coefficient = Self.steps(samples, k, prices) * steps[k]
                    energy += coefficient * coefficient
                }
                weight = smoothWeight / (1 + energy * energyScale)
            }
            // Settled candidates: a magnitude a that is not a power of two is never lowered (a − 1 has the same
            // size, so the same bits, and more error), and once weight·a·(a − 1) — the least error zeroing it
            // adds, as |x| ≥ a − ½ — exceeds `settledBound`, zeroing it loses on every path (putting it back into
            // a path that dropped it costs at most that bound). The leading run of settled candidates is kept as
            // rounded, and the programme starts at the last of them; at high quality that is most of a block's
            // low frequencies.
            var start = 0
            while candidates != 0 {
                let k = candidates.trailingZeroBitCount
                let rounded = block[k &* 8]
                let a = rounded < 0 ? 0 &- rounded : rounded
                let least = Float(a &* (a &- 1)) * weight * Self.weight(k, prices)
                guard a & (a &- 1) != 0, least > settledBound else { break }
                start = k
                candidates &= candidates &- 1
            }
            guard candidates != 0 else { continue }
            // Forward pass: extract candidate i, price it against its `window` (3) predecessors and close the
            // block after it (end of block unless it is the 63rd coefficient). Only the step from the candidate
            // just before may lower its value (the others, which zero one or two candidates in between, price
            // the rounded value only: lowering after a zeroed neighbour almost never pays, and it halves their
            // loads). The best costs of the last three nodes stay in registers, so the only chain from one
            // candidate to the next is an add and a min. Each node stores its position negated, and the rate
            // rows are offset by k − 1, so a predecessor's rate is one load at `row[−p]`. Two bits per
            // candidate record what the walk back needs: whether its best cost is reached from the candidate just
            // before it (shifted in: candidate m ends at bit n − m of n), and whether that step lowers its value
            // (at bit k, the candidate's position: a kept candidate is lowered exactly when that bit is set).
            nodes.storeBytes(of: Int32(truncatingIfNeeded: 0 &- start), as: Int32.self)
            var (b1, b2, b3): (Float, Float, Float) = (0, unreachable, unreachable)
            var p1 = 0 &- start
            var slot = nodes
            var last = nodes
            var total = endOfBlock
            var fromPrevious: UInt64 = 0
            var loweredAt: UInt64 = 0
            while candidates != 0 {
                let k = candidates.trailingZeroBitCount
                candidates &= candidates &- 1
                slot += 4
                let signed = Self.steps(samples, k, prices)
                let x = signed < 0 ? -signed : signed
                let rounded = block[k &* 8]
                let a = min(1023, rounded < 0 ? 0 &- rounded : rounded)
                let (gainA, gainB) = Self.gains(magnitude: a, of: x, weight: weight * Self.weight(k, prices))
                slot.storeBytes(of: Int32(truncatingIfNeeded: 0 &- k), as: Int32.self)
                let p2 = Int(slot.load(fromByteOffset: -8, as: Int32.self))
                let p3 = Int(slot.load(fromByteOffset: -12, as: Int32.self))
                let (rowA, rowB) = Self.rows(prices, magnitude: a, at: k)
                let keep1 = rowA[p1] + gainA
                let lower1 = rowB[p1] + gainB
                let via1 = b1 + min(keep1, lower1)
                let other = min(b3 + rowA[p3], b2 + rowA[p2]) + gainA
                let cost = min(other, via1)
                slot.storeBytes(of: cost, toByteOffset: bestAt, as: Float.self)
                // `min` takes via1 unless the other is strictly lower: then, and only then, the best cost is
                // reached from the candidate before.
                let chained: UInt64 = via1 <= other ? 1 : 0
                fromPrevious = fromPrevious &<< 1 | chained
                loweredAt |= (chained & (lower1 < keep1 ? 1 : 0)) &<< UInt64(truncatingIfNeeded: k)
                (b3, b2, b1) = (b2, b1, cost)
                p1 = 0 &- k
                // Ties close later, so λ = 0 keeps every rounded value.
                let closing = cost + prices.load(fromByteOffset: Self.closingsAt &+ k &* 4, as: Float.self)
                last = closing <= total ? slot : last
                total = min(total, closing)
            }
            // Walk back from the last kept candidate, a run of candidates at a time: the nodes j + 1...node each
            // came from the node before (their `fromPrevious` bits), so the run j...node is kept. Node j came from
            // two or three nodes back, keeping its value: two if that path reproduces its best cost exactly (the
            // same float operations as the forward pass). Node 0, the start, ends the walk (its bit, n, is clear).
            let count = (slot - nodes) >> 2
            var kept: UInt64 = mask & (UInt64(2) &<< UInt64(truncatingIfNeeded: start) &- 1)
            var node = (last - nodes) >> 2
            while node > 0 {
                let shift = UInt64(truncatingIfNeeded: count &- node)
                let run = (~fromPrevious &>> shift).trailingZeroBitCount
                let j = node &- run
                let high = UInt64(truncatingIfNeeded: 0 &- nodes.load(fromByteOffset: node &* 4, as: Int32.self))
                let low = UInt64(truncatingIfNeeded: 0 &- nodes.load(fromByteOffset: j &* 4, as: Int32.self))
                kept |= mask & (UInt64(2) &<< high &- 1) & ~(UInt64(1) &<< low &- 1)
                guard j > 0 else { break }
                let k = Int(0 &- nodes.load(fromByteOffset: j &* 4, as: Int32.self))
                let signed = Self.steps(samples, k, prices)
                let x = signed < 0 ? -signed : signed
                let value = block[k &* 8]
                let a = min(1023, value < 0 ? 0 &- value : value)
                let gainA = Self.gains(magnitude: a, of: x, weight: weight * Self.weight(k, prices)).0
                let rowA = Self.rows(prices, magnitude: a, at: k).0
                let target = nodes.load(fromByteOffset: j &* 4 &+ bestAt, as: Float.self)
                // The node just before failed (j's bit is clear), so j keeps its value; its predecessor is the
                // one before that if that reproduces its cost, else the last of the window.
                let p = Int(nodes.load(fromByteOffset: (j &- 2) &* 4, as: Int32.self))
                let previous = nodes.load(fromByteOffset: (j &- 2) &* 4 &+ bestAt, as: Float.self)
                node = previous + rowA[p] + gainA == target ? j &- 2 : j &- 3
            }
            // One pass over the changed coefficients: the dropped become zero, the lowered move one step toward it.
            let dropped = mask & ~kept
            var changed = dropped | loweredAt & kept
            guard changed != 0 else { continue }
            while changed != 0 {
                let k = changed.trailingZeroBitCount
                changed &= changed &- 1
                let value = block[k &* 8]
                let lowered = value < 0 ? value &+ 1 : value &- 1
                block[k &* 8] = dropped &>> UInt64(truncatingIfNeeded: k) & 1 != 0 ? 0 : lowered
            }
            block[64 &* 8] = Int32(bitPattern: UInt32(truncatingIfNeeded: kept))
            block[65 &* 8] = Int32(bitPattern: UInt32(truncatingIfNeeded: kept >> 32))
        }
    }

    /// The distortion weight of zig-zag position k (`weightsAt`).
    @inline(__always)
    private static func weight(_ k: Int, _ prices: UnsafeRawPointer) -> Float {
        prices.load(fromByteOffset: weightsAt &+ k &* 4, as: Float.self)
    }

    /// `ratio^(2·exponent)` for an exponent in steps of ¼ (rounded down; none below 0, at most 2): products and one
    /// square root, so the weights are the same floats on every processor (no `pow`, which this module has not).
    static func weight(ratio: Float, exponent: Float) -> Float {
        let quarters = Int(max(0, min(exponent, 2)) * 4)
        var weight: Float = 1
        for _ in 0..<(quarters / 2) { weight *= ratio }
        return quarters % 2 == 1 ? weight * ratio.squareRoot() : weight
    }

    /// Coefficient k (zig-zag) of one lane of a group's transform output, in quantiser steps: what
    /// `ForwardDCT.quantize` rounded.
    @inline(__always)
    private static func steps(_ samples: UnsafeRawPointer, _ k: Int, _ prices: UnsafeRawPointer) -> Float {
        let source = Int(prices.load(fromByteOffset: sourcesAt &+ k &* 4, as: Int32.self))
        return samples.load(fromByteOffset: source, as: Float.self)
            * prices.load(fromByteOffset: multipliersAt &+ k &* 4, as: Float.self)
    }

    /// The distortion of keeping magnitude `a` and of lowering it to `a − 1`, relative to zeroing a coefficient of
    /// magnitude `x` (in steps), times `weight`: m² − 2·m·x; (x − (a − 1))² − (x − a)² = 1 − 2·(a − x), with a − x
    /// exact, so ties of the two values are exact too.
    @inline(__always)
    private static func gains(magnitude a: Int32, of x: Float, weight: Float) -> (Float, Float) {
        let fa = Float(a)
        let gainA = weight * (fa * (fa - 2 * x))
        return (gainA, gainA + weight * (1 - 2 * (fa - x)))
    }

    /// The rate rows of magnitudes `a` and `a − 1` (their size categories'; size 0, for 0, is `forbidden`
    /// throughout) for a candidate at zig-zag position k, offset by k − 1: the rate after the node at position p
    /// is `row[−p]`.
    @inline(__always)
    private static func rows(
        _ prices: UnsafeRawPointer, magnitude a: Int32, at k: Int
    ) -> (UnsafePointer<Float>, UnsafePointer<Float>) {
        let at = rowOffsetsAt &+ Int(a) &* 8
        let base = prices + k &* 4
        let kept = Int(prices.load(fromByteOffset: at, as: Int32.self))
        let lowered = Int(prices.load(fromByteOffset: at &+ 4, as: Int32.self))
        return ((base + kept).assumingMemoryBound(to: Float.self), (base + lowered).assumingMemoryBound(to: Float.self))
    }
}
