/// The inverse DCT of T.81 A.3.3: at full size the fixed-point LLM transform (`InverseDCT+Integer.swift`), and its
/// reduced forms for decoding at 1/2, 3/8, 1/4 and 1/8 scale, computed as two passes of a float matrix product: an
/// N-point inverse DCT of the top-left N×N coefficients gives the block's picture at N/8 of its size (a low-pass
/// reconstruction, so fine patterns cannot alias).
///
/// Input: dequantized coefficients as `Int32` in natural (row-major) order, with `rows`/`columns` bounding the
/// non-zero ones so that the common sparse blocks cost a fraction of a full transform. Output: level-shifted,
/// clamped samples.
enum InverseDCT {
    /// Whether there is a transform for blocks of `size`: N/8 scales 1, 2, 3, 4 and 8, and 6 for a chroma component
    /// sampled 2× coarser at 3/8. (A switch, not a `Set`: the set's hashing code would be the codec's alone.)
    static func hasTransform(size: Int) -> Bool {
        switch size {
        case 1, 2, 3, 4, 6, 8: true
        default: false
        }
    }

    /// `basis[N][i * N + u]` = C(u)·cos((2i + 1)uπ / 2N) / 2, with C(0) = 1/√2: the same normalisation for every N,
    /// so a DC-only block gives DC/8 at any scale.
    static let basis: [[Float]] = makeBasis()

    /// Writes the `n`×`n` picture of one block (n = 8, 6, 4, 3, 2 or 1) to `out`, rows `stride` bytes apart.
    @inline(__always)
    static func transform(
        _ block: UnsafeMutablePointer<Int32>, size n: Int, rows: Int, columns: Int,
        into out: UnsafeMutablePointer<UInt8>, stride: Int
    ) {
        if rows <= 1 && columns <= 1 {
            // floor(DC / 8 + 0.5) + 128, in 64 bits so a corrupt DC cannot overflow.
            let value = UInt8(clamping: (Int(block[0]) + 4) >> 3 + 128)
            fill(out, stride: stride, size: n, with: value)
            return
        }
        switch n {
        case 8: transform8(block, rows: rows, columns: columns, into: out, stride: stride)
        case 6: transform6(block, rows: min(rows, 6), into: out, stride: stride)
        case 4: transform4(block, rows: min(rows, 4), columns: min(columns, 4), into: out, stride: stride)
        case 3: transform3(block, rows: min(rows, 3), into: out, stride: stride)
        case 2, 1: transformSmall(block, size: n, into: out, stride: stride)
        default: return  // no such IDCT size; JPEGFrame never asks for one (a bad size must not index `basis`)
        }
    }

    /// The full-size transform: 16-bit lanes with SSE2 on x86-64 (`InverseDCT+SSE2.swift`) and with NEON on arm64
    /// (`InverseDCT+NEON.swift`, the same arithmetic, with a shortcut for blocks inside the top-left 4×4 that
    /// `columns` bounds), the portable 32-bit lanes elsewhere; all give the same pixels for every block an encoder
    /// writes.
    @inline(__always)
    static func transform8(
        _ block: UnsafeMutablePointer<Int32>, rows: Int, columns: Int = 8, into out: UnsafeMutablePointer<UInt8>,
        stride: Int
    ) {
        #if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
        transform8SSE2(block, rows: rows, into: out, stride: stride)
        #elseif arch(arm64) && canImport(_Builtin_intrinsics.arm.neon)
        transform8NEON(block, rows: rows, columns: columns, into: out, stride: stride)
        #else
        transform8Integer(block, rows: rows, into: out, stride: stride)
        #endif
    }

    /// An n×n square of `value` (a DC-only block) by word stores: a `memset` call per row of three or six bytes
    /// cost more than the fill (issue 21).
    @inline(__always)
    private static func fill(_ out: UnsafeMutablePointer<UInt8>, stride: Int, size n: Int, with value: UInt8) {
        let pattern = UInt64(value) &* 0x0101_0101_0101_0101
        for y in 0..<n {
            let row = UnsafeMutableRawPointer(out + y * stride)
            switch n {
            case 8: row.storeBytes(of: pattern, as: UInt64.self)
            case 6:
                row.storeBytes(of: UInt32(truncatingIfNeeded: pattern), as: UInt32.self)
                row.storeBytes(of: UInt16(truncatingIfNeeded: pattern), toByteOffset: 4, as: UInt16.self)
            case 4: row.storeBytes(of: UInt32(truncatingIfNeeded: pattern), as: UInt32.self)
            case 3:
                row.storeBytes(of: UInt16(truncatingIfNeeded: pattern), as: UInt16.self)
                row.storeBytes(of: value, toByteOffset: 2, as: UInt8.self)
            case 2: row.storeBytes(of: UInt16(truncatingIfNeeded: pattern), as: UInt16.self)
            default: (out + y * stride).update(repeating: value, count: n)
            }
        }
    }

