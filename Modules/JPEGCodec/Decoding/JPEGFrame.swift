
/// A frame header (SOF0/1/2, T.81 B.2.2) and the geometry derived from it at the chosen output scale.
struct JPEGFrame {
    let width: Int, height: Int
    let progressive: Bool
    let components: [JPEGComponent]
    let hMax: Int, vMax: Int
    let mcusX: Int, mcusY: Int
    /// Output scale in eighths (8 = full size).
    let scale: Int
    let outputWidth: Int, outputHeight: Int

    /// Progressive frames: one component at a time, allocates the plane, dequantizes every stored block and
    /// transforms it into the plane, then frees the coefficients, so at most one plane is held beside all of them.
    func transformCoefficients(_ quantization: [[Int32]]) {
        let block = UnsafeMutablePointer<Int32>.allocate(capacity: 64)
        defer { block.deallocate() }
        block.initialize(repeating: 0, count: 64)
        // The non-zero history only served the scans; it goes before the first plane comes.
        for component in components { component.releaseHistory() }
        for component in components {
            let table = quantization[component.quantizationTable]
            var steps = [Int32](repeating: 1, count: 64)
            for k in 0..<min(64, table.count) { steps[naturalOrder[k]] = table[k] }
            // The steps row by row as vectors, for the full-size path.
            let stepRows = (0..<8).map { v in SIMD8<Int32>((0..<8).map { steps[v * 8 + $0] }) }
            component.allocatePlane()
            guard let coefficients = component.coefficients.baseAddress, let plane = component.plane.baseAddress
            else { continue }
            // Stored blocks hold exactly the top-left n×n coefficients the IDCT reads (row-major, n per row).
            let n = component.blockSize
            let stepPointer = UnsafeMutablePointer<Int32>.allocate(capacity: 64)
            defer { stepPointer.deallocate() }
            stepPointer.initialize(from: steps, count: 64)
            for by in 0..<component.blocksY {
                for bx in 0..<component.blocksX {
                    let source = coefficients + (by * component.blocksX + bx) * n * n
                    if n == 8 {
                        Self.dequantize8(source, steps: stepRows, into: block, plane: plane, bx, by, component.stride)
                        continue
                    }
                    // The common reduced sizes with n as a constant, so the loops unroll.
                    let (rows, columns) =
                        n == 3
                        ? Self.dequantize(source, size: 3, steps: stepPointer, into: block)
                        : n == 6
                            ? Self.dequantize(source, size: 6, steps: stepPointer, into: block)
                            : Self.dequantize(source, size: n, steps: stepPointer, into: block)
                    InverseDCT.transform(
                        block, size: n, rows: rows, columns: columns,
                        into: plane + by * n * component.stride + bx * n, stride: component.stride)
                }
            }
            component.releaseCoefficients()
        }
    }

    /// One reduced stored block (n×n, row-major) dequantized into `block` (8 per row); returns how many rows and
    /// columns hold a non-zero value, found as bit sets (no branch per coefficient).
    @inline(__always)
    private static func dequantize(
        _ source: UnsafeMutablePointer<Int16>, size n: Int, steps: UnsafeMutablePointer<Int32>,
        into block: UnsafeMutablePointer<Int32>
    ) -> (rows: Int, columns: Int) {
        var rowBits = 0, columnBits = 0
        for v in 0..<n {
            var any: Int16 = 0
            for u in 0..<n {
                let value = source[v &* n &+ u]
                block[v &* 8 &+ u] = Int32(value) &* steps[v &* 8 &+ u]
                any |= value
                columnBits |= (value != 0 ? 1 : 0) &<< u
            }
            rowBits |= (any != 0 ? 1 : 0) &<< v
        }
        return (Int.bitWidth &- rowBits.leadingZeroBitCount, Int.bitWidth &- columnBits.leadingZeroBitCount)
    }

    /// One full-size stored block: dequantized eight coefficients at a time into `block` (rows of zeros skipped and
    /// left zero), transformed into the plane, and `block` cleared again.
    @inline(__always)
    private static func dequantize8(
        _ source: UnsafeMutablePointer<Int16>, steps: [SIMD8<Int32>], into block: UnsafeMutablePointer<Int32>,
        plane: UnsafeMutablePointer<UInt8>, _ bx: Int, _ by: Int, _ stride: Int
    ) {
        var rows = 0
        var columns = 1
        for v in 0..<8 {
            let row = SIMD8<Int32>(
                truncatingIfNeeded: UnsafeRawPointer(source + v * 8).loadUnaligned(as: SIMD8<Int16>.self))
            guard row != SIMD8() else { continue }
            rows = v + 1
            if v > 0 || row & SIMD8(0, -1, -1, -1, -1, -1, -1, -1) != SIMD8() { columns = 8 }
            UnsafeMutableRawPointer(block + v * 8).storeBytes(of: row &* steps[v], as: SIMD8<Int32>.self)
        }
        InverseDCT.transform(
            block, size: 8, rows: rows, columns: columns, into: plane + by * 8 * stride + bx * 8, stride: stride)
        for v in 0..<rows {
            UnsafeMutableRawPointer(block + v * 8).storeBytes(of: SIMD8<Int32>(), as: SIMD8<Int32>.self)
        }
    }
}
