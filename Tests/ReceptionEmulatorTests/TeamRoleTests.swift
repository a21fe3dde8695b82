import Foundation
import ReceptionEmulator
import Testing

/// Team roles (seed 000, issue 41) over loopback: the team's members are Owners or Agents, each sign-in link names
/// one, the dashboard's data calls know who calls, an Owner invites and removes members, and an Agent gets 403
/// `owner_required` from every owner-only endpoint — refused from the request's head, with nothing changed.
@Suite("TeamRoleTests")
struct TeamRoleTests {
    /// A signed-in dashboard session: its cookie and CSRF token.
    struct Session {
        var cookie: String
        var csrf: String

        var headers: [String: String] { ["Cookie": cookie, "X-CSRF-Token": csrf, "Content-Type": "application/json"] }
    }

    /// Opens `url` (a sign-in link) on a raw connection and reads the session that answers it.
    static func signIn(_ harness: EmulatorHarness, url: String) async throws -> Session {
        let path = try #require(URL(string: url)).path
        let connection = try RawConnection(port: harness.port)
        connection.write("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        _ = connection.readUntilClosed()
        let line = try #require(connection.text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") })
        let cookie = try #require(line.split(separator: ":", maxSplits: 1).last?.split(separator: ";").first)
            .trimmingCharacters(in: .whitespaces)
        return Session(cookie: cookie, csrf: try await DashboardAccessTests.csrf(harness, cookie: cookie))
    }

    /// Invites a member through the admin API and signs in with the link it answers.
    static func invite(_ harness: EmulatorHarness, name: String, role: String) async throws -> (id: String, session: Session) {
        let reply = try await harness.admin("POST", "team/members", json: ["name": name, "role": role])
        try #require(reply.status == 201, "\(String(decoding: reply.body, as: UTF8.self))")
        let member = try #require(reply.json["member"] as? [String: Any])
        let url = try #require(reply.json["signInURL"] as? String)
        return (try #require(member["id"] as? String), try await signIn(harness, url: url))
    }

    static func call(
        _ harness: EmulatorHarness, _ session: Session, _ method: String, _ path: String, json: Any? = nil
    ) async throws -> Reply {
        let body = try json.map { try JSONSerialization.data(withJSONObject: $0) }
        return try await harness.raw(method, "/dashboard/api/" + path, headers: session.headers, body: body)
    }

    @Test func theTeamHasAnOwnerWhomThePrintedLinkSignsInAndTheSessionNamesIt() async throws {
        let harness = try EmulatorHarness()
        let team = try #require(try await harness.admin("GET", "team").json["members"] as? [[String: Any]])
        #expect(team.count == 1 && team[0]["id"] as? String == "owner" && team[0]["role"] as? String == "owner")
        #expect(harness.emulator.dashboardOwnerName == "Owner")
        let owner = try await Self.signIn(harness, url: harness.emulator.dashboardURL)
        let session = try await harness.raw("GET", "/dashboard/api/session", headers: ["Cookie": owner.cookie])
        let member = try #require(session.json["member"] as? [String: Any])
        #expect(member["id"] as? String == "owner" && member["role"] as? String == "owner")
        let me = try await Self.call(harness, owner, "GET", "me")
        #expect((me.json["member"] as? [String: Any])?["name"] as? String == "Owner" && me.json["role"] as? String == "owner")
        // The admin token is the emulator's operator: an Owner's rights, no member.
        let operatorMe = try await harness.admin("GET", "me")
        #expect(operatorMe.json["member"] is NSNull && operatorMe.json["role"] as? String == "owner")
    }

    @Test func anOwnerInvitesAnAgentFromTheDashboardAndTheLinkSignsInThatAgent() async throws {
        let harness = try EmulatorHarness()
        let owner = try await Self.signIn(harness, url: harness.emulator.dashboardURL)
        let invited = try await Self.call(harness, owner, "POST", "team/members", json: ["name": "Sam", "role": "agent"])
        #expect(invited.status == 201)
        let id = try #require((invited.json["member"] as? [String: Any])?["id"] as? String)
        let agent = try await Self.signIn(harness, url: try #require(invited.json["signInURL"] as? String))
        let me = try await Self.call(harness, agent, "GET", "me")
        #expect((me.json["member"] as? [String: Any])?["id"] as? String == id && me.json["role"] as? String == "agent")
        // The member's link is the same until the emulator restarts; the team lists the new member with its role.
        let again = try await Self.call(harness, owner, "POST", "team/members/\(id)/sign-in-link")
        #expect(again.json["signInURL"] as? String == invited.json["signInURL"] as? String)
        let team = try #require(try await harness.admin("GET", "team").json["members"] as? [[String: Any]])
        #expect(team.map { $0["role"] as? String } == ["owner", "agent"])
        let duplicate = try await Self.call(harness, owner, "POST", "team/members", json: ["id": id, "name": "X", "role": "agent"])
        #expect(duplicate.status == 409 && duplicate.errorCode == "member_exists")
        for body: [String: Any] in [["name": "", "role": "agent"], ["name": "Sam"], ["name": "Sam", "role": "admin"]] {
            let refused = try await Self.call(harness, owner, "POST", "team/members", json: body)
            #expect(refused.status == 400 && refused.errorCode == "invalid_request", "\(body)")
        }
    }

    /// Every owner-only endpoint with a body it would accept from an Owner. Each is refused for an Agent.
    static var ownerOnly: [(method: String, path: String, body: Any?)] { [
        ("GET", "identity-secret", nil),
        ("POST", "identity-secret", ["markUnverified": true]),
        ("DELETE", "identity-secret", nil),
        ("PATCH", "app", ["onlyVerifiedUsers": true]),
        ("PATCH", "app", ["push": ["offerPushes": true]]),
        ("PATCH", "app", ["disabled": true]),
        ("PATCH", "app", ["appStoreId": "123456"]),
        // Seed 001 "Team photos and names": an Owner turns them on under Chat appearance (issue 52).
        ("PUT", "appearance", ["appearance": ["showsTeamNames": true, "showsTeamPhotos": true]]),
        ("PUT", "appearance/images/0b6e9f1c-2f1e-4c7a-9d3b-5a8e2c1f4d6b", ["png": "not sent"]),
        ("PUT", "apns", ["keyId": "ABCDEFGHIJ", "teamId": "TEAM123456", "bundleId": "com.example.app"]),
        ("DELETE", "apns", nil),
        ("PUT", "team", ["members": [["id": "agent-takeover", "name": "Me", "role": "owner"]]]),
        ("POST", "team/members", ["name": "Friend", "role": "owner"]),
        ("PATCH", "team/members/owner", ["role": "agent"]),
        ("DELETE", "team/members/owner", nil),
        ("POST", "team/members/owner/sign-in-link", nil),
        ("POST", "devices/DEVICE/reset", nil),
        ("DELETE", "devices/DEVICE", nil),
        ("POST", "devices/DEVICE/unverify", nil),
        ("POST", "devices/DEVICE/test-push", nil),
        ("GET", "snapshot", nil),
        ("PUT", "snapshot", ["format": "reception-emulator-snapshot"]),
        ("POST", "reset", nil),
    ] }

    @Test func anAgentGets403OwnerRequiredFromEveryOwnerOnlyEndpointAndNothingChanges() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register(["externalUserId": "u1"])
        try #require(try await harness.send(device, "hello").status == 201)
        let (_, agent) = try await Self.invite(harness, name: "Sam", role: "agent")
        let before = try await harness.admin("GET", "snapshot").body
        for (method, path, body) in Self.ownerOnly {
            let reply = try await Self.call(
                harness, agent, method, path.replacingOccurrences(of: "DEVICE", with: device.id), json: body)
            #expect(reply.status == 403 && reply.errorCode == "owner_required", "\(method) \(path): \(reply.status)")
            #expect(reply.json["identitySecret"] == nil, "\(method) \(path)")
        }
        // Nothing an Agent sent changed the state: the snapshot (credentials, team, devices) is byte for byte the same
        // apart from its export time.
        let after = try await harness.admin("GET", "snapshot").body
        let same = Self.withoutExportTime(after).map { NSDictionary(dictionary: $0) }?.isEqual(Self.withoutExportTime(before))
        #expect(same == true)
        // The same endpoints still answer an Owner (the refusal is the role's, not a broken route).
        let owner = try await Self.signIn(harness, url: harness.emulator.dashboardURL)
        #expect(try await Self.call(harness, owner, "GET", "identity-secret").json["identitySecret"] as? String == harness.identitySecret)
        #expect(try await Self.call(harness, owner, "POST", "devices/\(device.id)/unverify").status == 200)
        let published = try await Self.call(harness, owner, "PUT", "appearance", json: ["appearance": ["showsTeamNames": true]])
        #expect(published.status == 200)
    }

    private static func withoutExportTime(_ data: Data) -> [String: Any]? {
        var object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        object?["exportedAt"] = nil
        return object.map { ($0["tables"] as? [String: Any]) ?? [:] }
    }

    @Test func anAgentsOwnerOnlyCallIsRefusedFromItsHeadBeforeTheBodyIsSent() async throws {
        let harness = try EmulatorHarness()
        let (_, agent) = try await Self.invite(harness, name: "Sam", role: "agent")
        let connection = try RawConnection(port: harness.port)
        // A body announced and never sent: only an answer from the head can come back.
        connection.write(
            "PUT /dashboard/api/apns HTTP/1.1\r\nHost: x\r\nCookie: \(agent.cookie)\r\nX-CSRF-Token: \(agent.csrf)\r\n"
                + "Content-Type: application/json\r\nContent-Length: 9000\r\n\r\n")
        #expect(connection.read(until: "\r\n\r\n"))
        #expect(connection.text.hasPrefix("HTTP/1.1 403"))
    }

    @Test func anAgentWorksTheInboxConversationsAndCustomerDetailsButNeverSeesTheSecret() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register(["externalUserId": "u1"])
        try #require(try await harness.send(device, "hello").status == 201)
        let (agentId, agent) = try await Self.invite(harness, name: "Sam", role: "agent")
        #expect(try await Self.call(harness, agent, "GET", "inbox").status == 200)
        let reply = try await Self.call(
            harness, agent, "POST", "devices/\(device.id)/messages", json: ["text": "On it", "authorId": agentId])
        #expect(reply.status == 201)
        #expect(try await Self.call(harness, agent, "POST", "devices/\(device.id)/seen").status == 200)
        #expect(try await Self.call(harness, agent, "PATCH", "devices/\(device.id)", json: ["displayName": "Ada"]).status == 200)
        #expect(try await Self.call(harness, agent, "POST", "devices/\(device.id)/block").status == 200)
        #expect(try await Self.call(harness, agent, "POST", "devices/\(device.id)/unblock").status == 200)
        #expect(try await Self.call(harness, agent, "POST", "devices/\(device.id)/status", json: ["status": "RESOLVED"]).status == 200)
        #expect(try await Self.call(harness, agent, "GET", "devices?query=u1").status == 200)
        #expect(try await Self.call(harness, agent, "GET", "team").status == 200)
        #expect(try await Self.call(harness, agent, "GET", "appearance").status == 200, "an Agent reads Chat appearance")
        // The app's settings read without the identity secret (an Owner's read has it).
        let app = try await Self.call(harness, agent, "GET", "app")
        #expect(app.status == 200 && app.json["appId"] as? String == harness.appId && app.json["identitySecret"] == nil)
        #expect(!String(decoding: app.body, as: UTF8.self).contains(harness.identitySecret))
        let limits = try await Self.call(harness, agent, "PUT", "rate-limits", json: [:])
        #expect(limits.status == 200 && !String(decoding: limits.body, as: UTF8.self).contains(harness.identitySecret))
        let owner = try await Self.signIn(harness, url: harness.emulator.dashboardURL)
        #expect(try await Self.call(harness, owner, "GET", "app").json["identitySecret"] as? String == harness.identitySecret)
    }

    @Test func removingAMemberSignsItOutAndItsLinkStopsWorking() async throws {
        let harness = try EmulatorHarness()
        let owner = try await Self.signIn(harness, url: harness.emulator.dashboardURL)
        let invited = try await Self.call(harness, owner, "POST", "team/members", json: ["name": "Sam", "role": "agent"])
        let id = try #require((invited.json["member"] as? [String: Any])?["id"] as? String)
        let link = try #require(invited.json["signInURL"] as? String)
        let agent = try await Self.signIn(harness, url: link)
        #expect(try await Self.call(harness, agent, "GET", "inbox").status == 200)
        let removed = try await Self.call(harness, owner, "DELETE", "team/members/\(id)")
        #expect(removed.status == 200 && (removed.json["members"] as? [[String: Any]])?.count == 1)
        let after = try await Self.call(harness, agent, "GET", "inbox")
        #expect(after.status == 401 && after.errorCode == "dashboard_unauthorized")
        let path = try #require(URL(string: link)).path
        #expect(try await harness.raw("GET", path).status == 401)
        #expect(try await Self.call(harness, owner, "DELETE", "team/members/\(id)").errorCode == "member_not_found")
    }

    @Test func theTeamAlwaysKeepsAnOwner() async throws {
        let harness = try EmulatorHarness()
        let owner = try await Self.signIn(harness, url: harness.emulator.dashboardURL)
        let last = try await Self.call(harness, owner, "DELETE", "team/members/owner")
        #expect(last.status == 409 && last.errorCode == "last_owner")
        let demoted = try await Self.call(harness, owner, "PATCH", "team/members/owner", json: ["role": "agent"])
        #expect(demoted.status == 409 && demoted.errorCode == "last_owner")
        // A team list without an Owner keeps the current Owners; a new ID is an Agent, and a role can be given.
        let put = try await harness.admin("PUT", "team", json: ["members": [["id": "mia", "name": "Mia"], ["id": "sam", "name": "Sam", "role": "owner"]]])
        #expect(put.status == 200)
        var team = try #require(try await harness.admin("GET", "team").json["members"] as? [[String: Any]])
        #expect(team.map { "\($0["id"] ?? "")=\($0["role"] ?? "")" } == ["mia=agent", "sam=owner"])
        // The owner's session ended with its member; Sam, an Owner, may now make Mia one and remove nobody's last.
        #expect(try await Self.call(harness, owner, "GET", "inbox").status == 401)
        _ = try await harness.admin("PUT", "team", json: ["members": [["id": "mia", "name": "Mia"]]])
        team = try #require(try await harness.admin("GET", "team").json["members"] as? [[String: Any]])
        #expect(team.map { "\($0["id"] ?? "")=\($0["role"] ?? "")" } == ["sam=owner", "mia=agent"])
        #expect(harness.emulator.dashboardOwnerName == "Sam")
        let refused = try await harness.admin("PUT", "team", json: ["members": [["id": "x", "name": "X", "role": "boss"]]])
        #expect(refused.status == 400)
    }

    @Test func aDataFolderFromBeforeRolesOpensWithItsMembersAsAgentsAndAnOwner() async throws {
        let harness = try EmulatorHarness()
        _ = try await harness.admin("PUT", "team", json: ["members": [["id": "mia", "name": "Mia"]]])
        var snapshot = try #require(try JSONSerialization.jsonObject(with: try await harness.admin("GET", "snapshot").body) as? [String: Any])
        // The team table as a snapshot from before roles has it: no role column, Mia only.
        var tables = try #require(snapshot["tables"] as? [String: Any])
        tables["team"] = ["columns": ["id", "name"], "rows": [["mia", "Mia"]]]
        snapshot["tables"] = tables
        let imported = try await harness.raw(
            "PUT", "/admin/snapshot", headers: ["Authorization": "Bearer \(harness.adminToken)"],
            body: try JSONSerialization.data(withJSONObject: snapshot))
        #expect(imported.status == 200)
        let team = try #require(try await harness.admin("GET", "team").json["members"] as? [[String: Any]])
        #expect(team.map { "\($0["id"] ?? "")=\($0["role"] ?? "")" } == ["mia=agent", "owner=owner"])
        tables["team"] = ["columns": ["id", "name", "role"], "rows": [["mia", "Mia", "boss"]]]
        snapshot["tables"] = tables
        let refused = try await harness.raw(
            "PUT", "/admin/snapshot", headers: ["Authorization": "Bearer \(harness.adminToken)"],
            body: try JSONSerialization.data(withJSONObject: snapshot))
        #expect(refused.status == 400 && refused.errorCode == "invalid_snapshot")
    }
}
