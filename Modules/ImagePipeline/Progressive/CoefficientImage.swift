/// Every quantized coefficient of a frame, kept for the scans of a progressive encoding (T.81 G.1): each scan walks
/// the whole image again, so the coefficients of all blocks must outlive the strip that produced them.
///
/// Per component, blocks are stored row by row over the MCU-padded grid (`blocksWide` × `blocksHigh`), 64 `Int16`
/// per block in zig-zag order. 16 bits hold every value: AC is clamped to ±1023 (10 bits) as the baseline coder
/// does, and a DC of 8-bit samples never exceeds ±2048.
final class CoefficientImage {
    /// Per component: blocks per row and block rows of the MCU-padded grid, and blocks per row and rows a
    /// single-component scan covers (T.81 A.2.2: the component's own size, without MCU padding).
    struct Plane {
        let blocksWide: Int
        let blocksHigh: Int
        let scanBlocksWide: Int
        let scanBlocksHigh: Int
        let values: UnsafeMutablePointer<Int16>
        /// Per block, three 64-bit masks in zig-zag order: bit k of mask t is set when |coefficient k| ≥ 2^t
        /// (t = 0, 1, 2: the point transforms the scan script uses). A scan then finds the coefficients it codes
        /// from the set bits, without visiting the zeros.
        let masks: UnsafeMutablePointer<UInt64>

        @inline(__always)
        func block(x: Int, y: Int) -> UnsafeMutablePointer<Int16> { values + (y &* blocksWide &+ x) &* 64 }

        /// The mask of coefficients with |value| ≥ 2^`bit` (`bit` 0...2) of block (x, y).
        @inline(__always)
        func mask(x: Int, y: Int, bit: Int) -> UInt64 { masks[(y &* blocksWide &+ x) &* 3 &+ bit] }
    }

    /// The largest point transform `mask(x:y:bit:)` answers for (a refinement of Al needs bit Al + 1).
    static let maskedBits = 3

    let planes: [Plane]

    init(layout: FrameLayout) {
        let maxH = layout.components.map(\.horizontal).max() ?? 1
        let maxV = layout.components.map(\.vertical).max() ?? 1
        planes = layout.components.map { component in
            let blocksHigh = layout.stripCount * component.vertical
            let count = component.blocksWide * blocksHigh * 64
            let values = UnsafeMutablePointer<Int16>.allocate(capacity: count)
            values.initialize(repeating: 0, count: count)
            let masks = UnsafeMutablePointer<UInt64>.allocate(capacity: count / 64 * Self.maskedBits)
            masks.initialize(repeating: 0, count: count / 64 * Self.maskedBits)
            // T.81 A.1.1: the component is ⌈X · H / Hmax⌉ samples wide and ⌈Y · V / Vmax⌉ high.
            let samplesWide = (layout.width * component.horizontal + maxH - 1) / maxH
            let samplesHigh = (layout.height * component.vertical + maxV - 1) / maxV
            return Plane(
                blocksWide: component.blocksWide, blocksHigh: blocksHigh, scanBlocksWide: (samplesWide + 7) / 8,
                scanBlocksHigh: (samplesHigh + 7) / 8, values: values, masks: masks)
        }
    }

    deinit {
        for plane in planes {
            plane.values.deallocate()
            plane.masks.deallocate()
        }
    }

    /// Bytes held for `layout`: what a progressive encoding adds to the baseline encoder's strip memory.
    static func byteCount(_ layout: FrameLayout) -> Int {
        layout.components.reduce(0) {
            $0 + $1.blocksWide * layout.stripCount * $1.vertical * (64 * 2 + maskedBits * 8)
        }
    }

    /// Copies strip `strip`'s quantized coefficients out of the lane-interleaved strip planes and builds their
    /// masks on the way.
    func store(strip: Int, from planes: StripPlanes, layout: FrameLayout) {
        for (index, component) in layout.components.enumerated() {
            let plane = self.planes[index]
            let source = UnsafeRawPointer(planes.coefficients[index]).assumingMemoryBound(to: Int32.self)
            for v in 0..<component.vertical {
                let y = strip * component.vertical + v
                for x in 0..<component.blocksWide {
                    let group = v * component.groups + x >> 3
                    let from = source + group * ForwardDCT.coefficientVectorsPerGroup * 8 + (x & 7)
                    let to = plane.block(x: x, y: y)
                    // The DC is never clamped; AC stays within the 10 bits baseline allows.
                    to[0] = Int16(truncatingIfNeeded: from[0])
                    let dc = abs(Int(to[0]))
                    var atLeast2: UInt64 = dc >= 2 ? 1 : 0
                    var atLeast4: UInt64 = dc >= 4 ? 1 : 0
                    // Quantization left the non-zero mask after the coefficients (`ForwardDCT.quantize`).
                    let nonZero = UInt64(UInt32(bitPattern: from[64 &* 8]))
                        | UInt64(UInt32(bitPattern: from[65 &* 8])) << 32
                    var candidates = nonZero & ~1
                    while candidates != 0 {
                        let k = candidates.trailingZeroBitCount
                        candidates &= candidates &- 1
                        let value = min(1023, max(-1023, from[k &* 8]))
                        to[k] = Int16(truncatingIfNeeded: value)
                        let magnitude = value < 0 ? -value : value
                        atLeast2 |= UInt64(magnitude >= 2 ? 1 : 0) &<< UInt64(k)
                        atLeast4 |= UInt64(magnitude >= 4 ? 1 : 0) &<< UInt64(k)
                    }
                    let masks = plane.masks + (y &* plane.blocksWide &+ x) &* Self.maskedBits
                    masks[0] = nonZero
                    masks[1] = atLeast2
                    masks[2] = atLeast4
                }
            }
        }
    }
}
