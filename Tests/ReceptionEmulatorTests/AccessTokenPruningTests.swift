import Foundation
import ReceptionEmulator
import Testing

/// A long-running emulator keeps only recent access tokens: issuing one (registration or refresh) deletes the
/// tokens that expired more than an hour ago, so the table stays bounded however many refreshes a client makes.
@Suite("AccessTokenPruningTests")
struct AccessTokenPruningTests {
    /// Rows in `access_tokens`, read through a second connection to the emulator's own database file.
    static func tokenRows(_ harness: EmulatorHarness) throws -> Int64 {
        let db = try SQLiteDatabase(path: harness.directory + "/emulator.sqlite")
        return try db.row("SELECT COUNT(*) AS n FROM access_tokens")?.int("n") ?? -1
    }

    @Test func refreshesKeepTheTableBoundedAndLiveTokensWork() async throws {
        let harness = try EmulatorHarness(accessTokenLifetime: 60)
        let device = try await harness.register()
        var token = device.token
        var firstTokens: [String] = [token]
        for round in 1...50 {
            harness.clock.advance(by: 600)
            let refreshed = try await harness.api("POST", "devices/me/token", json: ["sessionSecret": device.sessionSecret])
            #expect(refreshed.status == 200, "refresh \(round)")
            token = try #require(refreshed.json["token"] as? String)
            if round < 3 { firstTokens.append(token) }
        }
        // Tokens are issued every 600 s and live 60 s; a token is kept until an hour after it expired, so the last
        // seven issued (at now, now − 600, …, now − 3600) remain of 51.
        #expect(try Self.tokenRows(harness) == 7)
        #expect(try await harness.api("GET", "conversation/unread", token: token).status == 200)
        for old in firstTokens {
            let reply = try await harness.api("GET", "conversation/unread", token: old)
            #expect(reply.status == 401)
            #expect(reply.errorCode == "unauthorized")
        }
    }

    @Test func aRegistrationPrunesTokensOfOtherDevicesAndKeepsUnexpiredOnes() async throws {
        let harness = try EmulatorHarness(accessTokenLifetime: 3600)
        let first = try await harness.register()
        let second = try await harness.register()
        #expect(try Self.tokenRows(harness) == 2)
        // The first two expire at +3600 and are deleted by a token issued after +7200.
        harness.clock.advance(by: 7201)
        let third = try await harness.register()
        #expect(try Self.tokenRows(harness) == 1)
        #expect(try await harness.api("GET", "conversation/unread", token: third.token).status == 200)
        for old in [first, second] {
            #expect(try await harness.api("GET", "conversation/unread", token: old.token).status == 401)
            // Their sessions were not touched: a refresh gives them new tokens.
            let refreshed = try await harness.api("POST", "devices/me/token", json: ["sessionSecret": old.sessionSecret])
            #expect(refreshed.status == 200)
        }
        #expect(try Self.tokenRows(harness) == 3)
    }

    @Test func anExpiredTokenWithinTheGraceIsKeptButRefused() async throws {
        let harness = try EmulatorHarness(accessTokenLifetime: 60)
        let device = try await harness.register()
        harness.clock.advance(by: 61)
        _ = try await harness.register()
        #expect(try Self.tokenRows(harness) == 2)
        let reply = try await harness.api("GET", "conversation/unread", token: device.token)
        #expect(reply.status == 401)
        #expect(reply.errorCode == "unauthorized")
    }
}
