import JPEGCodec

/// A file held in memory, read front to back by a C library's read callback (giflib, libtiff). The callbacks are
/// plain functions that capture nothing, so they find this state through the context pointer the library hands
/// back to them.
struct MemoryInput {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where the next read starts; a seek may set it past the end, where reads return nothing.
    var offset = 0

    /// Copies up to `count` bytes from `offset` into `buffer`, moves past them, and returns how many it copied.
    @inline(never) @_optimize(size) mutating func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        let available = min(count, max(0, bytes.count - offset))
        guard available > 0, let base = bytes.baseAddress else { return 0 }
        buffer.copyMemory(from: base + offset, byteCount: available)
        offset += available
        return available
    }

    /// Runs `body` with a pointer to an input over `file`, valid for the duration of the call.
    @inline(never) @_optimize(size) static func reading<Result>(
        _ file: UnsafeBufferPointer<UInt8>, _ body: (UnsafeMutablePointer<MemoryInput>) throws(CodecError) -> Result
    ) throws(CodecError) -> Result {
        let input = UnsafeMutablePointer<MemoryInput>.allocate(capacity: 1)
        input.initialize(to: MemoryInput(bytes: file))
        defer {
            input.deinitialize(count: 1)
            input.deallocate()
        }
        return try body(input)
    }
}
