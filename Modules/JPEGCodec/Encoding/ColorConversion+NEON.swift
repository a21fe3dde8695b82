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

    /// The luma of one row of a group, 64 pixels in pixel order, into its eight vectors (`column` 0…7).
    @inline(__always)
    private static func luma64(
        _ channels: (uint8x16x4_t, uint8x16x4_t, uint8x16x4_t), into vectors: UnsafeMutablePointer<Samples>
    ) {
        // Lanes 0–3 read pixels column, column + 8, + 16, + 24; lanes 4–7 the pixels 32 further on. Each lookup reads
        // the whole channel (four registers), which the deinterleaving already left together: tables of two
        // registers cut from it made LLVM copy registers into pairs and spill.
        var low = Bytes(0, 0x80, 0x80, 0x80, 8, 0x80, 0x80, 0x80, 16, 0x80, 0x80, 0x80, 24, 0x80, 0x80, 0x80)
        for column in 0..<8 {
            let high = low &+ 32
            let r = Samples(lowHalf: lanes(channels.0, low), highHalf: lanes(channels.0, high))
            let g = Samples(lowHalf: lanes(channels.1, low), highHalf: lanes(channels.1, high))
            let b = Samples(lowHalf: lanes(channels.2, low), highHalf: lanes(channels.2, high))
            vectors[column] = luma(r, g, b)
            low &+= 1
        }
    }

    /// One interior group of `convert420` for RGB pixels: rows `top` and `bottom` from the group's first pixel,
    /// luma into `upper` (this row pair's first vector) and chroma into `cb`/`cr` from SIMD4 index `chroma`.
    @inline(__always)
    static func group420NEON(
        top: UnsafePointer<UInt8>, bottom: UnsafePointer<UInt8>, upper: UnsafeMutablePointer<Samples>,
        cb: UnsafeMutablePointer<SIMD4<Float>>, cr: UnsafeMutablePointer<SIMD4<Float>>, chroma: Int
    ) {
        // Few registers live at a time (with both rows' 24 registers of bytes and the sums live together, LLVM spilled
        // about a fifth of the group's instructions): the top row's luma, then its pairwise sums; the bottom row's
        // bytes added on and the chroma converted; then the bottom row read again for its luma.
        let t = channels64(top)
        luma64(t, into: upper)
        @inline(__always) func sums(_ top: uint8x16x4_t, _ bottom: uint8x16x4_t) -> uint8x16x4_t {
            @inline(__always) func sum(_ t: Bytes, _ b: Bytes) -> Bytes {
                vreinterpretq_u8_u16(vpadalq_u8(vpaddlq_u8(t), b))
            }
            return uint8x16x4_t(val: (
                sum(top.val.0, bottom.val.0), sum(top.val.1, bottom.val.1), sum(top.val.2, bottom.val.2),
                sum(top.val.3, bottom.val.3)))
        }
        // Each register of sums holds 8 chroma columns of the group in order: register j is lane j of the chroma
        // vectors, and its element k is chroma column k.
        let b = channels64(bottom)
        let red = sums(t.0, b.0), green = sums(t.1, b.1), blue = sums(t.2, b.2)
        var index = Bytes(0, 1, 0x80, 0x80, 16, 17, 0x80, 0x80, 32, 33, 0x80, 0x80, 48, 49, 0x80, 0x80)
        for column in 0..<8 {
            let r = lanes(red, index), g = lanes(green, index), bl = lanes(blue, index)
            cb[chroma &+ 2 &* column] = blueDifference(r, g, bl) * 0.25
            cr[chroma &+ 2 &* column] = redDifference(r, g, bl) * 0.25
            index &+= 2
        }
        luma64(channels64(bottom), into: upper + 8)
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
        let source = UnsafeRawPointer(block), target = UnsafeMutableRawPointer(out)
        let one = SIMD4<UInt32>(repeating: 1)
        /// Quantizes coefficients `first ..< first + 32` of the scan and returns their mask, bit k − first for
        /// coefficient k, in its two halves. The coefficients go from the last down: each shifts the mask left by one
        /// and brings its own bit in, which LLVM makes two instructions a half (the mask doubled, minus `cmtst`'s
        /// all-ones lane) where a bit of its own per coefficient took three and a doubling.
        @inline(__always) func quantize32(_ first: Int) -> (SIMD4<UInt32>, SIMD4<UInt32>) {
            var mask = (SIMD4<UInt32>(), SIMD4<UInt32>())
            for k in stride(from: first &+ 31, through: first, by: -1) {
                let at = Int(scanOrder[k]) &* 32, m = multipliers[k]
                // Both halves loaded, then both stored: pairs of loads and stores (`ldp`, `stp`).
                let a = source.loadUnaligned(fromByteOffset: at, as: SIMD4<Float>.self)
                let b = source.loadUnaligned(fromByteOffset: at &+ 16, as: SIMD4<Float>.self)
                let qa = vcvtnq_s32_f32(vmulq_n_f32(a, m)), qb = vcvtnq_s32_f32(vmulq_n_f32(b, m))
                target.storeBytes(of: qa, toByteOffset: k &* 32, as: SIMD4<Int32>.self)
                target.storeBytes(of: qb, toByteOffset: k &* 32 &+ 16, as: SIMD4<Int32>.self)
                mask = (
                    vorrq_u32(vaddq_u32(mask.0, mask.0), vandq_u32(vtstq_s32(qa, qa), one)),
                    vorrq_u32(vaddq_u32(mask.1, mask.1), vandq_u32(vtstq_s32(qb, qb), one)))
            }
            return mask
        }
        let low = quantize32(0), high = quantize32(32)
        target.storeBytes(of: low.0, toByteOffset: 64 * 32, as: SIMD4<UInt32>.self)
        target.storeBytes(of: low.1, toByteOffset: 64 * 32 + 16, as: SIMD4<UInt32>.self)
        target.storeBytes(of: high.0, toByteOffset: 65 * 32, as: SIMD4<UInt32>.self)
        target.storeBytes(of: high.1, toByteOffset: 65 * 32 + 16, as: SIMD4<UInt32>.self)
    }
}
#endif
