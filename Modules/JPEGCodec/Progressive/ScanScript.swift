/// One scan of a progressive frame (T.81 G.1.1): which components, which band of the zig-zag order
/// (`start...end`), and which bit planes (`high` is Ah, the point transform of the previous scan of this band, 0
/// for a first scan; `low` is Al).
struct ProgressiveScan {
    let components: [Int]
    let start: Int
    let end: Int
    let high: Int
    let low: Int

    var isDC: Bool { start == 0 }
    var isRefinement: Bool { high != 0 }

    /// The scans of a progressive encoding: DC first at half precision for all components together (one
    /// interleaved scan), then the AC bands of each component with their low bits held back (luma split at
    /// coefficient 5, so the coarse first band codes with a table of its own), then those bits one plane at a time.
    static func script(componentCount: Int) -> [ProgressiveScan] {
        let all = Array(0..<componentCount)
        guard componentCount == 3 else {
            return [
                ProgressiveScan(components: all, start: 0, end: 0, high: 0, low: 1),
                ProgressiveScan(components: [0], start: 1, end: 5, high: 0, low: 2),
                ProgressiveScan(components: [0], start: 6, end: 63, high: 0, low: 2),
                ProgressiveScan(components: [0], start: 1, end: 63, high: 2, low: 1),
                ProgressiveScan(components: all, start: 0, end: 0, high: 1, low: 0),
                ProgressiveScan(components: [0], start: 1, end: 63, high: 1, low: 0),
            ]
        }
        return [
            ProgressiveScan(components: all, start: 0, end: 0, high: 0, low: 1),
            ProgressiveScan(components: [0], start: 1, end: 5, high: 0, low: 2),
            ProgressiveScan(components: [2], start: 1, end: 63, high: 0, low: 1),
            ProgressiveScan(components: [1], start: 1, end: 63, high: 0, low: 1),
            ProgressiveScan(components: [0], start: 6, end: 63, high: 0, low: 2),
            ProgressiveScan(components: [0], start: 1, end: 63, high: 2, low: 1),
            ProgressiveScan(components: all, start: 0, end: 0, high: 1, low: 0),
            ProgressiveScan(components: [2], start: 1, end: 63, high: 1, low: 0),
            ProgressiveScan(components: [1], start: 1, end: 63, high: 1, low: 0),
            ProgressiveScan(components: [0], start: 1, end: 63, high: 1, low: 0),
        ]
    }
}
