#if arch(arm64) && canImport(_Builtin_intrinsics.arm.neon)
import _Builtin_intrinsics.arm.neon
#endif

/// The forward DCT of eight 8×8 blocks at once.
///
/// Layout ("lane-interleaved"): `block[k]` holds coefficient or sample k (natural order, row-major) of eight
/// horizontally adjacent blocks, one per SIMD lane. Both 1-D passes are then butterflies *between* vectors, so the
/// 2-D transform needs no transpose and no in-register shuffles: every operation is a full-width vector op.
///
/// The transform is the Arai–Agui–Nakajima factorisation (5 multiplications per 1-D pass). Its outputs carry a
/// per-frequency scale that `QuantizationMultipliers` folds into the quantizer, so no extra pass is spent on it.
enum ForwardDCT {
    typealias Lanes = SIMD8<Float>

    /// 64 coefficient vectors plus the low and high halves of each block's non-zero mask.
    static let coefficientVectorsPerGroup = 66

    /// Transforms `block[0..<64]` in place: level-shifted samples in, AAN-scaled coefficients out.
    ///
    /// The passes run on halves of the vectors (blocks 0–3, then 4–7 of the group), in `PassLanes`: the lanes are
    /// independent, so the results are the same floats whatever the grouping.
    @inline(__always)
    static func transform(_ block: UnsafeMutablePointer<Lanes>) {
        block.withMemoryRebound(to: PassLanes.self, capacity: 128) { halves in
            for half in 0..<2 {
                // Vector k's half is halves[2k + half]: rows are 16 apart, columns 2.
                for row in 0..<8 {
                    pass(halves + (row &* 16 &+ half), stride: 2)
                }
                for column in 0..<8 {
                    pass(halves + (column &* 2 &+ half), stride: 16)
                }
            }
        }
    }

    /// One 1-D AAN pass over the eight vectors at `p[0], p[stride], …, p[7*stride]`.
    @inline(__always)
    static func pass(_ p: UnsafeMutablePointer<PassLanes>, stride: Int) {
        typealias Lanes = PassLanes
        let d0 = p[0], d1 = p[stride], d2 = p[2 * stride], d3 = p[3 * stride]
        let d4 = p[4 * stride], d5 = p[5 * stride], d6 = p[6 * stride], d7 = p[7 * stride]

        let t0 = d0 + d7, t7 = d0 - d7
        let t1 = d1 + d6, t6 = d1 - d6
        let t2 = d2 + d5, t5 = d2 - d5
        let t3 = d3 + d4, t4 = d3 - d4

        // Even part.
        let e10 = t0 + t3, e13 = t0 - t3
        let e11 = t1 + t2, e12 = t1 - t2
        p[0] = e10 + e11
        p[4 * stride] = e10 - e11
        let z1 = (e12 + e13) * Lanes(0.707106781)  // cos(π/4)
        p[2 * stride] = e13 + z1
        p[6 * stride] = e13 - z1

        // Odd part.
        let o10 = t4 + t5, o11 = t5 + t6, o12 = t6 + t7
        let z5 = (o10 - o12) * Lanes(0.382683433)  // cos(3π/8)
        let z2 = o10 * Lanes(0.541196100) + z5  // cos(π/8) − cos(3π/8)
        let z4 = o12 * Lanes(1.306562965) + z5  // cos(π/8) + cos(3π/8)
        let z3 = o11 * Lanes(0.707106781)
        let z11 = t7 + z3, z13 = t7 - z3
        p[5 * stride] = z13 + z2
        p[3 * stride] = z13 - z2
        p[stride] = z11 + z4
        p[7 * stride] = z11 - z4
    }

