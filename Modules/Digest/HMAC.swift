/// HMAC-SHA256 (RFC 2104), without Foundation. The emulator signs and checks HS256 tokens with it.
public struct HMACSHA256: Sendable {
    private var inner = SHA256()
    private let outerKeyPad: [UInt8]

    /// Starts a MAC keyed with `key`; a key longer than one block is hashed first (RFC 2104 §2).
    public init(key: some Sequence<UInt8>) {
        var block = Array(key)
        if block.count > SHA256.blockByteCount { block = SHA256.hash(block) }
        // Appended one by one: `append(contentsOf: repeatElement(...))` is compiled for its element type alone.
        while block.count < SHA256.blockByteCount { block.append(0) }
        outerKeyPad = block.map { $0 ^ 0x5c }
        inner.update(block.map { $0 ^ 0x36 })
    }

    /// The MAC of `message` under `key` in one call.
    public static func authenticationCode(for message: some Sequence<UInt8>, key: some Sequence<UInt8>) -> [UInt8] {
        var mac = HMACSHA256(key: key)
        mac.update(message)
        return mac.finalize()
    }

    /// Appends message bytes.
    public mutating func update(_ bytes: some Sequence<UInt8>) { inner.update(bytes) }

    /// The 32-byte MAC. The state is spent afterwards.
    public mutating func finalize() -> [UInt8] {
        var outer = SHA256()
        outer.update(outerKeyPad)
        outer.update(inner.finalize())
        return outer.finalize()
    }

    /// Compares two MACs in time independent of where they first differ.
    public static func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<lhs.count { difference |= lhs[i] ^ rhs[i] }
        return difference == 0
    }
}
