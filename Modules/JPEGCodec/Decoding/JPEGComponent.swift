/// One colour component of a JPEG frame and everything decoding keeps for it: sampling, tables chosen by the
/// current scan, its block grid, the reduced IDCT size that lands it at output resolution, and its sample plane
/// (plus, for progressive frames, the quantized coefficients that IDCT will read, until the last scan:
/// `JPEGComponent+Coefficients.swift`).
///
/// A class so the hot loops can hold its buffers' stable addresses; it owns them and frees them in `deinit`.
final class JPEGComponent {
    let id: UInt8
    /// Sampling factors (T.81 A.1.1) and the quantization table selector.
    let h: Int, v: Int, quantizationTable: Int
    var dcTable = 0, acTable = 0
    var predictor = 0
    /// The block grid the plane covers (MCU-padded for interleaved frames).
    var blocksX = 0, blocksY = 0
    /// Blocks a non-interleaved scan of this component visits (T.81 A.2.2).
    var scanBlocksX = 0, scanBlocksY = 0
    /// Output size of one block (8, 4, 2 or 1) and the integer upsampling from the plane to the output.
    var blockSize = 8, upX = 1, upY = 1
    /// Plane samples that cover the picture (the rest is block padding).
    var validWidth = 0, validHeight = 0
    var plane = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    var stride = 0
    /// Progressive frames: the top-left `blockSize`×`blockSize` quantized coefficients of every block, row-major
    /// (`blockSize`² per block), the only ones the IDCT at this scale reads.
    var coefficients = UnsafeMutableBufferPointer<Int16>(start: nil, count: 0)
    /// Progressive frames that drop some coefficients (`blockSize` 2 or 4): per block, bit k set when zig-zag
    /// coefficient k is non-zero so far, which AC refinement scans need to be parsed (T.81 G.1.2.3).
    var history = UnsafeMutableBufferPointer<UInt64>(start: nil, count: 0)
    /// `keptSlot[k]`: where zig-zag coefficient k lives in a block's `coefficients`, or -1 when it is dropped.
    var keptSlot: [Int] = []
    /// Where the plane and the coefficients are allocated and counted.
    let ledger: BufferLedger

    init(id: UInt8, h: Int, v: Int, quantizationTable: Int, ledger: BufferLedger) {
        self.ledger = ledger
        self.id = id
        self.h = h
        self.v = v
        self.quantizationTable = quantizationTable
    }

    deinit {
        ledger.deallocate(plane)
        ledger.deallocate(coefficients)
        ledger.deallocate(history)
    }

    /// Allocates the plane, mid-grey so a component no scan reaches stays neutral. Sequential frames need it
    /// from their first scan; progressive frames only once their coefficients are complete, so the two are never
    /// held together for every component at once.
    func allocatePlane() {
        stride = blocksX * blockSize
        plane = ledger.allocate(UInt8.self, count: stride * blocksY * blockSize)
        plane.initialize(repeating: 128)
    }
}

/// The zig-zag sequence (T.81 Figure A.6): `naturalOrder[k]` is the row-major index of the k-th coefficient.
/// Sixteen extra entries let a corrupt run index past 63 without leaving the table.
let naturalOrder: [Int] = [
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21,
    28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61,
    54, 47, 55, 62, 63,
] + [Int](repeating: 63, count: 16)
