import CCrypto
import Digest

/// The team's APNs signing key (seed 002: the `.p8` file from Apple Developer → Keys): a P-256 private key in a PEM
/// "PRIVATE KEY" block (PKCS#8, unencrypted). It signs provider tokens and is never shown, logged or exported
/// unless a snapshot asks for it (Docs/Emulator.md "APNs provider").
///
/// `@unchecked Sendable`: it wraps an OpenSSL `EVP_PKEY` that is never changed after it was read; OpenSSL allows
/// signing with one key from several threads at once, and the handle is freed only when the last reference goes.
package final class APNsSigningKey: @unchecked Sendable {
    /// The largest `.p8` text accepted (a P-256 key is about 240 bytes; room for comments and line endings).
    static let textLimit = 8_192

    /// Why a `.p8` file was refused.
    package enum Problem: Error, Equatable {
        /// Empty, too long, not a PEM "PRIVATE KEY" block, or a block OpenSSL cannot read.
        case notPKCS8
        /// A private key, but not an elliptic-curve key on P-256.
        case notP256
    }

    private let key: OpaquePointer
    /// The PEM text as uploaded, kept to store it again (the settings' `apns_key` row).
    package let pem: String

    /// Reads `pem`; throws ``Problem`` when it is not a P-256 private key in PKCS#8 PEM.
    package init(pem: String) throws(Problem) {
        let bytes = Array(pem.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.textLimit, let length = Int32(exactly: bytes.count) else {
            throw .notPKCS8
        }
        guard let key = bytes.withUnsafeBytes({ reception_pkcs8_private_key($0.baseAddress, length) }) else {
            throw .notPKCS8
        }
        guard reception_is_p256(key) == 1 else {
            EVP_PKEY_free(key)
            throw .notP256
        }
        self.key = key
        self.pem = pem
    }

    deinit { EVP_PKEY_free(key) }

    /// The ES256 signature of `message` (RFC 7518 §3.4): R and S as 32 big-endian bytes each; `nil` when OpenSSL
    /// fails to sign.
    package func sign(_ message: [UInt8]) -> [UInt8]? {
        var der = [UInt8](repeating: 0, count: 128)
        let written = message.withUnsafeBufferPointer { input in
            der.withUnsafeMutableBufferPointer { output in
                reception_es256_sign_der(key, input.baseAddress, input.count, output.baseAddress, output.count)
            }
        }
        guard written > 0 else { return nil }
        return ECDSASignature.raw(der: Array(der.prefix(written)))
    }

    /// A short fingerprint of the key text for the settings page ("key saved", never the key): the first 8 hex
    /// digits of its SHA-256.
    package var fingerprint: String {
        String(Hex.encode(Digest.SHA256.hash(Array(pem.utf8))).prefix(8))
    }
}

/// Converting OpenSSL's DER ECDSA signature to the fixed-width form a JWT carries.
package enum ECDSASignature {
    /// `SEQUENCE { INTEGER r, INTEGER s }` (DER) as `r || s`, each left-padded to 32 bytes; `nil` for anything
    /// else, or an integer wider than 32 bytes once its sign byte is dropped.
    package static func raw(der: [UInt8]) -> [UInt8]? {
        var index = 0
        func length() -> Int? {
            guard index < der.count else { return nil }
            let first = der[index]
            index += 1
            if first < 0x80 { return Int(first) }
            // P-256 signatures are at most 72 bytes: a one-byte long form is the most a valid one needs.
            guard first == 0x81, index < der.count else { return nil }
            defer { index += 1 }
            return Int(der[index])
        }
        func integer() -> [UInt8]? {
            guard index < der.count, der[index] == 0x02 else { return nil }
            index += 1
            guard let count = length(), count > 0, index + count <= der.count else { return nil }
            var value = Array(der[index..<index + count])
            index += count
            while value.count > 1, value[0] == 0 { value.removeFirst() }
            guard value.count <= 32 else { return nil }
            return [UInt8](repeating: 0, count: 32 - value.count) + value
        }
        guard der.first == 0x30 else { return nil }
        index = 1
        guard let total = length(), index + total == der.count, let r = integer(), let s = integer(),
            index == der.count
        else { return nil }
        return r + s
    }
}
