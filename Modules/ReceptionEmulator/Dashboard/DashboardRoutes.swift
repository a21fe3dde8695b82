import Foundation

/// `/dashboard/…`: the team's web dashboard (Docs/Dashboard.md). The page, style sheet and scripts are files of the
/// emulator's resource bundle, read once (``DashboardAssets``); data calls under `/dashboard/api/` reuse the admin API's handlers, authorised by the
/// session cookie (and, when they change something, the session's CSRF token) instead of the admin token.
extension EmulatorState {
    /// What the dashboard sends with every answer: nothing loads from elsewhere, nothing inline runs, and no page
    /// may frame it.
    static let dashboardHeaders: [(String, String)] = [
        (
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' blob: data:; object-src 'none'; base-uri 'none'; "
                + "frame-ancestors 'none'; form-action 'self'"
        ),
        ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
        ("Cache-Control", "no-store"),
    ]

    /// Whether `segments` (the whole path) is the sign-in URL, the one dashboard route open without a session.
    private static func isSignIn(_ segments: [String]) -> Bool {
        segments.count == 3 && segments[0] == "dashboard" && segments[1] == "sign-in"
    }

    /// The head check of a dashboard request (before any body byte is read): a session cookie of a member still in
    /// the team, for anything but GET and HEAD the session's CSRF token, and for an Agent's data call an endpoint
    /// that is not an Owner's (403 `owner_required`). The sign-in URL checks its secret itself.
    func checkDashboard(_ request: HTTPRequest) throws {
        let segments = request.segments.map(String.init)
        if Self.isSignIn(segments) { return }
        guard let session = dashboard.session(of: request) else { throw Self.dashboardSignedOut }
        if request.method != "GET", request.method != "HEAD",
            !DashboardAccess.hasCSRFToken(request, session: session.id, key: settings.signingKey)
        {
            throw APIError(403, "csrf_token_invalid", "The request lacks this session's CSRF token; reload the page.")
        }
        let caller = try dashboardCaller(request)
        if segments.count > 2, segments[1] == "api" { try checkRole(caller, request.method, Array(segments.dropFirst(2))) }
    }

    /// 401 for a request without a dashboard session.
    static let dashboardSignedOut = APIError(
        401, "dashboard_unauthorized",
        "Sign in by opening the Dashboard URL that reception-emulator printed when it started "
            + "(http://127.0.0.1:PORT/dashboard/sign-in/…); every start prints a new one.")

    func routeDashboard(_ request: HTTPRequest, _ path: [String], emulator: ReceptionEmulator) throws -> HTTPResponse {
        do {
            return Self.withDashboardHeaders(try answerDashboard(request, path, emulator: emulator))
        } catch let error as APIError {
            return Self.dashboardRefusal(error, request: request)
        }
    }

    /// The answer to a refused dashboard request: pages get a readable page saying how to sign in (401), data
    /// calls the JSON envelope; both with the dashboard's headers.
    static func dashboardRefusal(_ error: APIError, request: HTTPRequest) -> HTTPResponse {
        let isDataCall = request.segments.dropFirst().first == "api"
        if error.status == 401, !isDataCall { return withDashboardHeaders(signedOutPage) }
        return withDashboardHeaders(error.response)
    }

    private func answerDashboard(_ request: HTTPRequest, _ path: [String], emulator: ReceptionEmulator) throws -> HTTPResponse {
        if path.count == 2, path[0] == "sign-in" {
            guard request.method == "GET", let member = dashboard.member(ofSecret: path[1]) else {
                throw Self.dashboardSignedOut
            }
            let session = dashboard.open(id: configuration.randomText(40), memberId: member, now: now)
            // The redirect drops the secret from the address bar (and from the history entry it would leave).
            return HTTPResponse(
                status: 303,
                headers: [
                    ("Location", "/dashboard/"),
                    (
                        "Set-Cookie",
                        "\(DashboardAccess.cookieName)=\(session); Path=/dashboard; HttpOnly; SameSite=Strict"
                    ),
                ])
        }
        try checkDashboard(request)
        switch (request.method, path) {
        case ("GET", []), ("GET", ["index.html"]):
            return Self.asset(DashboardAssets.page, of: emulator.dashboardAssets)
        case ("GET", let p) where p.count == 2 && p[0] == "assets" && p[1] != DashboardAssets.page:
            guard DashboardAssets.types[p[1]] != nil else { throw APIError.notFound }
            return Self.asset(p[1], of: emulator.dashboardAssets)
        case ("GET", ["api", "session"]):
            guard let session = dashboard.session(of: request) else { throw Self.dashboardSignedOut }
            let caller = try dashboardCaller(request)
            return .json(
                200,
                [
                    "csrfToken": .string(DashboardAccess.csrfToken(session: session.id, key: settings.signingKey)),
                    "appId": .string(settings.appId), "member": caller.json["member"] ?? .null,
                ])
        case ("POST", ["api", "sign-out"]):
            if let session = dashboard.session(of: request) { dashboard.close(session.id) }
            return .json(
                200, [:],
                headers: [("Set-Cookie", "\(DashboardAccess.cookieName)=; Path=/dashboard; Max-Age=0; HttpOnly; SameSite=Strict")])
        case (_, let p) where p.first == "api":
            return try adminEndpoint(request, Array(p.dropFirst()), emulator: emulator, caller: try dashboardCaller(request))
        default:
            throw APIError.notFound
        }
    }

    /// A file kept in memory; 503 with a page naming the missing files when they could not be read.
    private static func asset(_ name: String, of assets: DashboardAssets) -> HTTPResponse {
        guard let file = assets.files[name] else {
            return HTTPResponse(
                status: 503, headers: [("Content-Type", "text/html; charset=utf-8")], body: .bytes(assets.unavailablePage))
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", file.type)], body: .bytes(file.bytes))
    }

    private static func withDashboardHeaders(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        let present = Set(response.headers.map { $0.0.lowercased() })
        response.headers += dashboardHeaders.filter { !present.contains($0.0.lowercased()) }
        return response
    }

    /// The 401 page: how to get the sign-in URL.
    private static var signedOutPage: HTTPResponse {
        HTTPResponse(
            status: 401, headers: [("Content-Type", "text/html; charset=utf-8")],
            body: .bytes(Array(DashboardAssets.signedOut.utf8)))
    }
}
