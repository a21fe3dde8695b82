import Foundation
import Testing

/// spec 3.1–3.5 over loopback: registration, update, refresh, logout and deletion, and the App ID rules of 8.1.1.
@Suite("DeviceEndpointTests")
struct DeviceEndpointTests {
    @Test func registrationAnswers201WithTokenSecretAndNoVerifiedUser() async throws {
        let harness = try EmulatorHarness()
        let reply = try await harness.api("POST", "devices", json: EmulatorHarness.payload())
        #expect(reply.status == 201)
        #expect((reply.json["token"] as? String)?.isEmpty == false)
        #expect((reply.json["sessionSecret"] as? String)?.isEmpty == false)
        #expect(reply.json.keys.contains("verifiedUserId") && reply.json["verifiedUserId"] is NSNull)
    }

    @Test func appIdFollowsTheSpecFormat() throws {
        let harness = try EmulatorHarness()
        #expect(harness.appId.wholeMatch(of: /app_[A-Za-z0-9]{22}/) != nil)
        #expect(harness.identitySecret.hasPrefix("ids_"))
    }

    @Test(arguments: [nil, "app_AAAAAAAAAAAAAAAAAAAAAA", " app"])
    func unknownOrMissingAppIdIs401InvalidAppId(appId: String?) async throws {
        let harness = try EmulatorHarness()
        var headers = ["Content-Type": "application/json"]
        if let appId { headers["X-App-Id"] = appId }
        let reply = try await harness.raw(
            "POST", "/v1/devices", headers: headers, body: try JSONSerialization.data(withJSONObject: EmulatorHarness.payload()))
        #expect(reply.status == 401)
        #expect(reply.errorCode == "invalid_app_id")
        #expect((reply.json["error"] as? [String: Any])?["message"] is String)
    }

