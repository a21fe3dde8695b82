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

    static let columns4: [SIMD4<Float>] = (0..<4).map { u in
        SIMD4<Float>((0..<4).map { i in basis[4][i * 4 + u] })
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

    private static func transform4(
        _ block: UnsafeMutablePointer<Int32>, rows: Int, columns: Int, into out: UnsafeMutablePointer<UInt8>,
        stride: Int
    ) {
        let b = basis[4]
        for y in 0..<4 {
            var t = SIMD4<Float>()
            for v in 0..<rows {
                let row = SIMD4<Float>(
                    Float(block[v * 8]), Float(block[v * 8 + 1]), Float(block[v * 8 + 2]), Float(block[v * 8 + 3]))
                t += b[y * 4 + v] * row
            }
            var pixels = SIMD4<Float>(repeating: 128)
            for u in 0..<columns { pixels += t[u] * columns4[u] }
            let bits = unsafeBitCast(pixels + SIMD4(repeating: magic), to: SIMD4<Int32>.self)
            for lane in 0..<4 { out[y * stride + lane] = UInt8(clamping: bits[lane] &- 0x4B40_0000) }
        }
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
