/// The account of one JPEG decode's large buffers: every allocation whose size grows with the picture (coefficient
/// storage, sample planes, upsampling rows, the output image) is made or recorded here, so a test can see the most
/// the decode held at once (`peak`) without trusting a process-wide figure that the test runner itself moves.
///
/// Small fixed-size scratch (one block, Huffman lookup tables) is not counted. One decode owns one ledger; it is
/// never shared between threads.
final class BufferLedger {
    /// Bytes held now, and the most held at any moment so far.
    private(set) var live = 0, peak = 0

    /// Allocates `count` elements (uninitialized) and counts their bytes.
    func allocate<Element>(_: Element.Type, count: Int) -> UnsafeMutableBufferPointer<Element> {
        record(count * MemoryLayout<Element>.stride)
        return .allocate(capacity: count)
    }

    /// Frees a buffer made by `allocate` and stops counting it.
    func deallocate<Element>(_ buffer: UnsafeMutableBufferPointer<Element>) {
        guard buffer.baseAddress != nil else { return }
        release(buffer.count * MemoryLayout<Element>.stride)
        buffer.deallocate()
    }

    /// Counts `bytes` allocated elsewhere (the output array, which outlives the decode; row scratch).
    func record(_ bytes: Int) {
        live += bytes
        peak = max(peak, live)
    }

    /// Stops counting `bytes` recorded with `record`.
    func release(_ bytes: Int) {
        live -= bytes
    }
}
