/// Where the encoder puts the JPEG bytes it produces. The codec core writes through this protocol only, so it needs
/// no Foundation and a host can stream straight into a file, a socket or a hash.
public protocol JPEGByteSink {
    /// Appends `bytes` (valid only for the duration of the call) to the output.
    mutating func write(_ bytes: UnsafeRawBufferPointer)
}

/// How the encoder hands on the bytes it produced (valid only for the duration of the call): the public generic
/// `encode(_:into:)` wraps its sink in one, so the encoder itself is compiled once whatever the sink's type
/// (Docs/Footprint.md, "Size on iOS").
typealias JPEGByteWriter = (UnsafeRawBufferPointer) -> Void

/// A sink that collects everything in memory: what `JPEGEncoder.encodeJPEG` returns.
public struct ByteArraySink: JPEGByteSink {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// Makes an empty sink.
    public init() {}

    /// Makes an empty sink with room for `capacity` bytes, so that an output up to that size is written once into
    /// one buffer instead of being copied into ever larger ones as it grows. Room never written costs address
    /// space only: the system hands out the pages when they are first written.
    public init(reservingCapacity capacity: Int) {
        bytes.reserveCapacity(max(0, capacity))
    }

    public mutating func write(_ bytes: UnsafeRawBufferPointer) {
        self.bytes.append(contentsOf: bytes)
    }
}
