import Digest
import Testing

@Suite("SHA256Tests")
struct SHA256Tests {
    // FIPS 180-4 example vectors (NIST CSRC "SHA256.pdf" and the long-message examples).
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func nistVectors(message: String, expected: String) {
        #expect(Hex.encode(SHA256.hash(Array(message.utf8))) == expected)
    }

    @Test func oneMillionLetterA() {
        var hasher = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(chunk) }
        #expect(Hex.encode(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every split of a message into chunks gives the digest of the whole; lengths around the 55/56/64-byte padding
    /// boundaries are where a streaming hash usually breaks.
    @Test(arguments: [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000])
    func streamingMatchesOneShot(length: Int) {
        let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let whole = SHA256.hash(message)
        for chunkSize in [1, 3, 17, 64, 100] {
            var hasher = SHA256()
            var index = 0
            while index < message.count {
                let end = min(index + chunkSize, message.count)
                hasher.update(message[index..<end])
                index = end
            }
            #expect(hasher.finalize() == whole, "chunk size \(chunkSize)")
        }
    }

    @Test func nonContiguousSequencesHashLikeArrays() {
        let bytes = (0..<200).map { UInt8($0) }
        #expect(SHA256.hash(bytes.lazy.map { $0 }) == SHA256.hash(bytes))
    }
}
