/// What a progressive frame keeps of one component between its scans (T.81 G.1.2). Coefficients arrive band by band
/// and bit plane by bit plane, so all of them must wait for the last scan; but at a reduced scale the IDCT reads only
/// the top-left `blockSize`×`blockSize` of a block (`InverseDCT`), so only those are stored. A dropped coefficient
/// still matters to the bit stream: an AC refinement scan sends a correction bit for every coefficient that is
/// already non-zero and counts its zero runs over the others, so for blocks that drop some coefficients one 64-bit
/// word per block remembers which are non-zero. At 1/8 a block of `blockSize` 1 keeps only its DC and needs no
/// history at all: its AC scans are skipped whole (`decodeProgressive`).
///
/// Full-size blocks keep the word too (issue 21): an AC refinement scan then finds its run targets and the non-zero
/// positions that take correction bits from it instead of testing every stored value, for 1/16 more memory.
///
/// Bytes per block: 136 at full size, 40 at `blockSize` 4, 16 at 2, 2 at 1.
extension JPEGComponent {
    /// Allocates zeroed coefficient storage for this component's `blockSize`.
    func allocateCoefficients() {
        let n = blockSize, blocks = blocksX * blocksY
        keptSlot = (0..<64).map { k in
            let z = naturalOrder[k], row = z >> 3, column = z & 7
            return row < n && column < n ? row * n + column : -1
        }
        coefficients = ledger.allocate(Int16.self, count: blocks * n * n)
        coefficients.initialize(repeating: 0)
        if n > 1 {
            history = ledger.allocate(UInt64.self, count: blocks)
            history.initialize(repeating: 0)
        }
    }

    /// Whether the AC coefficients of this component reach the output at all (not at `blockSize` 1).
    var needsAC: Bool { blockSize > 1 }

    /// Frees the non-zero history once the last scan is decoded.
    func releaseHistory() {
        ledger.deallocate(history)
        history = UnsafeMutableBufferPointer(start: nil, count: 0)
    }

    /// Frees the coefficients once they are transformed, before the output image is allocated.
    func releaseCoefficients() {
        ledger.deallocate(coefficients)
        coefficients = UnsafeMutableBufferPointer(start: nil, count: 0)
        releaseHistory()
    }
}