    /// The 4-point inverse DCT of `basis[4]` on four lanes at once, factored into even and odd halves
    /// (out₀,₃ = e₀ ± o₀, out₁,₂ = e₁ ± o₁) with its constants written out, so no table is read per block.
    @inline(__always)
    private static func transform1D4(
        _ x0: SIMD4<Float>, _ x1: SIMD4<Float>, _ x2: SIMD4<Float>, _ x3: SIMD4<Float>
    ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        // C(0)/2 = cos(π/4)/2 = 1/(2√2); cos(π/8)/2 and cos(3π/8)/2.
        let half: Float = 0.353_553_39, c1: Float = 0.461_939_77, c3: Float = 0.191_341_72
        let e0 = (x0 + x2) * half, e1 = (x0 - x2) * half
        let o0 = x1 * c1 + x3 * c3, o1 = x1 * c3 - x3 * c1
        return (e0 + o0, e1 + o1, e1 - o1, e0 - o0)
    }

    @inline(__always)
    private static func transposed4(
        _ m: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        (
            SIMD4(m.0[0], m.1[0], m.2[0], m.3[0]), SIMD4(m.0[1], m.1[1], m.2[1], m.3[1]),
            SIMD4(m.0[2], m.1[2], m.2[2], m.3[2]), SIMD4(m.0[3], m.1[3], m.2[3], m.3[3])
        )
    }

    private static func transform4(
        _ block: UnsafeMutablePointer<Int32>, rows: Int, columns: Int, into out: UnsafeMutablePointer<UInt8>,
        stride: Int
    ) {
        @inline(__always) func row(_ v: Int) -> SIMD4<Float> {
            guard v < rows else { return SIMD4() }
            let r = block + v * 8
            return SIMD4<Float>(Float(r[0]), Float(r[1]), Float(r[2]), Float(r[3]))
        }
        // Columns first (the rows of the block are the vectors), then the rows of the transposed result.
        let columnPass = transform1D4(row(0), row(1), row(2), row(3))
        let t = transposed4(columnPass)
        let samples = transposed4(transform1D4(t.0, t.1, t.2, t.3))
        @inline(__always) func store(_ vector: SIMD4<Float>, _ y: Int) {
            UnsafeMutableRawPointer(out + y * stride).storeBytes(
                of: SampleRounding.bytes(vector, offset: 128), as: SIMD4<UInt8>.self)
        }
        store(samples.0, 0)
        store(samples.1, 1)
        store(samples.2, 2)
        store(samples.3, 3)
    }

    private static func transformSmall(
        _ block: UnsafeMutablePointer<Int32>, size n: Int, into out: UnsafeMutablePointer<UInt8>, stride: Int
    ) {
        let b = basis[n]
        for y in 0..<n {
            for x in 0..<n {
                var sum: Float = 128.5
                for v in 0..<n {
                    for u in 0..<n { sum += b[y * n + v] * b[x * n + u] * Float(block[v * 8 + u]) }
                }
                out[y * stride + x] = UInt8(clamping: Int(sum.rounded(.down)))
            }
        }
    }

    /// The 3-point inverse DCT of `basis[3]` on four lanes (the fourth stays zero): with C(0)/2 = 1/(2√2),
    /// cos(π/6)/2 = √3/4 and cos(π/3)/2 = 1/4, out₀,₂ = a + b ± c and out₁ = a − 2b, where a = x₀/(2√2),
    /// b = x₂/4, c = x₁·√3/4.
    @inline(__always)
    private static func transform1D3(_ x0: SIMD4<Float>, _ x1: SIMD4<Float>, _ x2: SIMD4<Float>)
        -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    {
        let half: Float = 0.353_553_39, root3: Float = 0.433_012_70
        let a = x0 * half, b = x2 * 0.25, c = x1 * root3
        return (a + b + c, a - (b + b), a + b - c)
    }

