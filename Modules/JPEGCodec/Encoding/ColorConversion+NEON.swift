#if arch(arm64) && canImport(_Builtin_intrinsics.arm.neon)
import _Builtin_intrinsics.arm.neon

/// The 4:2:0 colour conversion of RGB pixels on arm64, computing the same floats in the same order as the portable
/// code (so the files are byte-identical), with NEON table lookups where the portable code gathers.
///
/// The portable code builds each vector (one position of eight blocks, pixels 8 apart) from eight 32-bit loads,
/// about 14 instructions a pixel once converted. Here a group's 64 pixels of a row are read with twelve 16-byte
/// loads and split into their red, green and blue bytes by three `tbl` lookups per 16 pixels; each vector's lanes
/// are then picked out of the 64 bytes of a channel by one `tbl` per four lanes, already widened to 32 bits (an
/// index of 0x80 or more reads a zero byte), and converted with `ucvtf`. The 2×2 chroma sums are pairwise widening
/// additions (`uaddlp`, `uadalp`) of the natural-order bytes, transposed into the block layout the same way.
extension StripConverter {
    private typealias Bytes = SIMD16<UInt8>

    @inline(__always)
    private static func load(_ p: UnsafePointer<UInt8>) -> Bytes {
        UnsafeRawPointer(p).loadUnaligned(as: Bytes.self)
    }

    /// The red, green and blue bytes of 64 RGB pixels from `p`, in pixel order, 16 to a register.
    @inline(__always)
    private static func channels64(_ p: UnsafePointer<UInt8>) -> (uint8x16x4_t, uint8x16x4_t, uint8x16x4_t) {
        let red = Bytes(0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45)
        let green = red &+ 1, blue = red &+ 2
        @inline(__always) func chunk(_ i: Int) -> (Bytes, Bytes, Bytes) {
            let at = p + 48 &* i
            let q = uint8x16x3_t(val: (load(at), load(at + 16), load(at + 32)))
            return (vqtbl3q_u8(q, red), vqtbl3q_u8(q, green), vqtbl3q_u8(q, blue))
        }
        let c0 = chunk(0), c1 = chunk(1), c2 = chunk(2), c3 = chunk(3)
        return (
            uint8x16x4_t(val: (c0.0, c1.0, c2.0, c3.0)), uint8x16x4_t(val: (c0.1, c1.1, c2.1, c3.1)),
            uint8x16x4_t(val: (c0.2, c1.2, c2.2, c3.2)))
    }

    /// The four 32-bit lanes that `index` picks out of `table` (one byte each, the rest zero), as floats.
    @inline(__always)
    private static func lanes(_ table: uint8x16x4_t, _ index: Bytes) -> SIMD4<Float> {
        vcvtq_f32_u32(vreinterpretq_u32_u8(vqtbl4q_u8(table, index)))
    }

    @inline(__always)
    private static func lanes(_ table: uint8x16x2_t, _ index: Bytes) -> SIMD4<Float> {
        vcvtq_f32_u32(vreinterpretq_u32_u8(vqtbl2q_u8(table, index)))
    }

    /// One channel of 64 pixels in pixel order as its two halves (pixels 0–31 and 32–63).
    @inline(__always)
    private static func halves(_ channel: uint8x16x4_t) -> (uint8x16x2_t, uint8x16x2_t) {
        (uint8x16x2_t(val: (channel.val.0, channel.val.1)), uint8x16x2_t(val: (channel.val.2, channel.val.3)))
    }

    /// The luma of one row of a group, 64 pixels in pixel order, into its eight vectors (`column` 0…7).
    @inline(__always)
    private static func luma64(
        _ channels: (uint8x16x4_t, uint8x16x4_t, uint8x16x4_t), into vectors: UnsafeMutablePointer<Samples>
    ) {
        let red = halves(channels.0), green = halves(channels.1), blue = halves(channels.2)
        // Lanes 0–3 read pixels column, column + 8, + 16, + 24 of the first half; lanes 4–7 the same of the second.
        var index = Bytes(0, 0x80, 0x80, 0x80, 8, 0x80, 0x80, 0x80, 16, 0x80, 0x80, 0x80, 24, 0x80, 0x80, 0x80)
        for column in 0..<8 {
            let r = Samples(lowHalf: lanes(red.0, index), highHalf: lanes(red.1, index))
            let g = Samples(lowHalf: lanes(green.0, index), highHalf: lanes(green.1, index))
            let b = Samples(lowHalf: lanes(blue.0, index), highHalf: lanes(blue.1, index))
            vectors[column] = luma(r, g, b)
            index &+= 1
        }
    }

