#if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
import _Builtin_intrinsics.intel

/// The encoder's two per-sample steps on x86-64 with SSE2 intrinsics, computing the same floats in the same order
/// as the portable code (so the files are byte-identical): the portable `SIMD8` code compiles to the same
/// arithmetic, but the compiler assembles each gathered vector from 16- and 8-bit pieces and converts integers to
/// floats with two operations, where one 32-bit load per pixel and `cvtdq2ps` do.
extension StripConverter {
    private typealias V = __m128i

    /// Four RGB pixels 24 bytes apart from `p` as words (red in bits 0–7). Each pixel is read with a 16-byte load,
    /// of which the first four bytes are kept, so the caller guarantees 16 bytes from every pixel (see
    /// `sse2Groups`): a 32-bit scalar load per pixel was split by the compiler into a 16- and an 8-bit load and
    /// reassembled, as only 24 of its bits are used.
    @inline(__always)
    private static func gather4(_ p: UnsafePointer<UInt8>) -> V {
        @inline(__always) func pixel(_ i: Int) -> V {
            unsafeBitCast(UnsafeRawPointer(p + 24 &* i).loadUnaligned(as: SIMD16<UInt8>.self), to: V.self)
        }
        return _mm_unpacklo_epi64(_mm_unpacklo_epi32(pixel(0), pixel(1)), _mm_unpacklo_epi32(pixel(2), pixel(3)))
    }

    /// `luma(words)` of four pixels: (r·0.299 + g·0.587) + (b·0.114 − 128).
    @inline(__always)
    private static func luma4(_ w: V) -> __m128 {
        let byte = _mm_set1_epi32(0xFF)
        let r = _mm_cvtepi32_ps(_mm_and_si128(w, byte))
        let g = _mm_cvtepi32_ps(_mm_and_si128(_mm_srli_epi32(w, 8), byte))
        let b = _mm_cvtepi32_ps(_mm_and_si128(_mm_srli_epi32(w, 16), byte))
        return _mm_add_ps(
            _mm_add_ps(_mm_mul_ps(r, _mm_set1_ps(0.299)), _mm_mul_ps(g, _mm_set1_ps(0.587))),
            _mm_sub_ps(_mm_mul_ps(b, _mm_set1_ps(0.114)), _mm_set1_ps(128)))
    }

    @inline(__always)
    private static func storeHalves(_ lo: __m128, _ hi: __m128, _ at: UnsafeMutablePointer<Samples>) {
        let raw = UnsafeMutableRawPointer(at)
        raw.storeBytes(of: lo, as: SIMD4<Float>.self)
        raw.storeBytes(of: hi, toByteOffset: 16, as: SIMD4<Float>.self)
    }

    /// One column pair of `convert420` for an interior group of RGB pixels: luma of columns c and c + 1 of both
    /// rows into `upper`, and the 2×2 chroma into `cb`/`cr` at `target` and `target + 8` (even and odd lanes).
    @inline(__always)
    static func pair420SSE2(
        top: UnsafePointer<UInt8>, bottom: UnsafePointer<UInt8>, x: Int, upper: UnsafeMutablePointer<Samples>,
        column c: Int, cb: UnsafeMutablePointer<SIMD4<Float>>, cr: UnsafeMutablePointer<SIMD4<Float>>, target: Int
    ) {
        let t = top + x &* 3, b = bottom + x &* 3
        // Each word vector in halves: lanes 0–3 (pixels x, x + 8, …) and 4–7 (x + 32, …).
        let t0 = (gather4(t), gather4(t + 96)), t1 = (gather4(t + 3), gather4(t + 99))
        let b0 = (gather4(b), gather4(b + 96)), b1 = (gather4(b + 3), gather4(b + 99))
        storeHalves(luma4(t0.0), luma4(t0.1), upper + c)
        storeHalves(luma4(t1.0), luma4(t1.1), upper + (c &+ 1))
        storeHalves(luma4(b0.0), luma4(b0.1), upper + (c &+ 8))
        storeHalves(luma4(b1.0), luma4(b1.1), upper + (c &+ 9))
        let redBlue = _mm_set1_epi32(0x00FF_00FF), green = _mm_set1_epi32(0xFF00), low = _mm_set1_epi32(0xFFFF)
        @inline(__always) func sum(_ a: V, _ b: V, _ c: V, _ d: V, _ mask: V) -> V {
            _mm_add_epi32(
                _mm_add_epi32(_mm_add_epi32(_mm_and_si128(a, mask), _mm_and_si128(b, mask)), _mm_and_si128(c, mask)),
                _mm_and_si128(d, mask))
        }
        @inline(__always) func chroma(_ a: V, _ b: V, _ c: V, _ d: V) -> (blue: __m128, red: __m128) {
            let sumRB = sum(a, b, c, d, redBlue), sumG = sum(a, b, c, d, green)
            let r = _mm_cvtepi32_ps(_mm_and_si128(sumRB, low))
            let g = _mm_cvtepi32_ps(_mm_srli_epi32(sumG, 8))
            let bl = _mm_cvtepi32_ps(_mm_srli_epi32(sumRB, 16))
            // blueDifference and redDifference, term by term, then × 0.25.
            let blue = _mm_add_ps(
                _mm_sub_ps(_mm_mul_ps(r, _mm_set1_ps(-0.168_735_892)), _mm_mul_ps(g, _mm_set1_ps(0.331_264_108))),
                _mm_mul_ps(bl, _mm_set1_ps(0.5)))
            let red = _mm_sub_ps(
                _mm_sub_ps(_mm_mul_ps(r, _mm_set1_ps(0.5)), _mm_mul_ps(g, _mm_set1_ps(0.418_687_589))),
                _mm_mul_ps(bl, _mm_set1_ps(0.081_312_411)))
            let quarter = _mm_set1_ps(0.25)
            return (_mm_mul_ps(blue, quarter), _mm_mul_ps(red, quarter))
        }
        let lo = chroma(t0.0, t1.0, b0.0, b1.0), hi = chroma(t0.1, t1.1, b0.1, b1.1)
        let blue = Samples(lowHalf: lo.blue, highHalf: hi.blue), red = Samples(lowHalf: lo.red, highHalf: hi.red)
        cb[target] = blue.evenHalf
        cb[target &+ 8] = blue.oddHalf
        cr[target] = red.evenHalf
        cr[target &+ 8] = red.oddHalf
    }
}

