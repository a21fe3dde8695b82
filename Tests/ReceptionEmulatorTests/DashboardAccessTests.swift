import Foundation
import ReceptionEmulator
import Testing

/// The dashboard's sign-in and its data calls over loopback (issue 18, Docs/Dashboard.md): the printed URL becomes
/// an HttpOnly, SameSite=Strict cookie and a redirect without the secret; without it every page and data call is
/// 401; state-changing calls need the session's CSRF token; the admin API and the device API are unchanged. Also
/// the admin additions the pages use: the inbox, server-side search, the display name and the team's read mark.
@Suite("DashboardAccessTests")
struct DashboardAccessTests {
    /// Signs in over a raw connection (URLSession would follow the redirect) and returns the session cookie.
    static func signIn(_ harness: EmulatorHarness) throws -> (cookie: String, head: String) {
        let url = try #require(URL(string: harness.emulator.dashboardURL))
        let connection = try RawConnection(port: harness.port)
        connection.write("GET \(url.path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        _ = connection.readUntilClosed()
        let head = connection.text
        let line = try #require(head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") })
        let value = try #require(line.split(separator: ":", maxSplits: 1).last?.split(separator: ";").first)
        return (value.trimmingCharacters(in: .whitespaces), head)
    }

    /// The session's CSRF token, as the page reads it.
    static func csrf(_ harness: EmulatorHarness, cookie: String) async throws -> String {
        let reply = try await harness.raw("GET", "/dashboard/api/session", headers: ["Cookie": cookie])
        try #require(reply.status == 200)
        return try #require(reply.json["csrfToken"] as? String)
    }

    @Test func theSignInURLSetsAStrictHttpOnlyCookieAndRedirectsWithoutTheSecret() async throws {
        let harness = try EmulatorHarness()
        let url = harness.emulator.dashboardURL
        #expect(url.hasPrefix("http://127.0.0.1:\(harness.port)/dashboard/sign-in/"))
        let (cookie, head) = try Self.signIn(harness)
        #expect(head.hasPrefix("HTTP/1.1 303"))
        #expect(head.contains("Location: /dashboard/\r\n"))
        let setCookie = try #require(head.split(separator: "\r\n").first { $0.hasPrefix("Set-Cookie:") })
        #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict") && setCookie.contains("Path=/dashboard"))
        #expect(cookie.hasPrefix("reception_dashboard="))
        let page = try await harness.raw("GET", "/dashboard/", headers: ["Cookie": cookie])
        #expect(page.status == 200)
        #expect(page.header("Content-Security-Policy")?.contains("default-src 'self'") == true)
        #expect(String(decoding: page.body, as: UTF8.self).contains("/dashboard/assets/app.js"))
        let script = try await harness.raw("GET", "/dashboard/assets/app.js", headers: ["Cookie": cookie])
        #expect(script.status == 200 && script.header("Content-Type")?.hasPrefix("text/javascript") == true)
    }

    @Test func withoutASessionEveryPageAndDataCallIs401AndSaysHowToSignIn() async throws {
        let harness = try EmulatorHarness()
        for path in ["/dashboard/", "/dashboard/assets/app.js", "/dashboard/sign-in/wrong"] {
            let reply = try await harness.raw("GET", path)
            #expect(reply.status == 401, "\(path)")
            #expect(String(decoding: reply.body, as: UTF8.self).contains("Dashboard"), "\(path)")
        }
        for (method, path) in [("GET", "inbox"), ("GET", "app"), ("POST", "identity-secret"), ("GET", "session")] {
            let reply = try await harness.raw(method, "/dashboard/api/" + path, headers: ["Cookie": "reception_dashboard=guess"])
            #expect(reply.status == 401 && reply.errorCode == "dashboard_unauthorized", "\(method) \(path)")
        }
        // The admin token is not a dashboard session, and a dashboard cookie is not the admin token.
        let withAdmin = try await harness.raw(
            "GET", "/dashboard/api/inbox", headers: ["Authorization": "Bearer \(harness.adminToken)"])
        #expect(withAdmin.status == 401)
        let (cookie, _) = try Self.signIn(harness)
        let adminWithCookie = try await harness.raw("GET", "/admin/app", headers: ["Cookie": cookie])
        #expect(adminWithCookie.status == 401 && adminWithCookie.errorCode == "admin_unauthorized")
    }

    @Test func stateChangingCallsNeedTheSessionsCSRFTokenCheckedFromTheHead() async throws {
        let harness = try EmulatorHarness()
        let (cookie, _) = try Self.signIn(harness)
        let (other, _) = try Self.signIn(harness)
        let token = try await Self.csrf(harness, cookie: cookie)
        #expect(try await Self.csrf(harness, cookie: other) != token)
        let body = try JSONSerialization.data(withJSONObject: ["onlyVerifiedUsers": true])
        let missing = try await harness.raw("PATCH", "/dashboard/api/app", headers: ["Cookie": cookie], body: body)
        #expect(missing.status == 403 && missing.errorCode == "csrf_token_invalid")
        let otherToken = try await Self.csrf(harness, cookie: other)
        let wrong = try await harness.raw(
            "PATCH", "/dashboard/api/app", headers: ["Cookie": cookie, "X-CSRF-Token": otherToken], body: body)
        #expect(wrong.status == 403)
        #expect(try await harness.admin("GET", "app").json["onlyVerifiedUsers"] as? Bool == false)
        let right = try await harness.raw(
            "PATCH", "/dashboard/api/app", headers: ["Cookie": cookie, "X-CSRF-Token": token], body: body)
        #expect(right.status == 200 && right.json["onlyVerifiedUsers"] as? Bool == true)
        // Refused from the head: a body announced over the limit without a token gets 403, not 413.
        let connection = try RawConnection(port: harness.port)
        connection.write(
            "POST /dashboard/api/identity-secret HTTP/1.1\r\nHost: x\r\nCookie: \(cookie)\r\nContent-Length: 999999999\r\n\r\n")
        #expect(connection.read(until: "\r\n\r\n"))
        #expect(connection.text.hasPrefix("HTTP/1.1 403"))
        // Signing out ends that session only.
        let signOut = try await harness.raw(
            "POST", "/dashboard/api/sign-out", headers: ["Cookie": cookie, "X-CSRF-Token": token])
        #expect(signOut.status == 200)
        #expect(try await harness.raw("GET", "/dashboard/api/inbox", headers: ["Cookie": cookie]).status == 401)
        let stillSignedIn = try await harness.raw("GET", "/dashboard/api/inbox", headers: ["Cookie": other])
        #expect(stillSignedIn.status == 200, "\(stillSignedIn.status) \(String(decoding: stillSignedIn.body, as: UTF8.self))")
    }

    @Test func signingInOverAndOverKeepsAtMostSixtyFourSessions() async throws {
        let harness = try EmulatorHarness()
        let (first, _) = try Self.signIn(harness)
        for _ in 0..<64 { _ = try Self.signIn(harness) }
        #expect(try await harness.raw("GET", "/dashboard/api/inbox", headers: ["Cookie": first]).status == 401)
    }

    @Test func theInboxShowsLabelsBadgesLastMessageAndWhatTheTeamHasNotRead() async throws {
        let harness = try EmulatorHarness()
        let labelled = try await harness.register(["name": "Ada", "externalUserId": "ada"])
        let guest = try await harness.register()
        try await harness.send(labelled, "first")
        harness.clock.advance(by: 1)
        try await harness.send(guest, "hello")
        harness.clock.advance(by: 1)
        try await harness.send(labelled, "second")
        let (cookie, _) = try Self.signIn(harness)
        let inbox = try await harness.raw("GET", "/dashboard/api/inbox", headers: ["Cookie": cookie])
        let entries = try #require(inbox.json["conversations"] as? [[String: Any]])
        #expect(entries.map { $0["deviceId"] as? String } == [labelled.id, guest.id])
        #expect(entries[0]["label"] as? String == "Ada" && entries[0]["badge"] as? String == "unverified")
        #expect((entries[1]["label"] as? String)?.hasPrefix("User #") == true && entries[1]["badge"] is NSNull)
        #expect((entries[0]["lastMessage"] as? [String: Any])?["text"] as? String == "second")
        #expect(entries[0]["unreadForTeam"] as? Int == 2)
        let token = try await Self.csrf(harness, cookie: cookie)
        let seen = try await harness.raw(
            "POST", "/dashboard/api/devices/\(labelled.id)/seen", headers: ["Cookie": cookie, "X-CSRF-Token": token])
        #expect(seen.status == 200)
        let after = try await harness.admin("GET", "inbox").json["conversations"] as? [[String: Any]]
        #expect(after?.first?["unreadForTeam"] as? Int == 0)
    }

    @Test func theDisplayNameIsKeptApartFromTheSDKsName() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register(["name": "ada"])
        let set = try await harness.admin("PATCH", "devices/\(device.id)", json: ["displayName": "  Ada (VIP)  "])
        #expect(set.status == 200 && set.json["displayName"] as? String == "Ada (VIP)" && set.json["label"] as? String == "Ada (VIP)")
        // The SDK changes its name: the team's display name stays.
        let update = try await harness.api("PATCH", "devices/me", token: device.token, json: EmulatorHarness.payload(["name": "Ada L."]))
        #expect(update.status == 200)
        let shown = try await harness.admin("GET", "devices/\(device.id)").json
        #expect(shown["name"] as? String == "Ada L." && shown["displayName"] as? String == "Ada (VIP)")
        let tooLong = try await harness.admin("PATCH", "devices/\(device.id)", json: ["displayName": String(repeating: "x", count: 201)])
        #expect(tooLong.status == 400)
        let cleared = try await harness.admin("PATCH", "devices/\(device.id)", json: ["displayName": NSNull()])
        #expect(cleared.json["displayName"] is NSNull && cleared.json["label"] as? String == "Ada L.")
    }