    /// One interior group of `convert420` for RGB pixels: rows `top` and `bottom` from the group's first pixel,
    /// luma into `upper` (this row pair's first vector) and chroma into `cb`/`cr` from SIMD4 index `chroma`.
    @inline(__always)
    static func group420NEON(
        top: UnsafePointer<UInt8>, bottom: UnsafePointer<UInt8>, upper: UnsafeMutablePointer<Samples>,
        cb: UnsafeMutablePointer<SIMD4<Float>>, cr: UnsafeMutablePointer<SIMD4<Float>>, chroma: Int
    ) {
        let t = channels64(top), b = channels64(bottom)
        luma64(t, into: upper)
        luma64(b, into: upper + 8)
        // Each register of sums holds 8 chroma columns of the group in order: register j is lane j of the chroma
        // vectors, and its element k is chroma column k.
        @inline(__always) func sums(_ top: uint8x16x4_t, _ bottom: uint8x16x4_t) -> uint8x16x4_t {
            @inline(__always) func sum(_ t: Bytes, _ b: Bytes) -> Bytes {
                vreinterpretq_u8_u16(vpadalq_u8(vpaddlq_u8(t), b))
            }
            return uint8x16x4_t(val: (
                sum(top.val.0, bottom.val.0), sum(top.val.1, bottom.val.1), sum(top.val.2, bottom.val.2),
                sum(top.val.3, bottom.val.3)))
        }
        let red = sums(t.0, b.0), green = sums(t.1, b.1), blue = sums(t.2, b.2)
        var index = Bytes(0, 1, 0x80, 0x80, 16, 17, 0x80, 0x80, 32, 33, 0x80, 0x80, 48, 49, 0x80, 0x80)
        for column in 0..<8 {
            let r = lanes(red, index), g = lanes(green, index), bl = lanes(blue, index)
            cb[chroma &+ 2 &* column] = blueDifference(r, g, bl) * 0.25
            cr[chroma &+ 2 &* column] = redDifference(r, g, bl) * 0.25
            index &+= 2
        }
    }
}
extension ForwardDCT {
    /// `quantize` without the AC clamp on arm64, as the SSE2 path does it: `fcvtns` rounds each product to the
    /// nearest integer, ties to even, which is what the portable code's 1.5 × 2²³ addition does for every product
    /// below 2²² (a coefficient over its step is far below); `cmtst` gives each lane's non-zero mask.
    @inline(__always)
    static func quantizeNEON(
        _ block: UnsafePointer<Lanes>, multipliers: UnsafePointer<Float>, scanOrder: UnsafePointer<Int32>,
        into out: UnsafeMutablePointer<SIMD8<Int32>>
    ) {
        var low = (SIMD4<UInt32>(), SIMD4<UInt32>()), high = low
        let source = UnsafeRawPointer(block), target = UnsafeMutableRawPointer(out)
        /// Quantizes coefficient k of the scan, stores it and returns its two halves' mask bits.
        @inline(__always) func coefficient(_ k: Int, _ bit: SIMD4<UInt32>) -> (SIMD4<UInt32>, SIMD4<UInt32>) {
            let at = Int(scanOrder[k]) &* 32, m = multipliers[k]
            @inline(__always) func half(_ offset: Int) -> SIMD4<Int32> {
                let samples = source.loadUnaligned(fromByteOffset: at &+ offset, as: SIMD4<Float>.self)
                let value = vcvtnq_s32_f32(vmulq_n_f32(samples, m))
                target.storeBytes(of: value, toByteOffset: k &* 32 &+ offset, as: SIMD4<Int32>.self)
                return value
            }
            let a = half(0), b = half(16)
            return (vtstq_s32(a, a) & bit, vtstq_s32(b, b) & bit)
        }
        // Bit k mod 32 of the mask, doubled from one coefficient to the next (one addition, not a shift and a
        // broadcast).
        var bit = SIMD4<UInt32>(repeating: 1)
        for k in 0..<32 {
            let bits = coefficient(k, bit)
            low = (low.0 | bits.0, low.1 | bits.1)
            bit &+= bit
        }
        bit = SIMD4(repeating: 1)
        for k in 32..<64 {
            let bits = coefficient(k, bit)
            high = (high.0 | bits.0, high.1 | bits.1)
            bit &+= bit
        }
        target.storeBytes(of: low.0, toByteOffset: 64 * 32, as: SIMD4<UInt32>.self)
        target.storeBytes(of: low.1, toByteOffset: 64 * 32 + 16, as: SIMD4<UInt32>.self)
        target.storeBytes(of: high.0, toByteOffset: 65 * 32, as: SIMD4<UInt32>.self)
        target.storeBytes(of: high.1, toByteOffset: 65 * 32 + 16, as: SIMD4<UInt32>.self)
    }
}
#endif
