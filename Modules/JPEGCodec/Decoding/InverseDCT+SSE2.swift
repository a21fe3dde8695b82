#if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
import _Builtin_intrinsics.intel

/// The full-size integer inverse DCT of `InverseDCT+Integer.swift` in 16-bit lanes with SSE2 (x86-64's baseline, so
/// no CPU check): x86-64 has no 32-bit vector multiply before SSE4.1, and the portable `SIMD8<Int32>` products were
/// emulated with a dozen instructions each. Here every product is a `pmaddwd` — eight 16-bit × 16-bit products
/// summed in pairs into four 32-bit lanes — so the rotations of the LLM factorisation are folded into pairs of
/// constants (for example out = x₂·(c₀.₅₄₁ + c₀.₇₆₅) + x₆·c₀.₅₄₁), which is exact in integers: the sums are the same
/// as the 32-bit transform's, rounded at the same places.
///
/// Coefficients and the samples between the passes are 16-bit (`packssdw` saturates them), as in libjpeg-turbo's
/// SIMD "islow" decoders. For every block a JPEG encoder can write from 8-bit samples they fit (a dequantized
/// coefficient is within ±2¹¹, the column pass's outputs within ±2¹⁴), so the pixels equal the 32-bit transform's;
/// only a corrupt block can differ, and it stays clamped to 0…255. arm64 runs the same arithmetic with NEON
/// (`InverseDCT+NEON.swift`), so both give the same bytes for every block.
extension InverseDCT {
    private typealias V = __m128i
    private typealias Rows = (V, V, V, V, V, V, V, V)

    /// Two 16-bit constants repeated in pairs, the second multiplier of each `pmaddwd` pair after the first.
    @inline(__always)
    private static func pair(_ first: Int16, _ second: Int16) -> V {
        let packed = Int32(truncatingIfNeeded: UInt32(UInt16(bitPattern: first)) | UInt32(UInt16(bitPattern: second)) << 16)
        return _mm_set1_epi32(packed)
    }

    /// One 8-point inverse DCT of the eight 16-bit lanes of `x.0…x.7` (the vectors are the transform's inputs,
    /// the lanes independent), outputs rounded down by `shift` bits after `bias` is added, saturated to 16 bits.
    @inline(__always)
    private static func pass(_ x: Rows, shift: Int32, bias: Int32) -> Rows {
        let half = _mm_set1_epi32(bias)
        let zero = _mm_setzero_si128()
        // Even part: tmp3 = x₂·(c0.541 + c0.765) + x₆·c0.541, tmp2 = x₂·c0.541 + x₆·(c0.541 − c1.847).
        let lo26 = _mm_unpacklo_epi16(x.2, x.6), hi26 = _mm_unpackhi_epi16(x.2, x.6)
        let k3 = pair(10703, 4433), k2 = pair(4433, -10704)
        let tmp3 = (_mm_madd_epi16(lo26, k3), _mm_madd_epi16(hi26, k3))
        let tmp2 = (_mm_madd_epi16(lo26, k2), _mm_madd_epi16(hi26, k2))
        // (x₀ ± x₄) << 13: the 16-bit sum placed in the high half of each 32-bit lane, shifted back by 3.
        let sum04 = _mm_add_epi16(x.0, x.4), difference04 = _mm_sub_epi16(x.0, x.4)
        let tmp0 = (_mm_srai_epi32(_mm_unpacklo_epi16(zero, sum04), 3), _mm_srai_epi32(_mm_unpackhi_epi16(zero, sum04), 3))
        let tmp1 = (
            _mm_srai_epi32(_mm_unpacklo_epi16(zero, difference04), 3),
            _mm_srai_epi32(_mm_unpackhi_epi16(zero, difference04), 3)
        )
        let e10 = (_mm_add_epi32(tmp0.0, tmp3.0), _mm_add_epi32(tmp0.1, tmp3.1))
        let e13 = (_mm_sub_epi32(tmp0.0, tmp3.0), _mm_sub_epi32(tmp0.1, tmp3.1))
        let e11 = (_mm_add_epi32(tmp1.0, tmp2.0), _mm_add_epi32(tmp1.1, tmp2.1))
        let e12 = (_mm_sub_epi32(tmp1.0, tmp2.0), _mm_sub_epi32(tmp1.1, tmp2.1))
        // Odd part, with z₃ = x₇ + x₃ and z₄ = x₅ + x₁ rotated by c1.175 first:
        // z₃' = z₃·(c1.175 − c1.961) + z₄·c1.175, z₄' = z₃·c1.175 + z₄·(c1.175 − c0.390).
        let z3 = _mm_add_epi16(x.7, x.3), z4 = _mm_add_epi16(x.5, x.1)
        let lo34 = _mm_unpacklo_epi16(z3, z4), hi34 = _mm_unpackhi_epi16(z3, z4)
        let kz3 = pair(-6436, 9633), kz4 = pair(9633, 6437)
        let z3r = (_mm_madd_epi16(lo34, kz3), _mm_madd_epi16(hi34, kz3))
        let z4r = (_mm_madd_epi16(lo34, kz4), _mm_madd_epi16(hi34, kz4))
        // odd₀ = x₇·(c0.298 − c0.899) − x₁·c0.899 + z₃', odd₃ = −x₇·c0.899 + x₁·(c1.501 − c0.899) + z₄',
        // odd₁ = x₅·(c2.053 − c2.562) − x₃·c2.562 + z₄', odd₂ = −x₅·c2.562 + x₃·(c3.072 − c2.562) + z₃'.
        let lo71 = _mm_unpacklo_epi16(x.7, x.1), hi71 = _mm_unpackhi_epi16(x.7, x.1)
        let lo53 = _mm_unpacklo_epi16(x.5, x.3), hi53 = _mm_unpackhi_epi16(x.5, x.3)
        let k0 = pair(-4927, -7373), k3o = pair(-7373, 4926), k1 = pair(-4176, -20995), k2o = pair(-20995, 4177)
        let odd0 = (_mm_add_epi32(_mm_madd_epi16(lo71, k0), z3r.0), _mm_add_epi32(_mm_madd_epi16(hi71, k0), z3r.1))
        let odd3 = (_mm_add_epi32(_mm_madd_epi16(lo71, k3o), z4r.0), _mm_add_epi32(_mm_madd_epi16(hi71, k3o), z4r.1))
        let odd1 = (_mm_add_epi32(_mm_madd_epi16(lo53, k1), z4r.0), _mm_add_epi32(_mm_madd_epi16(hi53, k1), z4r.1))
        let odd2 = (_mm_add_epi32(_mm_madd_epi16(lo53, k2o), z3r.0), _mm_add_epi32(_mm_madd_epi16(hi53, k2o), z3r.1))
        @inline(__always) func output(_ even: (V, V), _ odd: (V, V), _ sign: Bool) -> V {
            let lo = sign ? _mm_sub_epi32(even.0, odd.0) : _mm_add_epi32(even.0, odd.0)
            let hi = sign ? _mm_sub_epi32(even.1, odd.1) : _mm_add_epi32(even.1, odd.1)
            return _mm_packs_epi32(
                _mm_srai_epi32(_mm_add_epi32(lo, half), shift), _mm_srai_epi32(_mm_add_epi32(hi, half), shift))
        }
        return (
            output(e10, odd3, false), output(e11, odd2, false), output(e12, odd1, false), output(e13, odd0, false),
            output(e13, odd0, true), output(e12, odd1, true), output(e11, odd2, true), output(e10, odd3, true)
        )
    }

