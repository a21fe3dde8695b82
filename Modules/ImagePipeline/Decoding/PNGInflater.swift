import CZlib
import JPEGCodec

/// The zlib stream of a PNG's `IDAT` chunks, inflated on demand a row at a time straight from the file: the
/// payloads are never concatenated and the whole filtered image never exists at once, so decoding holds only the
/// output pixels and two rows. Output beyond what is asked is never produced, so a zip bomb costs nothing.
final class PNGInflater {
    private let file: UnsafePointer<UInt8>
    private let ranges: [Range<Int>]
    private var nextRange = 0
    /// Heap-allocated because zlib keeps a pointer back to its `z_stream` and checks it on every call.
    private let stream: UnsafeMutablePointer<z_stream>
    private var ended = false

    init(file: UnsafeBufferPointer<UInt8>, ranges: [Range<Int>]) throws(CodecError) {
        guard let base = file.baseAddress else { throw .invalidImage }
        self.file = base
        self.ranges = ranges
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard reception_inflate_init(stream) == Z_OK else {
            stream.deallocate()
            throw .invalidImage
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Fills exactly `count` bytes at `out`, or throws `invalid_image` when the stream is corrupt or ends first.
    func read(into out: UnsafeMutablePointer<UInt8>, count: Int) throws(CodecError) {
        stream.pointee.next_out = out
        stream.pointee.avail_out = uInt(count)
        while stream.pointee.avail_out > 0 {
            guard !ended else { throw .invalidImage }
            if stream.pointee.avail_in == 0 {
                guard nextRange < ranges.count else { throw .invalidImage }
                let range = ranges[nextRange]
                nextRange += 1
                stream.pointee.next_in = UnsafeMutablePointer(mutating: file + range.lowerBound)
                stream.pointee.avail_in = uInt(range.count)
                continue
            }
            let status = inflate(stream, Z_NO_FLUSH)
            if status == Z_STREAM_END { ended = true; continue }
            guard status == Z_OK else { throw .invalidImage }
        }
    }

    /// Inflates the rest of the stream, at most `limit` bytes (an `iCCP` profile); nil when it is corrupt, ends
    /// early or would exceed `limit`. Output grows in 16 KiB pieces as it is produced, so a stream that lies costs
    /// at most `limit` bytes.
    func readToEnd(limit: Int) -> [UInt8]? {
        let piece = 16_384
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: piece)
        defer { buffer.deallocate() }
        var output: [UInt8] = []
        while !ended {
            if stream.pointee.avail_in == 0 {
                guard nextRange < ranges.count else { return nil }
                let range = ranges[nextRange]
                nextRange += 1
                stream.pointee.next_in = UnsafeMutablePointer(mutating: file + range.lowerBound)
                stream.pointee.avail_in = uInt(range.count)
                continue
            }
            stream.pointee.next_out = buffer
            stream.pointee.avail_out = uInt(piece)
            let status = inflate(stream, Z_NO_FLUSH)
            guard status == Z_OK || status == Z_STREAM_END else { return nil }
            let produced = piece - Int(stream.pointee.avail_out)
            guard produced <= limit - output.count else { return nil }
            output.append(contentsOf: UnsafeBufferPointer(start: buffer, count: produced))
            if status == Z_STREAM_END { ended = true }
        }
        return output
    }
}
