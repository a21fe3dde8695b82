import Digest

/// The on-disk form of one secure item: `RKS1`, the payload length (4 bytes, big-endian), the payload's SHA-256,
/// then the payload. A file that does not match is corrupt: torn by a crash on a file system without ordered
/// renames, or edited by someone else.
enum ItemFile {
    static let magic: [UInt8] = Array("RKS1".utf8)
    static let headerSize = 4 + 4 + SHA256.byteCount
    /// Secure items are small (credentials, a revocation queue); anything larger is not ours.
    static let maximumSize = 1 << 20

    @_optimize(size) static func encode(_ payload: [UInt8]) -> [UInt8] {
        var out = magic
        let count = UInt32(payload.count)
        out += [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
        out += SHA256.hash(payload)
        out += payload
        return out
    }

    @_optimize(size) static func decode(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= headerSize, Array(bytes[0..<4]) == magic else { return nil }
        let count = Int(bytes[4]) << 24 | Int(bytes[5]) << 16 | Int(bytes[6]) << 8 | Int(bytes[7])
        guard bytes.count == headerSize + count else { return nil }
        let payload = Array(bytes[headerSize...])
        guard SHA256.hash(payload) == Array(bytes[8..<headerSize]) else { return nil }
        return payload
    }
}