    /// The 3×3 picture of a block (3/8 scale) from its top-left 3×3 coefficients, columns first as `transform4`.
    private static func transform3(
        _ block: UnsafeMutablePointer<Int32>, rows: Int, into out: UnsafeMutablePointer<UInt8>, stride: Int
    ) {
        @inline(__always) func row(_ v: Int) -> SIMD4<Float> {
            // Lane 3 (column 3, possibly left over from another block size) only reaches lanes and vectors that
            // are never stored: the column pass keeps lanes apart and the row pass reads t.0…t.2.
            guard v < rows else { return SIMD4() }
            return SIMD4<Float>(UnsafeRawPointer(block + v * 8).loadUnaligned(as: SIMD4<Int32>.self))
        }
        let columnPass = transform1D3(row(0), row(1), row(2))
        let t = transposed4((columnPass.0, columnPass.1, columnPass.2, SIMD4()))
        let rowPass = transform1D3(t.0, t.1, t.2)
        let samples = transposed4((rowPass.0, rowPass.1, rowPass.2, SIMD4()))
        @inline(__always) func store(_ vector: SIMD4<Float>, _ y: Int) {
            let bytes = SampleRounding.bytes(vector, offset: 128)
            let line = out + y * stride
            line[0] = bytes[0]
            line[1] = bytes[1]
            line[2] = bytes[2]
        }
        store(samples.0, 0)
        store(samples.1, 1)
        store(samples.2, 2)
    }

    /// The 6-point inverse DCT of `basis[6]` on eight lanes, split into even and odd halves
    /// (out_i = e_i + o_i, out_{5−i} = e_i − o_i): the even half is the 3-point transform of x₀, x₂, x₄, the odd
    /// half uses cos(π/12)/2, cos(π/4)/2 and cos(5π/12)/2 (T.81 A.3.3's basis sampled at six points).
    @inline(__always)
    private static func transform1D6(
        _ x0: SIMD8<Float>, _ x1: SIMD8<Float>, _ x2: SIMD8<Float>, _ x3: SIMD8<Float>, _ x4: SIMD8<Float>,
        _ x5: SIMD8<Float>
    ) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
        let half: Float = 0.353_553_39, root3: Float = 0.433_012_70
        let c1: Float = 0.482_962_91, c3: Float = 0.353_553_39, c5: Float = 0.129_409_52
        let a = x0 * half, b = x4 * 0.25, c = x2 * root3
        let e0 = a + b + c, e1 = a - (b + b), e2 = a + b - c
        let o0 = x1 * c1 + x3 * c3 + x5 * c5
        let o1 = (x1 - x3 - x5) * c3
        let o2 = x1 * c5 - x3 * c3 + x5 * c1
        return (e0 + o0, e1 + o1, e2 + o2, e2 - o2, e1 - o1, e0 - o0)
    }

    @inline(__always)
    private static func transposed6(
        _ m: (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)
    ) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
        @inline(__always) func lane(_ i: Int) -> SIMD8<Float> {
            SIMD8(m.0[i], m.1[i], m.2[i], m.3[i], m.4[i], m.5[i], 0, 0)
        }
        return (lane(0), lane(1), lane(2), lane(3), lane(4), lane(5))
    }

    /// The 6×6 picture of a block (chroma sampled 2× coarser at 3/8 scale) from its top-left 6×6 coefficients.
    private static func transform6(
        _ block: UnsafeMutablePointer<Int32>, rows: Int, into out: UnsafeMutablePointer<UInt8>, stride: Int
    ) {
        @inline(__always) func row(_ v: Int) -> SIMD8<Float> {
            guard v < rows else { return SIMD8() }
            return SIMD8<Float>(UnsafeRawPointer(block + v * 8).loadUnaligned(as: SIMD8<Int32>.self))
        }
        let columnPass = transform1D6(row(0), row(1), row(2), row(3), row(4), row(5))
        let t = transposed6(columnPass)
        let samples = transposed6(transform1D6(t.0, t.1, t.2, t.3, t.4, t.5))
        @inline(__always) func store(_ vector: SIMD8<Float>, _ y: Int) {
            let bytes = SampleRounding.bytes(vector, offset: 128)
            let line = out + y * stride
            for x in 0..<6 { line[x] = bytes[x] }
        }
        store(samples.0, 0)
        store(samples.1, 1)
        store(samples.2, 2)
        store(samples.3, 3)
        store(samples.4, 4)
        store(samples.5, 5)
    }
}
