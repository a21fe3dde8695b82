import Foundation

extension ReceptionEmulator {
    /// Answers one request: queued faults first, then the route under the state lock. A delay fault answers
    /// `later`: the connection waits parked and the route runs when the delay is over. `/v1/` requests and
    /// attachment downloads land in the request log with what they answered.
    package func handle(_ request: HTTPRequest) -> HTTPResponse {
        let started = ContinuousClock.now
        let logged = Self.isLogged(request)
        let deviceId = logged && faults.needsDevice ? state.withLock { $0.deviceId(bearerOf: request) } : nil
        switch faults.take(method: request.method, path: request.path, deviceId: deviceId) {
        case .delay(let milliseconds)?:
            return HTTPResponse(
                status: 0,
                body: .later(seconds: Double(max(0, milliseconds)) / 1000) { [self] in
                    let response = answer(request)
                    if logged { log(request, response, started: started, fault: "delay") }
                    return response
                })
        case .fail(let error)?:
            let response = error.response
            if logged { log(request, response, started: started, fault: "status") }
            return response
        case .drop?:
            let response = answer(request)
            // The client gets no answer at all: the log says 0, with the status the emulator committed beside it.
            if logged { log(request, response, started: started, fault: "drop", dropped: true) }
            return HTTPResponse(status: 0, body: .drop)
        case .garble(let commits)?:
            let response = commits ? answer(request) : HTTPResponse(status: 200, body: .bytes([]))
            if logged { log(request, response, started: started, fault: "garble") }
            // The answer's status with a body that no JSON reader takes: what a broken proxy in between would send.
            return HTTPResponse(
                status: response.status, headers: [("Content-Type", "application/json")],
                body: .bytes(Array("<html>garbled answer</html>".utf8)))
        case nil:
            let response = answer(request)
            if logged { log(request, response, started: started, fault: nil) }
            return response
        }
    }

    /// Whether `request` goes into the request log: every `/v1/` request, and the attachment downloads
    /// (`GET /files/<id>`), so a developer (and a test) sees each photo the SDK fetched (Docs/Emulator.md).
    static func isLogged(_ request: HTTPRequest) -> Bool {
        request.path.hasPrefix("/v1/") || (request.method == "GET" && request.path.hasPrefix("/files/"))
    }

    /// Adds one `/v1/` request or attachment download to the request log (no header values, no secret query values, the body as its size
    /// and key names).
    private func log(
        _ request: HTTPRequest, _ response: HTTPResponse, started: ContinuousClock.Instant, fault: String?,
        dropped: Bool = false
    ) {
        let elapsed = ContinuousClock.now - started
        let milliseconds =
            Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        var errorCode: String?
        if response.status >= 400, case .bytes(let bytes) = response.body,
            let code = (try? JSONValue.parse(bytes))?["error"]?["code"]?.stringValue
        {
            errorCode = String(code.prefix(64))
        }
        let (deviceId, at) = state.withLock { ($0.deviceId(of: request, response: response), $0.now) }
        requestLog.record(
            RequestLog.Entry(
                method: String(request.method.prefix(16)), path: String(request.path.prefix(256)),
                query: RequestLog.redacted(request.query), status: dropped ? 0 : response.status,
                committedStatus: dropped ? response.status : nil, errorCode: errorCode,
                deviceId: deviceId, milliseconds: milliseconds, at: at, bodyBytes: request.body.count,
                bodyKeys: RequestLog.bodyKeys(request.body), fault: fault))
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        if request.bodyTooLarge { return APIError.payloadTooLarge.response }
        return state.withLock { state in
            do {
                return try state.route(request, emulator: self)
            } catch let error as APIError {
                return error.response
            } catch {
                return APIError(500, "internal_error", "The emulator failed: \(error)").response
            }
        }
    }

    /// The answer to a request from its head alone, before its body is read: 401 (or the app's 403, or 403 for a
    /// bad upload signature) without valid credentials for the route; `nil` lets the server go on to its
    /// `Content-Length` check (413) and the body. The admin limit thus applies only once the admin token was
    /// accepted.
    package func admit(_ head: HTTPRequest) -> HTTPResponse? {
        let started = ContinuousClock.now
        let refusal = refusal(head)
        if let refusal, head.path.hasPrefix("/v1/") { log(head, refusal, started: started, fault: nil) }
        return refusal
    }

    private func refusal(_ head: HTTPRequest) -> HTTPResponse? {
        state.withLock { state in
            do {
                try state.checkCredentials(head)
            } catch let error as APIError {
                if head.segments.first == "dashboard" { return EmulatorState.dashboardRefusal(error, request: head) }
                return error.response
            } catch {
                return APIError(500, "internal_error", "The emulator failed: \(error)").response
            }
            return nil
        }
    }
}