    /// Quantizes the 64 transformed vectors of `block` into `out` in zig-zag order (`scanOrder[k]` is the natural
    /// position of the k-th coefficient, `multipliers` are in zig-zag order too), rounding to nearest. Writing the
    /// scan order here spares the entropy coder a table lookup per coefficient.
    ///
    /// It also leaves, after the 64 coefficients, each block's non-zero mask (bit k set when the k-th coefficient
    /// of the scan is non-zero) as two 32-bit halves: built here eight blocks at a time with vector ops, it saves
    /// the entropy coder a compare-and-shift per coefficient.
    ///
    /// With `clampAC` (a table with AC steps of 1, where float error can reach ±1024) the AC coefficients are
    /// limited to ±1023, the largest magnitude baseline Huffman coding has a category for (size 10).
    ///
    /// Adding 1.5·2²³ to a float with |x| < 2²² rounds it to an integer (ties to even) and leaves that integer in
    /// the low mantissa bits, so the bit pattern minus the constant's pattern is the result: no per-lane rounding
    /// or conversion call, which the generic SIMD conversions fall back to.
    @inline(__always)
    static func quantize(
        _ block: UnsafePointer<Lanes>, multipliers: UnsafePointer<Float>, scanOrder: UnsafePointer<Int32>,
        clampAC: Bool, into out: UnsafeMutablePointer<SIMD8<Int32>>
    ) {
        #if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
        if !clampAC {
            quantizeSSE2(block, multipliers: multipliers, scanOrder: scanOrder, into: out)
            return
        }
        #elseif arch(arm64) && canImport(_Builtin_intrinsics.arm.neon)
        if !clampAC {
            quantizeNEON(block, multipliers: multipliers, scanOrder: scanOrder, into: out)
            return
        }
        #endif
        quantizePortable(block, multipliers: multipliers, scanOrder: scanOrder, clampAC: clampAC, into: out)
    }

    /// `quantize` in portable vector code (x86-64 and arm64 use it for tables with a step of 1, where the AC clamp
    /// applies).
    @inline(__always)
    static func quantizePortable(
        _ block: UnsafePointer<Lanes>, multipliers: UnsafePointer<Float>, scanOrder: UnsafePointer<Int32>,
        clampAC: Bool, into out: UnsafeMutablePointer<SIMD8<Int32>>
    ) {
        let magic = Lanes(repeating: 12_582_912)
        let magicBits = SIMD8<Int32>(repeating: 0x4B40_0000)
        var low = SIMD8<Int32>.zero
        var high = SIMD8<Int32>.zero
        for k in 0..<64 {
            let shifted = block[Int(scanOrder[k])] * Lanes(repeating: multipliers[k]) + magic
            var value = unsafeBitCast(shifted, to: SIMD8<Int32>.self) &- magicBits
            if clampAC && k > 0 {
                value.replace(with: SIMD8(repeating: 1023), where: value .> SIMD8(repeating: 1023))
                value.replace(with: SIMD8(repeating: -1023), where: value .< SIMD8(repeating: -1023))
            }
            out[k] = value
            // v | −v has its sign bit set exactly when v ≠ 0; the arithmetic shift spreads it to all bits.
            let nonZero = (value | (SIMD8<Int32>.zero &- value)) &>> 31
            if k < 32 {
                low |= nonZero & SIMD8<Int32>(repeating: Int32(bitPattern: 1 << UInt32(k)))
            } else {
                high |= nonZero & SIMD8<Int32>(repeating: Int32(bitPattern: 1 << UInt32(k - 32)))
            }
        }
        out[64] = low
        out[65] = high
    }
}

/// Four lanes of the forward DCT's arithmetic: `SIMD4<Float>`'s operations, one register on NEON and SSE alike.
///
/// Swift's SIMD operators reach LLVM as one scalar operation per lane, which LLVM's SLP vectoriser puts back into
/// vectors. On x86-64 it rebuilds a whole pass; on arm64 it rebuilt only part of it, with lane moves between (about
/// 175 instructions a pass where 45 do), so there each operation is its NEON intrinsic, the same IEEE arithmetic.
struct PassLanes {
    var value: SIMD4<Float>

    @inline(__always)
    init(_ value: SIMD4<Float>) { self.value = value }

    @inline(__always)
    init(_ scalar: Float) { value = SIMD4(repeating: scalar) }

    #if arch(arm64) && canImport(_Builtin_intrinsics.arm.neon)
    @inline(__always)
    static func + (a: Self, b: Self) -> Self { Self(vaddq_f32(a.value, b.value)) }

    @inline(__always)
    static func - (a: Self, b: Self) -> Self { Self(vsubq_f32(a.value, b.value)) }

    @inline(__always)
    static func * (a: Self, b: Self) -> Self { Self(vmulq_f32(a.value, b.value)) }
    #else
    @inline(__always)
    static func + (a: Self, b: Self) -> Self { Self(a.value + b.value) }

    @inline(__always)
    static func - (a: Self, b: Self) -> Self { Self(a.value - b.value) }

    @inline(__always)
    static func * (a: Self, b: Self) -> Self { Self(a.value * b.value) }
    #endif
}
