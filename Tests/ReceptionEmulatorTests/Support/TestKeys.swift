import CCrypto
import Testing

/// Keys a test makes with libcrypto: the team's `.p8` (PKCS#8 PEM) and its public half for the fake APNs.
struct TestKey {
    /// The private key as a `.p8` file holds it.
    var privatePEM: String
    /// The public key (SubjectPublicKeyInfo PEM), what the fake APNs verifies provider tokens with.
    var publicPEM: String

    /// A new key on P-256 (`NID_X9_62_prime256v1`), or on another curve to test a refusal.
    static func generate(curve: Int32 = NID_X9_62_prime256v1) throws -> TestKey {
        let key = try #require(reception_ec_generate(curve), "libcrypto made no key")
        defer { EVP_PKEY_free(key) }
        return TestKey(privatePEM: try pem(key, privatePart: true), publicPEM: try pem(key, privatePart: false))
    }

    private static func pem(_ key: OpaquePointer, privatePart: Bool) throws -> String {
        let bio = try #require(reception_key_pem(key, privatePart ? 1 : 0))
        defer { BIO_free(bio) }
        var start: UnsafePointer<CChar>?
        let length = reception_bio_contents(bio, &start)
        let bytes = try #require(start)
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    }
}
