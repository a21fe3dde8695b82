#if arch(arm64) && canImport(_Builtin_intrinsics.arm.neon)
import _Builtin_intrinsics.arm.neon

/// The full-size integer inverse DCT in 16-bit lanes on arm64: the arithmetic of `InverseDCT+SSE2.swift` (the same
/// folded constant pairs, the same roundings and 16-bit saturations), so an arm64 phone decodes every block —
/// a corrupt one included — to the bytes an x86-64 Mac does. Each SSE2 `pmaddwd` pair x·k + y·l becomes a
/// widening multiply and a widening multiply-accumulate (`smull`/`smlal` and their `2` forms for the high
/// lanes). Eight 16-bit lanes per register instead of the portable transform's two registers of four 32-bit
/// lanes: half the registers, so the block stays in registers (the portable version spilled) and each add,
/// subtract and transpose step is one instruction instead of two.
extension InverseDCT {
    private typealias Half = SIMD8<Int16>
    private typealias Wide = (SIMD4<Int32>, SIMD4<Int32>)
    private typealias Rows16 = (Half, Half, Half, Half, Half, Half, Half, Half)

    /// x·k in 32-bit lanes, the low four lanes and the high four (`smull`, `smull2`).
    @inline(__always)
    private static func product(_ x: Half, _ k: Int16) -> Wide {
        (vmull_s16(vget_low_s16(x), SIMD4(repeating: k)), vmull_high_s16(x, Half(repeating: k)))
    }

    /// `base` + x·k (`smlal`, `smlal2`); an SSE2 `pmaddwd` pair x·k + y·l is `product(x, k) + y·l`.
    @inline(__always)
    private static func adding(_ base: Wide, _ x: Half, _ k: Int16) -> Wide {
        (vmlal_s16(base.0, vget_low_s16(x), SIMD4(repeating: k)), vmlal_high_s16(base.1, x, Half(repeating: k)))
    }

    /// x << 13 in 32-bit lanes (the SSE2 path's 16-bit value in the high half of a lane, shifted back by 3).
    @inline(__always)
    private static func scaled(_ x: Half) -> Wide {
        (vmovl_s16(vget_low_s16(x)) &<< 13, vmovl_high_s16(x) &<< 13)
    }

    /// One 8-point inverse DCT of the eight 16-bit lanes of `x.0…x.7`, outputs rounded down by `shift` bits after
    /// `bias` is added, saturated to 16 bits: `InverseDCT+SSE2.swift`'s `pass`, term for term. `sparse` (a literal
    /// at each call) says that inputs 4…7 are zero: their terms are left out, which changes no sum.
    @inline(__always)
    private static func pass(_ x: Rows16, shift: Int32, bias: Int32, sparse: Bool) -> Rows16 {
        let tmp3 = sparse ? product(x.2, 10703) : adding(product(x.2, 10703), x.6, 4433)
        let tmp2 = sparse ? product(x.2, 4433) : adding(product(x.2, 4433), x.6, -10704)
        let tmp0 = scaled(sparse ? x.0 : x.0 &+ x.4), tmp1 = sparse ? tmp0 : scaled(x.0 &- x.4)
        let e10 = (tmp0.0 &+ tmp3.0, tmp0.1 &+ tmp3.1), e13 = (tmp0.0 &- tmp3.0, tmp0.1 &- tmp3.1)
        let e11 = (tmp1.0 &+ tmp2.0, tmp1.1 &+ tmp2.1), e12 = (tmp1.0 &- tmp2.0, tmp1.1 &- tmp2.1)
        let z3 = sparse ? x.3 : x.7 &+ x.3, z4 = sparse ? x.1 : x.5 &+ x.1
        let z3r = adding(product(z3, -6436), z4, 9633), z4r = adding(product(z3, 9633), z4, 6437)
        let odd0 = adding(sparse ? z3r : adding(z3r, x.7, -4927), x.1, -7373)
        let odd3 = adding(sparse ? z4r : adding(z4r, x.7, -7373), x.1, 4926)
        let odd1 = adding(sparse ? z4r : adding(z4r, x.5, -4176), x.3, -20995)
        let odd2 = adding(sparse ? z3r : adding(z3r, x.5, -20995), x.3, 4177)
        let half = SIMD4<Int32>(repeating: bias)
        @inline(__always) func output(_ even: Wide, _ odd: Wide, _ subtract: Bool) -> Half {
            let lo = subtract ? even.0 &- odd.0 : even.0 &+ odd.0
            let hi = subtract ? even.1 &- odd.1 : even.1 &+ odd.1
            return vqmovn_high_s32(vqmovn_s32((lo &+ half) &>> shift), (hi &+ half) &>> shift)
        }
        return (
            output(e10, odd3, false), output(e11, odd2, false), output(e12, odd1, false), output(e13, odd0, false),
            output(e13, odd0, true), output(e12, odd1, true), output(e11, odd2, true), output(e10, odd3, true)
        )
    }

