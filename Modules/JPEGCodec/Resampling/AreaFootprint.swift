extension AreaResampler {
    /// For each output index, the first source index it covers and the weights of `taps` sources from there, in
    /// one flat array (`taps` per output). Outputs that cover fewer sources are padded with zero weights (at the
    /// end, or at the start where the window would pass the last source), which add nothing to the sums, so the
    /// result is the same as weighting only the covered sources.
    ///
    /// The weights are fixed-point: each output's sum to exactly `unit` (2^`bits`). They are the exact area
    /// fractions rounded down, and the units still missing go one each to the taps with the largest remainders,
    /// none beyond `cap`. So an output's rounding never drifts from the exact mean by more than one unit per tap,
    /// and the sums are integers, the same on every processor.
    ///
    /// Built twice per resize (once per axis), so it is compiled for size, in plain loops: a few taps per output
    /// need no library sort or map (Docs/Footprint.md).
    struct Footprint {
        var first: [Int] = []
        var weights: [UInt16] = []
        var taps = 1
        /// The largest weight, which tells the vertical pass whether every weight fits in a byte.
        var largest: UInt16 = 0

        @_optimize(size) init(source: Int, target: Int, bits: Int, cap: Int) {
            let scale = Double(source) / Double(target), unit = 1 << bits
            var rows: [[UInt16]] = []
            var exact: [Double] = [], fixed: [Int] = [], order: [Int] = []
            for o in 0..<target {
                let a = Double(o) * scale, b = Double(o + 1) * scale
                let first = Int(a), last = min(source, Int(b.rounded(.up)))
                exact.removeAll(keepingCapacity: true)
                for i in first..<max(last, first + 1) {
                    exact.append(max(0, min(b, Double(i + 1)) - max(a, Double(i))) / scale * Double(unit))
                }
                // A lone tap (the same size on this axis) carries the whole unit.
                let limit = exact.count == 1 ? unit : cap
                // Each rounded down, so together at most `unit` (the exact weights sum to one).
                fixed.removeAll(keepingCapacity: true)
                var missing = unit
                for weight in exact {
                    let rounded = min(limit, Int(weight))
                    fixed.append(rounded)
                    missing -= rounded
                }
                // Largest remainder first, then the earlier tap: a fixed order, so every build rounds alike. Each
                // tap goes in after every earlier one whose remainder is at least its own.
                order.removeAll(keepingCapacity: true)
                for t in exact.indices {
                    let remainder = exact[t] - Double(fixed[t])
                    var at = order.count
                    while at > 0, exact[order[at - 1]] - Double(fixed[order[at - 1]]) < remainder { at -= 1 }
                    order.insert(t, at: at)
                }
                for round in 0..<(2 * order.count) where missing > 0 {
                    let t = order[round % order.count]
                    if fixed[t] < limit {
                        fixed[t] += 1
                        missing -= 1
                    }
                }
                self.first.append(first)
                var row: [UInt16] = []
                row.reserveCapacity(fixed.count)
                for weight in fixed { row.append(UInt16(clamping: weight)) }
                rows.append(row)
            }
            for row in rows where row.count > taps { taps = row.count }
            weights.reserveCapacity(target * taps)
            for o in 0..<target {
                let row = rows[o]
                let excess = max(0, first[o] + taps - source)
                first[o] -= excess
                for _ in 0..<excess { weights.append(0) }
                for weight in row {
                    weights.append(weight)
                    if weight > largest { largest = weight }
                }
                for _ in 0..<(taps - excess - row.count) { weights.append(0) }
            }
        }
    }
}