    @Test func disabledAppIs403AppDisabledEverywhere() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        #expect(try await harness.admin("PATCH", "app", json: ["disabled": true]).status == 200)
        let register = try await harness.api("POST", "devices", json: EmulatorHarness.payload())
        let load = try await harness.api("GET", "conversation", token: device.token)
        let appearance = try await harness.api("GET", "appearance")
        for reply in [register, load, appearance] {
            #expect(reply.status == 403)
            #expect(reply.errorCode == "app_disabled")
        }
    }

    @Test func updateKeepsOmittedIdentityFieldsAndReplacesMetadata() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register([
            "externalUserId": "u1", "name": "Ada", "email": "ada@example.com", "metadata": ["plan": "pro", "x": "1"],
        ])
        let update = try await harness.api(
            "PATCH", "devices/me", token: device.token,
            json: EmulatorHarness.payload(["metadata": ["plan": "free"], "pushToken": "ab01", "pushEnvironment": "SANDBOX"]))
        #expect(update.status == 200)
        #expect(update.json["verifiedUserId"] is NSNull)
        let stored = try await harness.admin("GET", "devices/\(device.id)").json
        #expect(stored["externalUserId"] as? String == "u1")
        #expect(stored["name"] as? String == "Ada")
        #expect(stored["email"] as? String == "ada@example.com")
        #expect(stored["metadata"] as? [String: String] == ["plan": "free"])
        #expect(stored["pushToken"] as? String == "ab01")
        #expect(stored["pushEnvironment"] as? String == "SANDBOX")
    }

    @Test func updateRejectsOverLimitFieldsWith400() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        for extra: [String: Any] in [
            ["email": String(repeating: "e", count: 255)], ["name": String(repeating: "n", count: 201)],
            ["metadata": Dictionary(uniqueKeysWithValues: (0..<21).map { ("k\($0)", "v") })],
            ["pushToken": "ab01", "pushEnvironment": "STAGING"], ["updatesAppBadge": "yes"],
        ] {
            let reply = try await harness.api("PATCH", "devices/me", token: device.token, json: EmulatorHarness.payload(extra))
            #expect(reply.status == 400)
            #expect(reply.errorCode == "invalid_request")
        }
    }

    @Test func refreshIssuesANewTokenAndUnknownSecretIsSessionRevoked() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        let refresh = try await harness.api("POST", "devices/me/token", json: ["sessionSecret": device.sessionSecret])
        #expect(refresh.status == 200)
        let token = try #require(refresh.json["token"] as? String)
        #expect(token != device.token)
        #expect(try await harness.api("GET", "conversation", token: token).status == 200)
        let unknown = try await harness.api("POST", "devices/me/token", json: ["sessionSecret": "ss_nope"])
        #expect(unknown.status == 401)
        #expect(unknown.errorCode == "session_revoked")
    }

    @Test func expiredAccessTokenIs401Unauthorized() async throws {
        let harness = try EmulatorHarness(accessTokenLifetime: 60)
        let device = try await harness.register()
        harness.clock.advance(by: 61)
        let reply = try await harness.api("GET", "conversation", token: device.token)
        #expect(reply.status == 401)
        #expect(reply.errorCode == "unauthorized")
        let garbage = try await harness.api("GET", "conversation", token: "at_garbage")
        #expect(garbage.errorCode == "unauthorized")
    }

    @Test func logoutRevokesTheSessionRemovesPushAndKeepsHistory() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        _ = try await harness.api(
            "PATCH", "devices/me", token: device.token,
            json: EmulatorHarness.payload(["pushToken": "ab01", "pushEnvironment": "PRODUCTION"]))
        #expect(try await harness.send(device, "hello").status == 201)
        let logout = try await harness.api("POST", "devices/me/logout", json: ["sessionSecret": device.sessionSecret])
        #expect(logout.status == 200)
        #expect(logout.json.isEmpty && String(decoding: logout.body, as: UTF8.self) == "{}")
        #expect(try await harness.api("GET", "conversation", token: device.token).errorCode == "unauthorized")
        let refresh = try await harness.api("POST", "devices/me/token", json: ["sessionSecret": device.sessionSecret])
        #expect(refresh.errorCode == "session_revoked")
        let stored = try await harness.admin("GET", "devices/\(device.id)").json
        #expect(stored["pushToken"] is NSNull)
        let history = try await harness.admin("GET", "devices/\(device.id)/messages").json["messages"] as? [Any]
        #expect(history?.count == 1)
        // spec 3.4: again, and for an unknown secret, still exactly 200 {}.
        #expect(try await harness.api("POST", "devices/me/logout", json: ["sessionSecret": device.sessionSecret]).status == 200)
        #expect(try await harness.api("POST", "devices/me/logout", json: ["sessionSecret": "ss_unknown"]).status == 200)
    }

    @Test func deletionRemovesTheDeviceAndAnEndedSessionStillAnswers200() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        let other = try await harness.register()
        #expect(try await harness.send(device, "bye").status == 201)
        let deletion = try await harness.api("DELETE", "devices/me", json: ["sessionSecret": device.sessionSecret])
        #expect(deletion.status == 200)
        #expect(String(decoding: deletion.body, as: UTF8.self) == "{}")
        let devices = try await harness.admin("GET", "devices").json["devices"] as? [[String: Any]] ?? []
        #expect(devices.compactMap { $0["id"] as? String } == [other.id])
        #expect(try await harness.api("DELETE", "devices/me", json: ["sessionSecret": device.sessionSecret]).status == 200)
        // A logged-out session's deletion completes without deleting (seed 000): the device stays.
        _ = try await harness.api("POST", "devices/me/logout", json: ["sessionSecret": other.sessionSecret])
        #expect(try await harness.api("DELETE", "devices/me", json: ["sessionSecret": other.sessionSecret]).status == 200)
        #expect((try await harness.admin("GET", "devices").json["devices"] as? [Any])?.count == 1)
    }

    @Test func deletionFailureCanBeInjectedAsDeleteFailed503() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        let fault = try await harness.admin(
            "POST", "faults", json: ["method": "DELETE", "path": "/v1/devices/me", "kind": "status", "status": 503, "code": "delete_failed"])
        #expect(fault.status == 201)
        let failed = try await harness.api("DELETE", "devices/me", json: ["sessionSecret": device.sessionSecret])
        #expect(failed.status == 503)
        #expect(failed.errorCode == "delete_failed")
        #expect(try await harness.api("DELETE", "devices/me", json: ["sessionSecret": device.sessionSecret]).status == 200)
    }
}
