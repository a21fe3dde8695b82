import Foundation

extension ReceptionEmulator {
    /// Answers one request: queued faults first, then the route under the state lock.
    package func handle(_ request: HTTPRequest) -> HTTPResponse {
        let fault = faults.take(method: request.method, path: request.path)
        switch fault {
        case .delay(let milliseconds)?:
            // Blocks only this connection's thread (thread per connection).
            Thread.sleep(forTimeInterval: Double(max(0, milliseconds)) / 1000)
        case .fail(let error)?:
            return error.response
        case .drop?, nil:
            break
        }
        let response: HTTPResponse
        if request.bodyTooLarge {
            response = APIError.payloadTooLarge.response
        } else {
            response = state.withLock { state in
                do {
                    return try state.route(request, emulator: self)
                } catch let error as APIError {
                    return error.response
                } catch {
                    return APIError(500, "internal_error", "The emulator failed: \(error)").response
                }
            }
        }
        return fault == .drop ? HTTPResponse(status: 0, body: .drop) : response
    }
}

extension EmulatorState {
    /// Dispatches by path: `/v1/…` (the protocol), `/storage/…` (upload PUT), `/files/…` and `/team-photos/…`
    /// (signed downloads), `/admin/…` (team API).
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
        case "admin": return try routeAdmin(request, Array(segments.dropFirst()), faults: emulator.faults)
        default: throw APIError.notFound
        }
    }

    private func routeAPI(_ request: HTTPRequest, _ path: [String]) throws -> HTTPResponse {
        // spec 3.17: appearance images are plain loads without Reception headers.
        if request.method == "GET", path.count == 3, path[0] == "appearance", path[1] == "images" {
            return try appearanceImage(id: path[2])
        }
        try checkApp(request)
        switch (request.method, path) {
        case ("POST", ["devices"]): return try register(request)
        case ("PATCH", ["devices", "me"]): return try updateDevice(request)
        case ("POST", ["devices", "me", "token"]): return try refreshToken(request)
        case ("POST", ["devices", "me", "logout"]): return try logout(request)
        case ("DELETE", ["devices", "me"]): return try deleteDevice(request)
        case ("GET", ["conversation"]): return try conversation(request)
        case ("GET", ["conversation", "messages"]): return try messagesPage(request)
        case ("POST", ["conversation", "messages"]): return try send(request)
        case ("POST", ["conversation", "read"]): return try read(request)
        case ("GET", ["conversation", "unread"]): return try unread(request)
        case ("POST", ["conversation", "typing"]): return try typing(request)
        case ("GET", ["conversation", "events"]): return try events(request)
        case ("POST", ["conversation", "action-click"]): return try actionClick(request)
        case ("POST", ["uploads"]): return try reserveUpload(request)
        case ("GET", let p) where p.count == 2 && p[0] == "attachments": return try attachment(request, id: p[1])
        case ("GET", ["appearance"]): return try appearance(request)
        default: throw APIError.notFound
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
