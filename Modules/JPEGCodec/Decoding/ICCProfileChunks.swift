/// The ICC profile of a JPEG file, carried in APP2 segments that start with `ICC_PROFILE\0`, a sequence number
/// (1…n) and the chunk count n (ICC.1:2022 annex B.4), reassembled in sequence order once the whole file is read.
///
/// Only the segments' positions are kept while reading; the bytes are copied once, at the end, and only when the
/// chain is whole and consistent: every count the same, every number from 1 to n exactly once, and at most
/// `ICCProfile.maximumSize` bytes in all. Anything else (a missing or repeated chunk, a truncated chain, a chunk too
/// short to hold its header) means no profile: the picture is read as sRGB, as libjpeg-based readers do.
struct ICCProfileChunks {
    private var chunks: [(sequence: Int, range: Range<Int>)] = []
    private var count = 0
    private var total = 0
    private var malformed = false

    private static let marker: [UInt8] = [0x49, 0x43, 0x43, 0x5F, 0x50, 0x52, 0x4F, 0x46, 0x49, 0x4C, 0x45, 0]

    /// Notes one APP2 segment (its payload at `segment` in `data`); segments of other kinds are ignored.
    @_optimize(size) mutating func add(_ data: UnsafePointer<UInt8>, _ segment: Range<Int>) {
        let signature = Self.marker
        guard segment.count >= signature.count,
              (0..<signature.count).allSatisfy({ data[segment.lowerBound + $0] == signature[$0] })
        else { return }
        guard !malformed, segment.count >= 14 else { malformed = true; return }
        let sequence = Int(data[segment.lowerBound + 12]), declared = Int(data[segment.lowerBound + 13])
        let payload = (segment.lowerBound + 14)..<segment.upperBound
        guard declared >= 1, (1...declared).contains(sequence), count == 0 || count == declared,
              !chunks.contains(where: { $0.sequence == sequence }),
              payload.count <= ICCProfile.maximumSize - total
        else { malformed = true; return }
        count = declared
        total += payload.count
        chunks.append((sequence, payload))
    }

    /// The reassembled profile, or nil when there is none or the chain is not whole.
    @_optimize(size) func assembled(_ data: UnsafePointer<UInt8>) -> [UInt8]? {
        guard !malformed, count > 0, chunks.count == count, total > 0 else { return nil }
        var profile: [UInt8] = []
        profile.reserveCapacity(total)
        for sequence in 1...count {
            guard let chunk = chunks.first(where: { $0.sequence == sequence }) else { return nil }
            profile.append(
                contentsOf: UnsafeBufferPointer(start: data + chunk.range.lowerBound, count: chunk.range.count))
        }
        return profile
    }
}