    @Test func deviceSearchRunsOnTheServer() async throws {
        let harness = try EmulatorHarness()
        _ = try await harness.register(["name": "Grace Hopper", "email": "grace@navy.example"])
        _ = try await harness.register(["externalUserId": "user_100%"])
        _ = try await harness.register()
        func found(_ query: String) async throws -> [String] {
            let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let reply = try await harness.admin("GET", "devices?query=\(encoded)")
            return (reply.json["devices"] as? [[String: Any]] ?? []).map { $0["label"] as? String ?? "" }
        }
        #expect(try await found("hopper") == ["Grace Hopper"])
        #expect(try await found("NAVY") == ["Grace Hopper"])
        #expect(try await found("100%") == ["user_100%"])
        #expect(try await found("%") == ["user_100%"])
        #expect(try await found("").count == 3)
        let long = try await harness.admin("GET", "devices?query=" + String(repeating: "a", count: 256))
        #expect(long.status == 400 && long.errorCode == "invalid_request")
    }

    @Test func thePushPreviewRendersUnsavedSettingsLikeARealPushAndSavesNothing() async throws {
        let harness = try EmulatorHarness()
        let preview = try await harness.admin(
            "POST", "push-preview", json: ["push": ["titleTemplate": "{app}: {agent}", "senderName": " Sam ", "appName": "Shop"]])
        #expect(preview.status == 200)
        #expect(preview.json["title"] as? String == "Shop: Sam")
        #expect(preview.json["body"] as? String == "📷 Your order has shipped.")
        let hidden = try await harness.admin("POST", "push-preview", json: ["push": ["showMessage": false]])
        #expect(hidden.json["body"] as? String == "Open the app to read the reply.")
        let tooLong = try await harness.admin(
            "POST", "push-preview", json: ["push": ["bodyTemplate": String(repeating: "x", count: 121)]])
        #expect(tooLong.status == 400)
        let push = try #require(try await harness.admin("GET", "app").json["push"] as? [String: Any])
        #expect(push["titleTemplate"] is NSNull && push["senderName"] is NSNull)
    }

    @Test func lastSeenIsTheLastAuthenticatedRequestRecordedAtMostOnceAMinute() async throws {
        let harness = try EmulatorHarness()
        let device = try await harness.register()
        let first = try await harness.admin("GET", "devices/\(device.id)").json["lastSeenAt"] as? String
        #expect(first != nil)
        harness.clock.advance(by: 30)
        _ = try await harness.api("GET", "conversation/unread", token: device.token)
        #expect(try await harness.admin("GET", "devices/\(device.id)").json["lastSeenAt"] as? String == first)
        harness.clock.advance(by: 31)
        _ = try await harness.api("GET", "conversation/unread", token: device.token)
        let later = try await harness.admin("GET", "devices/\(device.id)").json["lastSeenAt"] as? String
        #expect(later != nil && later != first)
    }
}
