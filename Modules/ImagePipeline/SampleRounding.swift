/// Float samples to bytes without Swift's generic SIMD float-to-integer conversion (a per-lane library call, ten
/// times slower): adding 1.5 × 2²³ to a float of magnitude below 2²² leaves it rounded to an integer (ties to even)
/// in the low mantissa bits, which are then read as an integer and clamped to 0…255. The decoder's reduced inverse
/// DCTs and the resampler store their samples through it.
enum SampleRounding {
    /// 1.5 × 2²³.
    static let magic: Float = 12_582_912
    /// The bits of `magic`.
    private static let magicBits: Int32 = 0x4B40_0000

    /// Each lane of `values + offset` rounded to nearest and clamped to 0…255. `offset` (a whole number, such as
    /// the level shift 128) is added together with the rounding constant, so it costs no extra addition and
    /// rounds no differently.
    @inline(__always)
    static func bytes(_ values: SIMD4<Float>, offset: Float = 0) -> SIMD4<UInt8> {
        let bits = unsafeBitCast(values + SIMD4(repeating: offset + magic), to: SIMD4<Int32>.self) &- magicBits
        return SIMD4(truncatingIfNeeded: bits.clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 255)))
    }

    /// The same for eight lanes.
    @inline(__always)
    static func bytes(_ values: SIMD8<Float>, offset: Float = 0) -> SIMD8<UInt8> {
        let bits = unsafeBitCast(values + SIMD8(repeating: offset + magic), to: SIMD8<Int32>.self) &- magicBits
        return SIMD8(truncatingIfNeeded: bits.clamped(lowerBound: SIMD8(repeating: 0), upperBound: SIMD8(repeating: 255)))
    }
}
