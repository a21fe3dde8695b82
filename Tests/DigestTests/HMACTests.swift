import Digest
import Testing

@Suite("HMACTests")
struct HMACTests {
    struct Vector: Sendable, CustomStringConvertible {
        let description: String
        let key: [UInt8]
        let data: [UInt8]
        let mac: String
    }

    static func hex(_ text: String) -> [UInt8] {
        var out = [UInt8]()
        var chars = Array(text.utf8).makeIterator()
        while let high = chars.next(), let low = chars.next() {
            out.append(UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) ?? 0)
        }
        return out
    }

    // RFC 4231 §4.2–4.8 (HMAC-SHA-256 results).
    static let vectors: [Vector] = [
        Vector(description: "test case 1", key: [UInt8](repeating: 0x0b, count: 20), data: Array("Hi There".utf8),
               mac: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        Vector(description: "test case 2", key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8),
               mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        Vector(description: "test case 3", key: [UInt8](repeating: 0xaa, count: 20),
               data: [UInt8](repeating: 0xdd, count: 50),
               mac: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        Vector(description: "test case 4", key: Array(1...25), data: [UInt8](repeating: 0xcd, count: 50),
               mac: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        Vector(description: "test case 6", key: [UInt8](repeating: 0xaa, count: 131),
               data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
               mac: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        Vector(description: "test case 7", key: [UInt8](repeating: 0xaa, count: 131),
               data: Array(("This is a test using a larger than block-size key and a larger than block-size data. "
                   + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
               mac: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    @Test(arguments: vectors)
    func rfc4231(vector: Vector) {
        #expect(Hex.encode(HMACSHA256.authenticationCode(for: vector.data, key: vector.key)) == vector.mac)
    }

    @Test func truncatedTestCase5() {
        let mac = HMACSHA256.authenticationCode(
            for: Array("Test With Truncation".utf8), key: [UInt8](repeating: 0x0c, count: 20))
        #expect(Hex.encode(mac.prefix(16)) == "a3b6167473100ee06e0c796c2955552b")
    }

    @Test func streamingMatchesOneShot() {
        let key = Array("ids_secret".utf8)
        let message = Array("header.payload".utf8)
        var mac = HMACSHA256(key: key)
        mac.update(message.prefix(6))
        mac.update(message.dropFirst(6))
        #expect(mac.finalize() == HMACSHA256.authenticationCode(for: message, key: key))
    }

    @Test func constantTimeComparison() {
        let a = HMACSHA256.authenticationCode(for: [1, 2, 3], key: [9])
        var b = a
        #expect(HMACSHA256.constantTimeEquals(a, b))
        b[31] ^= 1
        #expect(!HMACSHA256.constantTimeEquals(a, b))
        #expect(!HMACSHA256.constantTimeEquals(a, Array(a.prefix(31))))
    }
}
