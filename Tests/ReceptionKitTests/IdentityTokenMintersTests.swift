import Foundation
import ReceptionKit
import ReceptionTesting
import Testing

/// Seed 000 "Mint the token on your server": a token minted by each server sample's own library, the way that
/// sample mints it (`scripts/token-minters`), verifies the user once the SDK sends it: node-jose (the "Node.js ·
/// jose" and Supabase samples), ruby-jwt and golang-jwt. PyJWT, the Python sample's, mints every other test's
/// tokens. Node's `jsonwebtoken` (the Node.js and Firebase samples) and PHP's `firebase/php-jwt` have no Debian
/// package here, so those two samples are not run.
@Suite("IdentityTokenMintersTests", .serialized)
@MainActor
struct IdentityTokenMintersTests {
    enum Minter: String, CaseIterable, Sendable {
        case nodeJose = "node-jose", rubyJWT = "ruby-jwt", golangJWT = "golang-jwt"

        /// The command line that runs this minter for one user with `secret` in the environment, as a server has it.
        func command(secret: String, userId: String, email: String, name: String) -> [String] {
            let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../scripts/token-minters").standardizedFileURL.path
            let environment = ["env", "RECEPTION_IDENTITY_SECRET=\(secret)"]
            let user = [userId, email, name]
            switch self {
            case .nodeJose:
                return environment + ["NODE_PATH=/usr/share/nodejs", "node", folder + "/node-jose.js"] + user
            case .rubyJWT:
                return environment + ["ruby", folder + "/ruby-jwt.rb"] + user
            case .golangJWT:
                let cache = FileManager.default.temporaryDirectory.appendingPathComponent("reception-gocache").path
                return environment + ["GO111MODULE=off", "GOPATH=/usr/share/gocode", "GOCACHE=\(cache)",
                                      "go", "run", folder + "/golang-jwt.go"] + user
            }
        }
    }

    func mint(_ minter: Minter, secret: String, userId: String, email: String, name: String) throws -> String {
        let result = try ChildProcess.run(minter.command(secret: secret, userId: userId, email: email, name: name))
        try #require(result.status == 0, "\(minter.rawValue) failed: \(String(decoding: result.errorOutput, as: UTF8.self))")
        return result.text
    }

    @Test(arguments: Minter.allCases)
    func aTokenMintedAsTheSampleMintsItVerifiesTheUser(_ minter: Minter) async throws {
        let service = try Service()
        let secret = try #require(service.emulator.credentials.identitySecret)
        let token = try mint(minter, secret: secret, userId: "user-\(minter.rawValue)",
                             email: "\(minter.rawValue)@example.com", name: "Ann \(minter.rawValue)")
        // Three base64url parts, HS256 in the header: what the SDK gets is a real JWT from that library.
        let parts = token.split(separator: ".")
        try #require(parts.count == 3, "not a JWT: \(token)")
        let app = App(service)
        await app.launch()
        app.reception.identify(token: token)
        try await app.send("hello from \(minter.rawValue)")
        #expect(await until { app.reception.identityState == .verified(userId: "user-\(minter.rawValue)") },
                "the SDK did not take the token as verified: \(app.reception.identityState)")
        let device = try #require(try await service.devices().first)
        #expect(device["verifiedUserId"] as? String == "user-\(minter.rawValue)")
        #expect(device["verifiedEmail"] as? String == "\(minter.rawValue)@example.com")
        #expect(device["verifiedName"] as? String == "Ann \(minter.rawValue)")
    }

    @Test(arguments: Minter.allCases)
    func aTokenMintedWithAnotherSecretIsRejected(_ minter: Minter) async throws {
        let service = try Service()
        let token = try mint(minter, secret: "not-the-app-secret", userId: "mallory", email: "m@example.com", name: "M")
        let app = App(service)
        await app.launch()
        try await app.send("before the token")
        // An activated session sends the staged token with its chat opening.
        app.reception.identify(token: token)
        app.reception.openChat()
        #expect(await until {
            app.events.contains(.identityRejected(ReceptionError(code: "identity_token_invalid", status: 401)))
        }, "events: \(app.events)")
        #expect(try await service.devices().allSatisfy { $0["verifiedUserId"] as? String != "mallory" })
    }
}