extension ForwardDCT {
    /// `quantize` without the AC clamp: `cvtps2dq` rounds the product to the nearest integer, ties to even, as the
    /// portable code's 1.5 × 2²³ addition does for every product below 2²² (a coefficient over its step is far
    /// below); the non-zero mask is a compare with zero per vector.
    @inline(__always)
    static func quantizeSSE2(
        _ block: UnsafePointer<Lanes>, multipliers: UnsafePointer<Float>, scanOrder: UnsafePointer<Int32>,
        into out: UnsafeMutablePointer<SIMD8<Int32>>
    ) {
        let zero = _mm_setzero_si128()
        var low = (zero, zero), high = (zero, zero)
        let source = UnsafeRawPointer(block), target = UnsafeMutableRawPointer(out)
        /// Quantizes coefficient k of the scan, stores it and returns its two halves' mask bits.
        @inline(__always) func coefficient(_ k: Int) -> (__m128i, __m128i) {
            let at = Int(scanOrder[k]) &* 32
            let m = _mm_set1_ps(multipliers[k])
            @inline(__always) func half(_ offset: Int) -> __m128i {
                let samples = source.loadUnaligned(fromByteOffset: at &+ offset, as: SIMD4<Float>.self)
                let value = _mm_cvtps_epi32(_mm_mul_ps(samples, m))
                target.storeBytes(
                    of: unsafeBitCast(value, to: SIMD4<Int32>.self), toByteOffset: k &* 32 &+ offset,
                    as: SIMD4<Int32>.self)
                return value
            }
            let a = half(0), b = half(16)
            let bit = _mm_set1_epi32(Int32(bitPattern: 1 &<< UInt32(k & 31)))
            return (_mm_andnot_si128(_mm_cmpeq_epi32(a, zero), bit), _mm_andnot_si128(_mm_cmpeq_epi32(b, zero), bit))
        }
        for k in 0..<32 {
            let bits = coefficient(k)
            low = (_mm_or_si128(low.0, bits.0), _mm_or_si128(low.1, bits.1))
        }
        for k in 32..<64 {
            let bits = coefficient(k)
            high = (_mm_or_si128(high.0, bits.0), _mm_or_si128(high.1, bits.1))
        }
        target.storeBytes(of: unsafeBitCast(low.0, to: SIMD4<Int32>.self), toByteOffset: 64 * 32, as: SIMD4<Int32>.self)
        target.storeBytes(
            of: unsafeBitCast(low.1, to: SIMD4<Int32>.self), toByteOffset: 64 * 32 + 16, as: SIMD4<Int32>.self)
        target.storeBytes(of: unsafeBitCast(high.0, to: SIMD4<Int32>.self), toByteOffset: 65 * 32, as: SIMD4<Int32>.self)
        target.storeBytes(
            of: unsafeBitCast(high.1, to: SIMD4<Int32>.self), toByteOffset: 65 * 32 + 16, as: SIMD4<Int32>.self)
    }
}
#endif
