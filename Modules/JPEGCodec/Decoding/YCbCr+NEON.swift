#if arch(arm64) && canImport(_Builtin_intrinsics.arm.neon)
import _Builtin_intrinsics.arm.neon

/// YCbCr → RGB on arm64 with NEON, sixteen pixels at a time: the sums of `YCbCr.convertOneByOne`, exact.
/// - Cb' and Cr' are `usubl` of the bytes and 128 (16-bit lanes), Y is `uxtl`.
/// - Red and blue: `(c·x + 32,768) >> 16` is a widening multiply (`smull`) and `addhn`, which adds the constant and
///   keeps the high half — the shift, with no 32-bit shift or narrowing instruction.
/// - Green: `−22,554·Cb' − 46,802·Cr'` is `smull` and a doubling multiply-accumulate `sqdmlal` of Cr' by −23,401
///   (−46,802 does not fit 16 bits; doubled it does, and no sum comes near saturation), then the same `addhn`.
/// - The channels saturate to bytes (`sqxtun`, the clamp), and three `tbl` lookups weave them into R G B order
///   (`vst3q_u8` is a macro Swift cannot import).
extension YCbCr {
    private typealias Bytes = SIMD16<UInt8>
    private typealias Half = SIMD8<Int16>

    /// (c·x + 32,768) >> 16 of each lane, as 16 bits.
    @inline(__always)
    private static func scaled(_ x: Half, _ c: Int16) -> Half {
        let round = SIMD4<Int32>(repeating: 32_768)
        return vaddhn_high_s32(
            vaddhn_s32(vmull_s16(vget_low_s16(x), SIMD4(repeating: c)), round),
            vmull_high_s16(x, Half(repeating: c)), round)
    }

    /// Red, green and blue of eight pixels, before the clamp.
    @inline(__always)
    private static func pixels(_ y: Half, _ b: Half, _ r: Half) -> (Half, Half, Half) {
        let round = SIMD4<Int32>(repeating: 32_768)
        let greenLow = vqdmlal_s16(vmull_s16(vget_low_s16(b), SIMD4(repeating: -22_554)), vget_low_s16(r), SIMD4(repeating: -23_401))
        let greenHigh = vqdmlal_high_s16(vmull_high_s16(b, Half(repeating: -22_554)), r, Half(repeating: -23_401))
        let green = vaddhn_high_s32(vaddhn_s32(greenLow, round), greenHigh, round)
        return (y &+ r &+ scaled(r, 26_345), y &+ green, y &+ (b &<< 1) &+ scaled(b, -14_942))
    }

    /// Converts the whole groups of sixteen pixels from the start of the row; returns how many pixels it converted.
    static func convertNEON(
        _ luma: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>, count: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) -> Int {
        let whole = count & ~15
        guard whole > 0 else { return 0 }
        // The weave: output byte j of a group is channel j % 3 of pixel j / 3, at index 16·(j % 3) + j / 3 of the
        // three channel registers (literals: built lane by lane per row it cost 2% of a small photo's decode).
        let weaves = (
            Bytes(0, 16, 32, 1, 17, 33, 2, 18, 34, 3, 19, 35, 4, 20, 36, 5),
            Bytes(21, 37, 6, 22, 38, 7, 23, 39, 8, 24, 40, 9, 25, 41, 10, 26),
            Bytes(42, 11, 27, 43, 12, 28, 44, 13, 29, 45, 14, 30, 46, 15, 31, 47))
        let centre = SIMD8<UInt8>(repeating: 128), centre16 = Bytes(repeating: 128)
        @inline(__always) func load(_ p: UnsafePointer<UInt8>) -> Bytes { UnsafeRawPointer(p).loadUnaligned(as: Bytes.self) }
        var x = 0
        while x < whole {
            let y = load(luma + x), b = load(cb + x), r = load(cr + x)
            let low = pixels(
                vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(y))), vreinterpretq_s16_u16(vsubl_u8(vget_low_u8(b), centre)),
                vreinterpretq_s16_u16(vsubl_u8(vget_low_u8(r), centre)))
            let high = pixels(
                vreinterpretq_s16_u16(vmovl_high_u8(y)), vreinterpretq_s16_u16(vsubl_high_u8(b, centre16)),
                vreinterpretq_s16_u16(vsubl_high_u8(r, centre16)))
            let channels = uint8x16x3_t(val: (
                vqmovun_high_s16(vqmovun_s16(low.0), high.0), vqmovun_high_s16(vqmovun_s16(low.1), high.1),
                vqmovun_high_s16(vqmovun_s16(low.2), high.2)))
            let at = UnsafeMutableRawPointer(out + 3 &* x)
            at.storeBytes(of: vqtbl3q_u8(channels, weaves.0), as: Bytes.self)
            at.storeBytes(of: vqtbl3q_u8(channels, weaves.1), toByteOffset: 16, as: Bytes.self)
            at.storeBytes(of: vqtbl3q_u8(channels, weaves.2), toByteOffset: 32, as: Bytes.self)
            x &+= 16
        }
        return whole
    }
}
#endif
