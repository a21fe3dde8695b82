import Digest
import Foundation
import Identity
import ReceptionCore
import ReceptionTesting

/// A stager over an in-memory pending store and an in-memory secure store, logging into a recorder.
struct StagerFixture {
    static let scope = "app_AbCdEfGhIjKlMnOpQrStUvGEN1"
    let secureStore = InMemorySecureStore()
    let pendingStore: PendingIdentityStore
    let logs = RecordingLogHandler()
    let stager: IdentityStager

    init(pending: PendingIdentity? = nil, verifiedUserId: String? = nil, registered: Bool = false) {
        pendingStore = .inMemory(pending)
        if registered || verifiedUserId != nil {
            let credentials = SessionCredentials(sessionSecret: "ss_secret", verifiedUserId: verifiedUserId)
            // The in-memory store only fails when told to.
            if let data = try? ReceptionJSON.encode(credentials) {
                try? secureStore.write(data, for: .session(scope: Self.scope))
            }
        }
        stager = IdentityStager(
            store: pendingStore,
            verifiedUserId: IdentityStager.verifiedUserIdReader(secureStore: secureStore, scope: { Self.scope }),
            logger: logs.logger(level: .debug, category: "Identity"))
    }

    /// Whether any log line contains one of `fragments`.
    func logsContain(any fragments: [String]) -> Bool { fragments.contains { logs.contains($0) } }
}

/// Identity tokens for tests: minted by PyJWT at test time (the library hosts use), or built by hand when a test
/// needs a payload no JSON encoder would write (exact number lexemes, broken JSON).
enum Tokens {
    static let header = Base64.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8), alphabet: .url)

    /// A token whose payload is exactly `json`, with a fake signature.
    static func handBuilt(_ json: String, signature: String = "c2lnbmF0dXJl") -> String {
        handBuilt(bytes: Array(json.utf8), signature: signature)
    }

    /// A token whose payload is exactly `bytes`.
    static func handBuilt(bytes: [UInt8], signature: String = "c2lnbmF0dXJl") -> String {
        "\(header).\(Base64.encode(bytes, alphabet: .url)).\(signature)"
    }

    /// Tokens PyJWT signs with HS256 for each claims object (JSON text), in order. One Python process serves every
    /// request of a test run.
    static func minted(_ claims: [String]) throws -> [String] {
        let script = """
            import json, sys, jwt
            for line in sys.stdin.read().splitlines():
                print(jwt.encode(json.loads(line), "ids_test_secret", algorithm="HS256"))
            """
        let result = try ChildProcess.run(["python3", "-c", script], input: Data(claims.joined(separator: "\n").utf8))
        guard result.status == 0 else { throw MintingFailed() }
        let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count == claims.count else { throw MintingFailed() }
        return lines
    }

    /// One PyJWT token for `claims`.
    static func minted(_ claims: String) throws -> String {
        guard let token = try minted([claims]).first else { throw MintingFailed() }
        return token
    }

    /// A hand-built token for `userId` (a string claim); `nonce` makes distinct tokens for the same user.
    static func user(_ userId: String, nonce: Int = 0) -> String {
        let encoded = String(decoding: (try? JSONEncoder().encode(userId)) ?? Data(), as: UTF8.self)
        return handBuilt(#"{"user_id":\#(encoded),"exp":4102444800,"jti":"n\#(nonce)"}"#)
    }

    /// A PyJWT token for `user_id: userId` (a JSON string) expiring in the far future.
    static func forUser(_ userId: String) throws -> String {
        let encoded = String(decoding: try JSONEncoder().encode(userId), as: UTF8.self)
        return try minted(#"{"user_id":\#(encoded),"exp":4102444800}"#)
    }

    struct MintingFailed: Error {}
}

/// A device as the tests describe it.
let testFacts = DeviceFacts(
    sdkVersion: "0.1.0", osVersion: "6.1", deviceModel: "x86_64", locale: "de_DE", timezone: "Europe/Berlin",
    bundleId: "com.example.host")
let testBuilder = DevicePayloadBuilder(facts: testFacts)