extension EmulatorState {
    /// Dispatches by path: `/v1/…` (the protocol), `/storage/…` (upload PUT), `/files/…` and `/team-photos/…`
    /// (signed downloads), `/admin/…` (team API), `/dashboard/…` (the team's web dashboard).
    func route(_ request: HTTPRequest, emulator: ReceptionEmulator) throws -> HTTPResponse {
        let segments = request.segments.map(String.init)
        switch segments.first {
        case "v1": return try routeAPI(request, Array(segments.dropFirst()))
        case "storage" where segments.count == 2 && request.method == "PUT":
            return try storagePut(request, attachmentId: segments[1])
        case "files" where segments.count == 2 && request.method == "GET":
            return try fileGet(request, attachmentId: segments[1])
        case "team-photos" where segments.count == 2 && request.method == "GET":
            return try teamPhotoGet(request, photoId: segments[1])
        case "admin": return try routeAdmin(request, Array(segments.dropFirst()), emulator: emulator)
        case "dashboard": return try routeDashboard(request, Array(segments.dropFirst()), emulator: emulator)
        default: throw APIError.notFound
        }
    }

    /// Who may call an endpoint: anyone, any client naming this app, or a device with its access token.
    enum Caller { case anyone, app, device }

    /// The `/v1/` endpoint for `method` and `path` (after `v1`): who may call it and what answers it.
    private func apiEndpoint(
        _ method: String, _ path: [String]
    ) -> (caller: Caller, answer: (HTTPRequest) throws -> HTTPResponse)? {
        switch (method, path) {
        // spec 3.17: appearance images are plain loads without Reception headers.
        case ("GET", let p) where p.count == 3 && p[0] == "appearance" && p[1] == "images":
            return (.anyone, { _ in try self.appearanceImage(id: p[2]) })
        case ("POST", ["devices"]): return (.app, register)
        case ("GET", ["appearance"]): return (.app, appearance)
        case ("PATCH", ["devices", "me"]): return (.device, updateDevice)
        // Renewal, logout and deletion prove the session with its secret in the body, not with an access token.
        case ("POST", ["devices", "me", "token"]): return (.app, refreshToken)
        case ("POST", ["devices", "me", "logout"]): return (.app, logout)
        case ("DELETE", ["devices", "me"]): return (.app, deleteDevice)
        case ("GET", ["conversation"]): return (.device, conversation)
        case ("GET", ["conversation", "messages"]): return (.device, messagesPage)
        case ("POST", ["conversation", "messages"]): return (.device, send)
        case ("POST", ["conversation", "read"]): return (.device, read)
        case ("GET", ["conversation", "unread"]): return (.device, unread)
        case ("POST", ["conversation", "typing"]): return (.device, typing)
        case ("GET", ["conversation", "events"]): return (.device, events)
        case ("POST", ["conversation", "action-click"]): return (.device, actionClick)
        case ("POST", ["uploads"]): return (.device, reserveUpload)
        case ("GET", let p) where p.count == 2 && p[0] == "attachments":
            return (.device, { try self.attachment($0, id: p[1]) })
        default: return nil
        }
    }

    private func routeAPI(_ request: HTTPRequest, _ path: [String]) throws -> HTTPResponse {
        guard let endpoint = apiEndpoint(request.method, path) else {
            try checkApp(request)
            throw APIError.notFound
        }
        if endpoint.caller != .anyone { try checkApp(request) }
        return try endpoint.answer(request)
    }

    /// The credentials a request's head must carry for its route (checked again by the route itself): the App ID
    /// on `/v1/`, a valid access token for device endpoints, the admin token on `/admin/`, a valid unexpired
    /// signature on a storage PUT.
    func checkCredentials(_ request: HTTPRequest) throws {
        let segments = request.segments.map(String.init)
        switch segments.first {
        case "v1":
            let caller = apiEndpoint(request.method, Array(segments.dropFirst()))?.caller ?? .app
            if caller != .anyone { try checkApp(request) }
            if caller == .device { _ = try authenticate(request) }
        case "admin":
            try checkAdminToken(request)
        case "dashboard":
            try checkDashboard(request)
        case "storage" where segments.count == 2 && request.method == "PUT":
            guard hasValidSignature(request, purpose: "put", id: segments[1]) else {
                throw APIError(403, "invalid_signature", "The upload URL is not valid or has expired.")
            }
        default:
            break
        }
    }

    /// spec 8.1.1: every `/v1/` request names this app; a disabled app answers 403.
    func checkApp(_ request: HTTPRequest) throws(APIError) {
        guard request.header("x-app-id") == settings.appId else {
            throw APIError(401, "invalid_app_id", "Unknown App ID.")
        }
        guard !settings.disabled else { throw APIError(403, "app_disabled", "This app is disabled.") }
    }
}