    /// The 8×8 transpose as three rounds of unzipping: each round sends the even lanes of a pair of rows to one
    /// vector and the odd lanes to another, which rotates the six bits of a sample's position (row, column) by
    /// one, so three rounds swap row and column. Each unzip is one two-register `tbl`: written as shuffles
    /// (`evenHalf`, `uzp1`), LLVM merged them with the narrowing around them into about a hundred single-lane
    /// moves; a table lookup is opaque to it.
    @inline(__always)
    private static func transposed16(_ b: Rows16) -> Rows16 {
        let even = SIMD16<UInt8>(0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29)
        let odd = even &+ 2
        @inline(__always) func bytes(_ x: Half) -> SIMD16<UInt8> { unsafeBitCast(x, to: SIMD16<UInt8>.self) }
        @inline(__always) func pick(_ pair: uint8x16x2_t, _ lanes: SIMD16<UInt8>) -> Half {
            unsafeBitCast(vqtbl2q_u8(pair, lanes), to: Half.self)
        }
        @inline(__always) func round(_ b: Rows16) -> Rows16 {
            let p0 = uint8x16x2_t(val: (bytes(b.0), bytes(b.1))), p1 = uint8x16x2_t(val: (bytes(b.2), bytes(b.3)))
            let p2 = uint8x16x2_t(val: (bytes(b.4), bytes(b.5))), p3 = uint8x16x2_t(val: (bytes(b.6), bytes(b.7)))
            return (pick(p0, even), pick(p1, even), pick(p2, even), pick(p3, even),
                    pick(p0, odd), pick(p1, odd), pick(p2, odd), pick(p3, odd))
        }
        return round(round(round(b)))
    }

    /// Writes the 8×8 picture of one block; rows of coefficients past `rows` and columns past `columns` are zero
    /// and not read. A block inside the top-left 4×4 (most of a smooth photo's, most chroma blocks) takes the
    /// sparse passes: the column pass's inputs 4…7 are its rows 4…7, the row pass's are columns 4…7, which the
    /// column pass leaves exactly 0 (their rounding bias is below one unit of the shift).
    static func transform8NEON(
        _ block: UnsafeMutablePointer<Int32>, rows: Int, columns: Int, into out: UnsafeMutablePointer<UInt8>,
        stride: Int
    ) {
        if rows <= 4 && columns <= 4 {
            transform8NEON(block, rows: rows, into: out, stride: stride, sparse: true)
        } else {
            transform8NEON(block, rows: rows, into: out, stride: stride, sparse: false)
        }
    }

    @inline(__always)
    private static func transform8NEON(
        _ block: UnsafeMutablePointer<Int32>, rows: Int, into out: UnsafeMutablePointer<UInt8>, stride: Int,
        sparse: Bool
    ) {
        @inline(__always) func row(_ v: Int) -> Half {
            guard v < rows else { return Half() }
            let at = UnsafeRawPointer(block + v * 8)
            return vqmovn_high_s32(
                vqmovn_s32(at.loadUnaligned(as: SIMD4<Int32>.self)), at.loadUnaligned(fromByteOffset: 16, as: SIMD4<Int32>.self))
        }
        let zero = Half()
        let input: Rows16 = sparse
            ? (row(0), row(1), row(2), row(3), zero, zero, zero, zero)
            : (row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7))
        // Columns first (two fraction bits kept), then rows with the level shift of 128 in the rounding bias, as
        // the SSE2 path does.
        let columns = pass(input, shift: constantBits - passBits, bias: 1 &<< (constantBits - passBits - 1), sparse: sparse)
        let rowShift = constantBits + passBits + 3
        var t = transposed16(columns)
        if sparse { (t.4, t.5, t.6, t.7) = (zero, zero, zero, zero) }
        let samples = transposed16(
            pass(t, shift: rowShift, bias: 1 &<< (rowShift - 1) &+ 128 &<< rowShift, sparse: sparse))
        @inline(__always) func store(_ samples: Half, _ y: Int) {
            UnsafeMutableRawPointer(out + y &* stride).storeBytes(of: vqmovun_s16(samples), as: SIMD8<UInt8>.self)
        }
        store(samples.0, 0)
        store(samples.1, 1)
        store(samples.2, 2)
        store(samples.3, 3)
        store(samples.4, 4)
        store(samples.5, 5)
        store(samples.6, 6)
        store(samples.7, 7)
    }
}
#endif
