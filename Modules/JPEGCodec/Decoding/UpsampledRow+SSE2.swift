#if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
import _Builtin_intrinsics.intel

/// The triangle filter's horizontal step eight samples at a time with SSE2: the sums (at most 4 × 255 = 1,020, so
/// 3·s + s' + bias stays far inside 16 bits) and both neighbours are unaligned 16-bit loads, and each pair of outputs
/// (at most 255 each) becomes one 16-bit lane, even | odd << 8, so sixteen output bytes are one store.
extension UpsampledRow {
    /// Computes the outputs of samples `start..<end` in whole groups of eight, reading `s[start − 1]` to
    /// `s[end]` at most, and returns the first sample it left for the caller.
    static func triangleSSE2(
        _ s: UnsafeMutablePointer<Int16>, from start: Int, upTo end: Int, into out: UnsafeMutablePointer<UInt8>,
        bias: (Int16, Int16), shift: Int16
    ) -> Int {
        let even = _mm_set1_epi16(bias.0), odd = _mm_set1_epi16(bias.1)
        let count = Int32(shift)
        @inline(__always) func load(_ at: Int) -> __m128i {
            unsafeBitCast(UnsafeRawPointer(s + at).loadUnaligned(as: SIMD8<Int16>.self), to: __m128i.self)
        }
        var i = start
        while i &+ 8 <= end {
            let here = load(i)
            let tripled = _mm_add_epi16(_mm_add_epi16(here, here), here)
            let left = _mm_srai_epi16(_mm_add_epi16(_mm_add_epi16(tripled, load(i &- 1)), even), count)
            let right = _mm_srai_epi16(_mm_add_epi16(_mm_add_epi16(tripled, load(i &+ 1)), odd), count)
            let pairs = _mm_or_si128(left, _mm_slli_epi16(right, 8))
            UnsafeMutableRawPointer(out + 2 &* i).storeBytes(
                of: unsafeBitCast(pairs, to: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
            i &+= 8
        }
        return i
    }
}
#endif
