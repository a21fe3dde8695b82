/// The full-size (8×8) inverse DCT in 32-bit fixed point: the Loeffler–Ligtenberg–Moschytz factorisation (12
/// multiplications per 1-D transform) with 13-bit constants, columns first with two extra fraction bits kept
/// between the passes, rows second. This is the "accurate integer" method every libjpeg-class decoder uses by
/// default, so its rounding — not just its precision — matches theirs and our pixels land within ±1 of `djpeg`
/// instead of drifting by a few levels in busy chroma.
///
/// Both passes run on `SIMD8<Int32>`: the column pass treats the eight columns as lanes (the block's rows are its
/// vectors, no shuffling), then the intermediate block is transposed so the row pass does the same.
extension InverseDCT {
    typealias Lanes = SIMD8<Int32>
    typealias Block = (Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes)

    /// The constants of the factorisation, c × 2¹³ rounded.
    private static let c0_298631336: Int32 = 2446, c0_390180644: Int32 = 3196, c0_541196100: Int32 = 4433
    private static let c0_765366865: Int32 = 6270, c0_899976223: Int32 = 7373, c1_175875602: Int32 = 9633
    private static let c1_501321110: Int32 = 12299, c1_847759065: Int32 = 15137, c1_961570560: Int32 = 16069
    private static let c2_053119869: Int32 = 16819, c2_562915447: Int32 = 20995, c3_072711026: Int32 = 25172
    static let constantBits: Int32 = 13
    /// Fraction bits kept between the passes.
    static let passBits: Int32 = 2

    /// One 8-point inverse DCT on eight lanes at once; outputs are scaled by 2^`constantBits` and rounded down
    /// by `shift` bits (round half up).
    @inline(__always)
    private static func transform1D(_ x: Block, shift: Int32) -> Block {
        let half = Lanes(repeating: 1 &<< (shift - 1))
        // Even part: the rotation of inputs 2 and 6, and the butterflies of 0 and 4.
        let rotation = (x.2 &+ x.6) &* c0_541196100
        let even2 = rotation &- x.6 &* c1_847759065
        let even3 = rotation &+ x.2 &* c0_765366865
        let even0 = (x.0 &+ x.4) &<< constantBits
        let even1 = (x.0 &- x.4) &<< constantBits
        let e10 = even0 &+ even3, e13 = even0 &- even3
        let e11 = even1 &+ even2, e12 = even1 &- even2
        // Odd part: inputs 7, 5, 3, 1.
        let z1 = x.7 &+ x.1, z2 = x.5 &+ x.3, z3 = x.7 &+ x.3, z4 = x.5 &+ x.1
        let z5 = (z3 &+ z4) &* c1_175875602
        let m1 = z1 &* -c0_899976223, m2 = z2 &* -c2_562915447
        let m3 = z3 &* -c1_961570560 &+ z5, m4 = z4 &* -c0_390180644 &+ z5
        let odd0 = x.7 &* c0_298631336 &+ m1 &+ m3
        let odd1 = x.5 &* c2_053119869 &+ m2 &+ m4
        let odd2 = x.3 &* c3_072711026 &+ m2 &+ m3
        let odd3 = x.1 &* c1_501321110 &+ m1 &+ m4
        return (
            (e10 &+ odd3 &+ half) &>> shift, (e11 &+ odd2 &+ half) &>> shift,
            (e12 &+ odd1 &+ half) &>> shift, (e13 &+ odd0 &+ half) &>> shift,
            (e13 &- odd0 &+ half) &>> shift, (e12 &- odd1 &+ half) &>> shift,
            (e11 &- odd2 &+ half) &>> shift, (e10 &- odd3 &+ half) &>> shift
        )
    }

    @inline(__always)
    private static func transposed(_ b: Block) -> Block {
        (
            Lanes(b.0[0], b.1[0], b.2[0], b.3[0], b.4[0], b.5[0], b.6[0], b.7[0]),
            Lanes(b.0[1], b.1[1], b.2[1], b.3[1], b.4[1], b.5[1], b.6[1], b.7[1]),
            Lanes(b.0[2], b.1[2], b.2[2], b.3[2], b.4[2], b.5[2], b.6[2], b.7[2]),
            Lanes(b.0[3], b.1[3], b.2[3], b.3[3], b.4[3], b.5[3], b.6[3], b.7[3]),
            Lanes(b.0[4], b.1[4], b.2[4], b.3[4], b.4[4], b.5[4], b.6[4], b.7[4]),
            Lanes(b.0[5], b.1[5], b.2[5], b.3[5], b.4[5], b.5[5], b.6[5], b.7[5]),
            Lanes(b.0[6], b.1[6], b.2[6], b.3[6], b.4[6], b.5[6], b.6[6], b.7[6]),
            Lanes(b.0[7], b.1[7], b.2[7], b.3[7], b.4[7], b.5[7], b.6[7], b.7[7])
        )
    }

    /// One coefficient row; rows past `rows` are zero and not read.
    @inline(__always)
    private static func row(_ block: UnsafeMutablePointer<Int32>, _ v: Int, rows: Int) -> Lanes {
        guard v < rows else { return Lanes() }
        return UnsafeRawPointer(block + v * 8).loadUnaligned(as: Lanes.self)
    }

    /// Writes the 8×8 picture of one block with the integer transform. Coefficients of a corrupt file may be
    /// large; the arithmetic wraps (it never traps) and the clamp keeps every sample in range.
    static func transform8Integer(
        _ block: UnsafeMutablePointer<Int32>, rows: Int, into out: UnsafeMutablePointer<UInt8>, stride: Int
    ) {
        let input: Block = (
            row(block, 0, rows: rows), row(block, 1, rows: rows), row(block, 2, rows: rows),
            row(block, 3, rows: rows), row(block, 4, rows: rows), row(block, 5, rows: rows),
            row(block, 6, rows: rows), row(block, 7, rows: rows)
        )
        let columns = transform1D(input, shift: constantBits - passBits)
        // After the row pass, lane y of vector x is the sample at (x, y): transpose back to store rows.
        let samples = transposed(transform1D(transposed(columns), shift: constantBits + passBits + 3))
        let centre = Lanes(repeating: 128)
        withUnsafeBytes(of: samples) { vectors in
            for y in 0..<8 {
                let row = SampleRounding.clampedToByte(vectors.load(fromByteOffset: y * 32, as: Lanes.self) &+ centre)
                UnsafeMutableRawPointer(out + y * stride).storeBytes(
                    of: SampleRounding.narrowed(row), as: SIMD8<UInt8>.self)
            }
        }
    }
}
