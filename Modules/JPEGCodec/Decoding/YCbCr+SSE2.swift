#if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
import _Builtin_intrinsics.intel

/// YCbCr → RGB sixteen pixels at a time with SSE2, the sums of `YCbCr.convertOneByOne` exactly.
///
/// - Red and blue: `(c·x + 32,768) >> 16` is the high half of the 16-bit product plus the top bit of its low half
///   (`pmulhw`, `pmullw`, a shift), with no 32-bit lanes.
/// - Green: `−22,554·Cb' − 46,802·Cr' + 32,768` is one `pmaddwd` of the pair (Cb', 2·Cr') with (−22,554, −23,401),
///   then the constant and the shift in 32 bits.
/// - Interleaving: SSE2 has no byte shuffle, so the three planes are woven into R G B order in three rounds of
///   masks and shifts, each round pairing units twice as wide as the last: bytes into words (pixels 2j and 2j + 1
///   are the words R₂ⱼG₂ⱼ, B₂ⱼR₂ⱼ₊₁, G₂ⱼ₊₁B₂ⱼ₊₁), words into double words, double words into quad words.
extension YCbCr {
    private typealias V = __m128i

    /// Converts the whole groups of sixteen pixels from the start of the row; returns how many pixels it
    /// converted.
    static func convertSSE2(
        _ luma: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>, count: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) -> Int {
        let zero = _mm_setzero_si128(), centre = _mm_set1_epi16(128)
        let kRed = _mm_set1_epi16(26_345), kBlue = _mm_set1_epi16(-14_942)
        let kGreen = _mm_set1_epi32(
            Int32(truncatingIfNeeded: UInt32(UInt16(bitPattern: -22_554)) | UInt32(UInt16(bitPattern: -23_401)) << 16))
        let greenBias = _mm_set1_epi32(32_768)
        @inline(__always) func load(_ p: UnsafePointer<UInt8>, _ x: Int) -> V {
            unsafeBitCast(UnsafeRawPointer(p + x).loadUnaligned(as: SIMD16<UInt8>.self), to: V.self)
        }
        /// (c·x + 32,768) >> 16 in each 16-bit lane.
        @inline(__always) func scaled(_ x: V, _ c: V) -> V {
            _mm_add_epi16(_mm_mulhi_epi16(x, c), _mm_srli_epi16(_mm_mullo_epi16(x, c), 15))
        }
        /// Eight pixels' R, G and B as 16-bit lanes (before clamping); `b` and `r` are centred on 0.
        @inline(__always) func rgb(_ y: V, _ b: V, _ r: V) -> (V, V, V) {
            let r2 = _mm_add_epi16(r, r)
            let lo = _mm_madd_epi16(_mm_unpacklo_epi16(b, r2), kGreen)
            let hi = _mm_madd_epi16(_mm_unpackhi_epi16(b, r2), kGreen)
            let green = _mm_packs_epi32(
                _mm_srai_epi32(_mm_add_epi32(lo, greenBias), 16), _mm_srai_epi32(_mm_add_epi32(hi, greenBias), 16))
            return (
                _mm_add_epi16(_mm_add_epi16(y, r), scaled(r, kRed)), _mm_add_epi16(y, green),
                _mm_add_epi16(_mm_add_epi16(y, _mm_add_epi16(b, b)), scaled(b, kBlue))
            )
        }
        let lowByte = _mm_set1_epi16(0x00FF), highByte = _mm_set1_epi16(-256)
        let lowWord = _mm_set1_epi32(0x0000_FFFF), highWord = _mm_set1_epi32(-65_536)
        let lowDouble = _mm_set1_epi64x(0xFFFF_FFFF), highDouble = _mm_set1_epi64x(-0x1_0000_0000)
        @inline(__always) func store(_ v: V, _ at: Int) {
            UnsafeMutableRawPointer(out + at).storeBytes(
                of: unsafeBitCast(v, to: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
        }
        var x = 0
        while x + 16 <= count {
            let y = load(luma, x), b = load(cb, x), r = load(cr, x)
            let lo = rgb(
                _mm_unpacklo_epi8(y, zero), _mm_sub_epi16(_mm_unpacklo_epi8(b, zero), centre),
                _mm_sub_epi16(_mm_unpacklo_epi8(r, zero), centre))
            let hi = rgb(
                _mm_unpackhi_epi8(y, zero), _mm_sub_epi16(_mm_unpackhi_epi8(b, zero), centre),
                _mm_sub_epi16(_mm_unpackhi_epi8(r, zero), centre))
            let red = _mm_packus_epi16(lo.0, hi.0), green = _mm_packus_epi16(lo.1, hi.1)
            let blue = _mm_packus_epi16(lo.2, hi.2)
            // Words: a = R₂ⱼG₂ⱼ, c = B₂ⱼR₂ⱼ₊₁, e = G₂ⱼ₊₁B₂ⱼ₊₁; the output is a₀c₀e₀a₁c₁e₁…
            let a = _mm_or_si128(_mm_and_si128(red, lowByte), _mm_slli_epi16(green, 8))
            let c = _mm_or_si128(_mm_and_si128(blue, lowByte), _mm_and_si128(red, highByte))
            let e = _mm_or_si128(_mm_srli_epi16(green, 8), _mm_and_si128(blue, highByte))
            // Double words: (a₂ᵢc₂ᵢ)(e₂ᵢa₂ᵢ₊₁)(c₂ᵢ₊₁e₂ᵢ₊₁) in turn.
            let p = _mm_or_si128(_mm_and_si128(a, lowWord), _mm_slli_epi32(c, 16))
            let q = _mm_or_si128(_mm_and_si128(e, lowWord), _mm_and_si128(a, highWord))
            let s = _mm_or_si128(_mm_srli_epi32(c, 16), _mm_and_si128(e, highWord))
            // Quad words: (p₂ₖq₂ₖ)(s₂ₖp₂ₖ₊₁)(q₂ₖ₊₁s₂ₖ₊₁) in turn.
            let t = _mm_or_si128(_mm_and_si128(p, lowDouble), _mm_slli_epi64(q, 32))
            let u = _mm_or_si128(_mm_and_si128(s, lowDouble), _mm_and_si128(p, highDouble))
            let w = _mm_or_si128(_mm_srli_epi64(q, 32), _mm_and_si128(s, highDouble))
            let at = 3 * x
            store(_mm_unpacklo_epi64(t, u), at)
            store(_mm_castpd_si128(_mm_move_sd(_mm_castsi128_pd(t), _mm_castsi128_pd(w))), at + 16)
            store(_mm_unpackhi_epi64(u, w), at + 32)
            x += 16
        }
        return x
    }
}
#endif
