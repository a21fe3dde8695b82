/// One strip's quantized coefficients as the scans of a progressive encoding read them: the strip planes
/// themselves (`StripPlanes.coefficients`, lane-interleaved, zig-zag order, the non-zero mask after them) and per
/// block three masks that let each scan find the coefficients it codes from set bits instead of visiting zeros.
///
/// Every scan codes a strip right after the strip is transformed, while it is in cache (`ProgressiveScanCoder`), so
/// the encoder keeps no coefficients beyond the strip: its memory, like the baseline encoder's, depends on the
/// width only. Each scan's output waits in its own buffer until the scans before it are complete.
final class StripCoefficients {
    /// One component's view.
    struct Plane {
        /// Int32 coefficients: group g, block row v, lane l, coefficient k at `((v·groups + g)·66 + k)·8 + l`.
        let coefficients: UnsafePointer<Int32>
        let groups: Int
        let blocksWide: Int
        /// Blocks per row and block rows a single-component scan covers (T.81 A.2.2: the component's own size,
        /// without MCU padding).
        let scanBlocksWide: Int
        let scanBlocksHigh: Int
        /// Three masks per block, block rows one after the other (`StripCoefficients.update`).
        let allMasks: UnsafeMutablePointer<UInt64>

        /// Coefficient 0 of block `x` of block row `row` of the strip; coefficient k is at `[k * 8]`.
        @inline(__always)
        func block(x: Int, row: Int) -> UnsafePointer<Int32> {
            coefficients + ((row &* groups &+ x &>> 3) &* ForwardDCT.coefficientVectorsPerGroup &* 8 &+ (x & 7))
        }

        /// The masks of block row `row`: block x's mask t (bit k set when |coefficient k| ≥ 2^t, t = 0, 1, 2: the
        /// point transforms the scan script uses) is at `[x * 3 + t]`.
        @inline(__always)
        func masks(row: Int) -> UnsafeMutablePointer<UInt64> { allMasks + row &* blocksWide &* 3 }
    }

    let planes: [Plane]

    init(planes strip: StripPlanes, layout: FrameLayout) {
        let maxH = layout.components.map { $0.horizontal }.max() ?? 1
        let maxV = layout.components.map { $0.vertical }.max() ?? 1
        planes = layout.components.enumerated().map { index, component in
            let count = component.blocksWide * component.vertical * 3
            let masks = UnsafeMutablePointer<UInt64>.allocate(capacity: count)
            masks.initialize(repeating: 0, count: count)
            // T.81 A.1.1: the component is ⌈X · H / Hmax⌉ samples wide and ⌈Y · V / Vmax⌉ high.
            let samplesWide = (layout.width * component.horizontal + maxH - 1) / maxH
            let samplesHigh = (layout.height * component.vertical + maxV - 1) / maxV
            return Plane(
                coefficients: UnsafeRawPointer(strip.coefficients[index]).assumingMemoryBound(to: Int32.self),
                groups: component.groups, blocksWide: component.blocksWide, scanBlocksWide: (samplesWide + 7) / 8,
                scanBlocksHigh: (samplesHigh + 7) / 8, allMasks: masks)
        }
    }

    deinit {
        for plane in planes { plane.allMasks.deallocate() }
    }

    @inline(__always)
    func plane(_ index: Int) -> Plane { planes[index] }

    /// Bytes of masks held for `layout`.
    static func byteCount(_ layout: FrameLayout) -> Int {
        layout.components.reduce(0) { $0 + $1.blocksWide * $1.vertical * 3 * 8 }
    }

    /// Builds the masks of the strip now in the planes.
    func update(layout: FrameLayout) {
        for (index, component) in layout.components.enumerated() {
            let plane = planes[index]
            for row in 0..<component.vertical {
                let masks = plane.masks(row: row)
                for x in 0..<component.blocksWide {
                    Self.storeMasks(plane.block(x: x, row: row), masks + x &* 3)
                }
            }
        }
    }

    /// The three masks of one block whose coefficient k is at `from[k * 8]` and whose non-zero mask quantization
    /// left after the coefficients (`ForwardDCT.quantize`).
    @inline(__always)
    private static func storeMasks(_ from: UnsafePointer<Int32>, _ masks: UnsafeMutablePointer<UInt64>) {
        let nonZero = UInt64(UInt32(bitPattern: from[64 &* 8])) | UInt64(UInt32(bitPattern: from[65 &* 8])) &<< 32
        var atLeast2: UInt64 = 0
        var atLeast4: UInt64 = 0
        var candidates = nonZero
        while candidates != 0 {
            let k = candidates.trailingZeroBitCount
            candidates &= candidates &- 1
            let value = from[k &* 8]
            // |v| ≥ 2 exactly when v + 1 is outside 0...2, |v| ≥ 4 when v + 3 is outside 0...6.
            atLeast2 |= UInt64(UInt32(bitPattern: value &+ 1) > 2 ? 1 : 0) &<< UInt64(k)
            atLeast4 |= UInt64(UInt32(bitPattern: value &+ 3) > 6 ? 1 : 0) &<< UInt64(k)
        }
        masks[0] = nonZero
        masks[1] = atLeast2
        masks[2] = atLeast4
    }
}
