/// Float samples to bytes without Swift's generic SIMD float-to-integer conversion (a per-lane library call, ten
/// times slower): adding 1.5 × 2²³ to a float of magnitude below 2²² leaves it rounded to an integer (ties to even)
/// in the low mantissa bits, which are then read as an integer and clamped to 0…255. The decoder's reduced inverse
/// DCTs store their samples through it.
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
        return narrowed(clampedToByte(bits))
    }

    /// The same for eight lanes.
    @inline(__always)
    static func bytes(_ values: SIMD8<Float>, offset: Float = 0) -> SIMD8<UInt8> {
        let bits = unsafeBitCast(values + SIMD8(repeating: offset + magic), to: SIMD8<Int32>.self) &- magicBits
        return narrowed(clampedToByte(bits))
    }

    // The clamp and the narrowing below are written with lane operators that always inline. The standard
    // library's `clamped(lowerBound:upperBound:)` and `init(truncatingIfNeeded:)` for vectors were left as
    // out-of-line calls in this module (three calls per row of every reduced IDCT and per resampled pixel; 7% of
    // the instructions of a 3/8 decode), though each is a handful of instructions (issue 21).

    /// Each lane clamped to 0…255: a negative lane's sign mask clears it, a lane above 255 is set to all ones by
    /// the sign of 255 − lane and then masked to 255.
    @inline(__always)
    static func clampedToByte<V: SIMD>(_ lanes: V) -> V where V.Scalar == Int32 {
        let low = lanes & ~(lanes &>> 31)
        return (low | ((255 &- low) &>> 31)) & 255
    }

    /// The low byte of each lane (lanes already in 0…255), as the lanes' first bytes in memory (little-endian).
    @inline(__always)
    static func narrowed(_ lanes: SIMD8<Int32>) -> SIMD8<UInt8> {
        let b = unsafeBitCast(lanes, to: SIMD32<UInt8>.self)
        return SIMD8(b[0], b[4], b[8], b[12], b[16], b[20], b[24], b[28])
    }

    /// The same for four lanes.
    @inline(__always)
    static func narrowed(_ lanes: SIMD4<Int32>) -> SIMD4<UInt8> {
        let b = unsafeBitCast(lanes, to: SIMD16<UInt8>.self)
        return SIMD4(b[0], b[4], b[8], b[12])
    }
}
