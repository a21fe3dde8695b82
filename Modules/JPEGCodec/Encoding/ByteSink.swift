/// Where the encoder puts the JPEG bytes it produces. The codec core writes through this protocol only, so it needs
/// no Foundation and a host can stream straight into a file, a socket or a hash.
public protocol JPEGByteSink {
    /// Appends `bytes` (valid only for the duration of the call) to the output.
    mutating func write(_ bytes: UnsafeRawBufferPointer)
}

/// A sink that collects everything in memory: what `JPEGEncoder.encodeJPEG` returns.
public struct ByteArraySink: JPEGByteSink {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// Makes an empty sink.
    public init() {}

    public mutating func write(_ bytes: UnsafeRawBufferPointer) {
        self.bytes.append(contentsOf: bytes)
    }
}
