/// The inverse DCT of T.81 A.3.3: at full size the fixed-point LLM transform (`InverseDCT+Integer.swift`), and its
/// reduced forms for decoding at 1/2, 1/4 and 1/8 scale, computed as two passes of a float matrix product: an
/// N-point inverse DCT of the top-left N×N coefficients gives the block's picture at N/8 of its size (a low-pass
/// reconstruction, so fine patterns cannot alias).
///
/// Input: dequantized coefficients as `Int32` in natural (row-major) order, with `rows`/`columns` bounding the
/// non-zero ones so that the common sparse blocks cost a fraction of a full transform. Output: level-shifted,
/// clamped samples.
enum InverseDCT {
    /// `basis[N][i * N + u]` = C(u)·cos((2i + 1)uπ / 2N) / 2, with C(0) = 1/√2: the same normalisation for every N,
    /// so a DC-only block gives DC/8 at any scale.
    static let basis: [[Float]] = [1, 2, 4, 8].reduce(into: [[Float]](repeating: [], count: 9)) { table, n in
        var values = [Float](repeating: 0, count: n * n)
        for i in 0..<n {
            for u in 0..<n {
                let c = u == 0 ? 1 / 2.0.squareRoot() : 1.0
                let angle = Double(2 * i + 1) * Double(u) * Double.pi / Double(2 * n)
                values[i * n + u] = Float(c * cosine(angle) / 2)
            }
        }
        table[n] = values
    }

    /// cos(x) by its Taylor series after reducing x to [−π, π]; the codec core links no maths library.
    static func cosine(_ x: Double) -> Double {
        var reduced = x.truncatingRemainder(dividingBy: 2 * Double.pi)
        if reduced > Double.pi { reduced -= 2 * Double.pi }
        if reduced < -Double.pi { reduced += 2 * Double.pi }
        var term = 1.0
        var sum = 1.0
        for k in stride(from: 2, through: 40, by: 2) {
            term *= -reduced * reduced / Double((k - 1) * k)
            sum += term
        }
        return sum
    }

    /// Writes the `n`×`n` picture of one block (n = 8, 4, 2 or 1) to `out`, rows `stride` bytes apart.
    @inline(__always)
    static func transform(
        _ block: UnsafeMutablePointer<Int32>, size n: Int, rows: Int, columns: Int,
        into out: UnsafeMutablePointer<UInt8>, stride: Int
    ) {
        if rows <= 1 && columns <= 1 {
            // floor(DC / 8 + 0.5) + 128, in 64 bits so a corrupt DC cannot overflow.
            let value = UInt8(clamping: (Int(block[0]) + 4) >> 3 + 128)
            for y in 0..<n { (out + y * stride).update(repeating: value, count: n) }
            return
        }
        switch n {
        case 8: transform8Integer(block, rows: rows, into: out, stride: stride)
        case 4: transform4(block, rows: min(rows, 4), columns: min(columns, 4), into: out, stride: stride)
        case 2, 1: transformSmall(block, size: n, into: out, stride: stride)
        default: return  // no such IDCT size; JPEGFrame never asks for one (a bad size must not index `basis`)
        }
    }

    /// 1.5 × 2²³: adding it to a float below 2²² leaves the value rounded to an integer in the low mantissa bits.
    /// Swift's generic SIMD float-to-integer conversion is a per-lane library call, ten times slower than this.
    static let magic: Float = 12_582_912

    @inline(__always) private static func store(_ pixels: SIMD8<Float>, to out: UnsafeMutablePointer<UInt8>) {
        let bits = unsafeBitCast(pixels + SIMD8(repeating: magic), to: SIMD8<Int32>.self)
        for lane in 0..<8 { out[lane] = UInt8(clamping: bits[lane] &- 0x4B40_0000) }
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
        let centre = SIMD4<Float>(repeating: 128 + magic)
        @inline(__always) func store(_ vector: SIMD4<Float>, _ y: Int) {
            let bits = unsafeBitCast(vector + centre, to: SIMD4<Int32>.self) &- 0x4B40_0000
            let clamped = bits.clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 255))
            UnsafeMutableRawPointer(out + y * stride).storeBytes(
                of: SIMD4<UInt8>(truncatingIfNeeded: clamped), as: SIMD4<UInt8>.self)
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
}
