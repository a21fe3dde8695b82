import Foundation
import ReceptionEmulator
import Testing

/// The dashboard's files (issue 30): `Resources/Dashboard/` served as they are written, read once from the resource
/// bundle; a missing folder or file is a 503 for the dashboard's pages, never a stopped process, and the device
/// and admin APIs answer as before.
@Suite("DashboardFilesTests")
struct DashboardFilesTests {
    /// `Modules/ReceptionEmulator/Resources/Dashboard` of this checkout.
    static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Modules/ReceptionEmulator/Resources/Dashboard")

    static func type(of name: String) -> String {
        switch URL(fileURLWithPath: name).pathExtension {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        default: "text/javascript; charset=utf-8"
        }
    }

    @Test func everyFileOfTheFolderIsServedAsWrittenWithItsType() async throws {
        let harness = try EmulatorHarness()
        #expect(harness.emulator.dashboardProblem == nil)
        let (cookie, _) = try DashboardAccessTests.signIn(harness)
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.source.path).sorted()
        #expect(names.contains("index.html") && names.contains("dashboard.css") && names.contains("app.js"))
        #expect(names.filter { $0.hasSuffix(".js") }.count == 13)
        for name in names {
            let path = name == "index.html" ? "/dashboard/" : "/dashboard/assets/" + name
            let reply = try await harness.raw("GET", path, headers: ["Cookie": cookie])
            let written = try Data(contentsOf: Self.source.appendingPathComponent(name))
            #expect(reply.status == 200, "\(path)")
            #expect(reply.body == written, "\(path) is served as written")
            #expect(reply.header("Content-Type") == Self.type(of: name), "\(path)")
            #expect(reply.header("Cache-Control") == "no-store" && reply.header("X-Content-Type-Options") == "nosniff")
            #expect(reply.header("Content-Security-Policy")?.hasPrefix("default-src 'self'") == true)
        }
        for unknown in ["/dashboard/assets/index.html", "/dashboard/assets/missing.js", "/dashboard/assets/..%2Fapp.js"] {
            #expect(try await harness.raw("GET", unknown, headers: ["Cookie": cookie]).status == 404, "\(unknown)")
        }
    }

    @Test func aMissingFolderAnswers503ForThePagesWhileTheAPIsWork() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-dashboard-\(UUID().uuidString)")
        let harness = try EmulatorHarness(dashboardFiles: missing.path)
        let problem = try #require(harness.emulator.dashboardProblem)
        #expect(problem.contains("index.html") && problem.contains("app.js"))
        let (cookie, head) = try DashboardAccessTests.signIn(harness)
        #expect(head.hasPrefix("HTTP/1.1 303"), "signing in still works")
        for path in ["/dashboard/", "/dashboard/index.html", "/dashboard/assets/app.js", "/dashboard/assets/dashboard.css"] {
            let reply = try await harness.raw("GET", path, headers: ["Cookie": cookie])
            let text = String(decoding: reply.body, as: UTF8.self)
            #expect(reply.status == 503, "\(path)")
            #expect(reply.header("Content-Type") == "text/html; charset=utf-8", "\(path)")
            #expect(text.contains("files are missing") && text.contains("<code>index.html</code>"), "\(path)")
            #expect(!text.contains(missing.path), "the page shows no path of the machine")
            #expect(reply.header("Content-Security-Policy") != nil, "\(path)")
        }
        #expect(try await harness.raw("GET", "/dashboard/assets/unknown.js", headers: ["Cookie": cookie]).status == 404)
        // Without a session the pages still say how to sign in.
        #expect(try await harness.raw("GET", "/dashboard/").status == 401)
        // The data calls, the admin API and the device API are unaffected.
        #expect(try await harness.raw("GET", "/dashboard/api/inbox", headers: ["Cookie": cookie]).status == 200)
        #expect(try await harness.admin("GET", "app").status == 200)
        let device = try await harness.register()
        #expect(try await harness.send(device, "still served").status == 201)
    }

    @Test func aFolderLackingOneFileNamesItAndServesNone() async throws {
        let partial = FileManager.default.temporaryDirectory.appendingPathComponent("partial-dashboard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: partial) }
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.source.path) where name != "console.js" {
            try FileManager.default.copyItem(
                at: Self.source.appendingPathComponent(name), to: partial.appendingPathComponent(name))
        }
        let harness = try EmulatorHarness(dashboardFiles: partial.path)
        let problem = try #require(harness.emulator.dashboardProblem)
        #expect(problem.contains("lacks console.js."))
        let (cookie, _) = try DashboardAccessTests.signIn(harness)
        let page = try await harness.raw("GET", "/dashboard/", headers: ["Cookie": cookie])
        #expect(page.status == 503)
        let text = String(decoding: page.body, as: UTF8.self)
        #expect(text.contains("<code>console.js</code>") && !text.contains("<code>app.js</code>"))
        #expect(try await harness.raw("GET", "/dashboard/assets/app.js", headers: ["Cookie": cookie]).status == 503)
    }
}
