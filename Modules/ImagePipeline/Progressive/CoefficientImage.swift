/// Every quantized coefficient of a frame, kept for the scans of a progressive encoding (T.81 G.1): each scan walks
/// the whole image again, so the coefficients of all blocks must outlive the strip that produced them.
///
/// Per component, block rows of the MCU-padded grid are stored one after the other, each as groups of eight
/// horizontally adjacent blocks in the strips' lane-interleaved order: coefficient k (zig-zag) of the group's eight
/// blocks is eight consecutive `Int16`. A scan of band `start...end` then reads only the bytes of that band, shared
/// by eight blocks per cache line, instead of one or two 128-byte blocks per block (the DC scans read 16 bytes per
/// eight blocks), and storing a strip is a narrowing copy of its coefficient vectors. 16 bits hold every value: AC
/// is clamped to ±1023 (10 bits) by quantization, and a DC of 8-bit samples never exceeds ±2048.
final class CoefficientImage {
    /// Per component: blocks per row and block rows of the MCU-padded grid, and blocks per row and rows a
    /// single-component scan covers (T.81 A.2.2: the component's own size, without MCU padding).
    struct Plane {
        let blocksWide: Int
        let blocksHigh: Int
        let scanBlocksWide: Int
        let scanBlocksHigh: Int
        /// Groups of eight blocks per block row (the last may hold unused blocks).
        let groups: Int
        let values: UnsafeMutablePointer<Int16>
        /// Per block, three 64-bit masks in zig-zag order: bit k of mask t is set when |coefficient k| ≥ 2^t
        /// (t = 0, 1, 2: the point transforms the scan script uses). A scan then finds the coefficients it codes
        /// from the set bits, without visiting the zeros.
        let masks: UnsafeMutablePointer<UInt64>

        /// Coefficient 0 of block (x, y); coefficient k is at `[k * 8]`.
        @inline(__always)
        func block(x: Int, y: Int) -> UnsafeMutablePointer<Int16> {
            values + ((y &* groups &+ x &>> 3) &* 512 &+ (x & 7))
        }

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
            let count = component.groups * 512 * blocksHigh
            let values = UnsafeMutablePointer<Int16>.allocate(capacity: count)
            values.initialize(repeating: 0, count: count)
            let maskCount = component.blocksWide * blocksHigh * Self.maskedBits
            let masks = UnsafeMutablePointer<UInt64>.allocate(capacity: maskCount)
            masks.initialize(repeating: 0, count: maskCount)
            // T.81 A.1.1: the component is ⌈X · H / Hmax⌉ samples wide and ⌈Y · V / Vmax⌉ high.
            let samplesWide = (layout.width * component.horizontal + maxH - 1) / maxH
            let samplesHigh = (layout.height * component.vertical + maxV - 1) / maxV
            return Plane(
                blocksWide: component.blocksWide, blocksHigh: blocksHigh, scanBlocksWide: (samplesWide + 7) / 8,
                scanBlocksHigh: (samplesHigh + 7) / 8, groups: component.groups, values: values, masks: masks)
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
            let blocksHigh = layout.stripCount * $1.vertical
            return $0 + $1.groups * 512 * 2 * blocksHigh + $1.blocksWide * blocksHigh * maskedBits * 8
        }
    }

    /// Copies strip `strip`'s quantized coefficients out of the strip planes and builds their masks on the way.
    func store(strip: Int, from planes: StripPlanes, layout: FrameLayout) {
        for (index, component) in layout.components.enumerated() {
            let plane = self.planes[index]
            let source = planes.coefficients[index]
            for v in 0..<component.vertical {
                let y = strip &* component.vertical &+ v
                for group in 0..<component.groups {
                    let from = source + (v &* component.groups &+ group) &* ForwardDCT.coefficientVectorsPerGroup
                    let to = UnsafeMutableRawPointer(plane.block(x: group &* 8, y: y))
                        .assumingMemoryBound(to: SIMD8<Int16>.self)
                    for k in 0..<64 { to[k] = SIMD8<Int16>(truncatingIfNeeded: from[k]) }
                    let lanes = min(8, component.blocksWide &- group &* 8)
                    let scalars = UnsafeRawPointer(from).assumingMemoryBound(to: Int32.self)
                    for lane in 0..<lanes {
                        storeMasks(scalars + lane, plane.masks + (y &* plane.blocksWide &+ group &* 8 &+ lane) &* 3)
                    }
                }
            }
        }
    }

    /// The three masks of one block whose coefficient k is at `from[k * 8]` and whose non-zero mask quantization
    /// left after the coefficients (`ForwardDCT.quantize`).
    @inline(__always)
    private func storeMasks(_ from: UnsafePointer<Int32>, _ masks: UnsafeMutablePointer<UInt64>) {
        let nonZero = UInt64(UInt32(bitPattern: from[64 &* 8])) | UInt64(UInt32(bitPattern: from[65 &* 8])) &<< 32
        var atLeast2: UInt64 = 0
        var atLeast4: UInt64 = 0
        var candidates = nonZero
        while candidates != 0 {
            let k = candidates.trailingZeroBitCount
            candidates &= candidates &- 1
            let value = from[k &* 8]
            let magnitude = value < 0 ? 0 &- value : value
            atLeast2 |= UInt64(magnitude >= 2 ? 1 : 0) &<< UInt64(k)
            atLeast4 |= UInt64(magnitude >= 4 ? 1 : 0) &<< UInt64(k)
        }
        masks[0] = nonZero
        masks[1] = atLeast2
        masks[2] = atLeast4
    }
}