    /// The 8×8 transpose of 16-bit lanes: vector i of the result holds lane i of every input vector.
    @inline(__always)
    private static func transposed(_ r: Rows) -> Rows {
        let a0 = _mm_unpacklo_epi16(r.0, r.1), a1 = _mm_unpackhi_epi16(r.0, r.1)
        let a2 = _mm_unpacklo_epi16(r.2, r.3), a3 = _mm_unpackhi_epi16(r.2, r.3)
        let a4 = _mm_unpacklo_epi16(r.4, r.5), a5 = _mm_unpackhi_epi16(r.4, r.5)
        let a6 = _mm_unpacklo_epi16(r.6, r.7), a7 = _mm_unpackhi_epi16(r.6, r.7)
        let b0 = _mm_unpacklo_epi32(a0, a2), b1 = _mm_unpackhi_epi32(a0, a2)
        let b2 = _mm_unpacklo_epi32(a1, a3), b3 = _mm_unpackhi_epi32(a1, a3)
        let b4 = _mm_unpacklo_epi32(a4, a6), b5 = _mm_unpackhi_epi32(a4, a6)
        let b6 = _mm_unpacklo_epi32(a5, a7), b7 = _mm_unpackhi_epi32(a5, a7)
        return (
            _mm_unpacklo_epi64(b0, b4), _mm_unpackhi_epi64(b0, b4), _mm_unpacklo_epi64(b1, b5),
            _mm_unpackhi_epi64(b1, b5), _mm_unpacklo_epi64(b2, b6), _mm_unpackhi_epi64(b2, b6),
            _mm_unpacklo_epi64(b3, b7), _mm_unpackhi_epi64(b3, b7)
        )
    }

    /// Writes the 8×8 picture of one block; rows of coefficients past `rows` are zero and not read.
    static func transform8SSE2(
        _ block: UnsafeMutablePointer<Int32>, rows: Int, into out: UnsafeMutablePointer<UInt8>, stride: Int
    ) {
        @inline(__always) func row(_ v: Int) -> V {
            guard v < rows else { return _mm_setzero_si128() }
            let at = UnsafeRawPointer(block + v * 8)
            return _mm_packs_epi32(
                unsafeBitCast(at.loadUnaligned(as: SIMD4<Int32>.self), to: V.self),
                unsafeBitCast(at.loadUnaligned(fromByteOffset: 16, as: SIMD4<Int32>.self), to: V.self))
        }
        let input: Rows = (row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7))
        // Columns first (two fraction bits kept), then rows; the level shift of 128 rides on the second rounding
        // bias (a whole multiple of 2¹⁸ before the shift adds exactly 128 after it).
        let columns = pass(input, shift: constantBits - passBits, bias: 1 &<< (constantBits - passBits - 1))
        let rowShift = constantBits + passBits + 3
        let samples = transposed(
            pass(transposed(columns), shift: rowShift, bias: 1 &<< (rowShift - 1) &+ 128 &<< rowShift))
        @inline(__always) func store(_ a: V, _ b: V, _ y: Int) {
            let bytes = unsafeBitCast(_mm_packus_epi16(a, b), to: SIMD2<UInt64>.self)
            UnsafeMutableRawPointer(out + y * stride).storeBytes(of: bytes[0], as: UInt64.self)
            UnsafeMutableRawPointer(out + (y + 1) * stride).storeBytes(of: bytes[1], as: UInt64.self)
        }
        store(samples.0, samples.1, 0)
        store(samples.2, samples.3, 2)
        store(samples.4, samples.5, 4)
        store(samples.6, samples.7, 6)
    }
}
#endif
