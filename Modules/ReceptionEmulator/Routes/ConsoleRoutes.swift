import Foundation

/// The developer console's admin endpoints (Docs/Emulator.md "Developer console"): faults, the request log, reset
/// and snapshots. Also served to the dashboard under `/dashboard/api/`.
extension EmulatorState {
    func consoleEndpoint(_ request: HTTPRequest, _ path: [String], emulator: ReceptionEmulator) throws -> HTTPResponse {
        let faults = emulator.faults
        switch (request.method, path) {
        case ("GET", ["faults"]): return .json(200, ["faults": .array(faults.pending.map(Self.faultJSON))])
        case ("POST", ["faults"]):
            let added = faults.add(try Self.fault(from: try request.jsonObject()))
            return .json(
                201, ["fault": Self.faultJSON(added), "faults": .array(faults.pending.map(Self.faultJSON))])
        case ("DELETE", ["faults"]):
            faults.clear()
            return .json(200, ["faults": []])
        case ("DELETE", let p) where p.count == 2:
            guard p[0] == "faults", faults.remove(id: p[1]) else { throw APIError(404, "not_found", "No such fault.") }
            return .json(200, ["faults": .array(faults.pending.map(Self.faultJSON))])
        case ("GET", ["requests"]): return try requestLog(request, log: emulator.requestLog)
        case ("POST", ["reset"]):
            try reset()
            emulator.requestLog.clear()
            return .json(200, appJSON())
        case ("GET", ["snapshot"]):
            // The APNs key only when asked for by name (Docs/Emulator.md "Snapshots").
            let includeKey = request.query["includeKey"] == "true"
            return HTTPResponse(
                status: 200,
                headers: [
                    ("Content-Type", "application/json"),
                    ("Content-Disposition", "attachment; filename=\"reception-snapshot.json\""),
                ],
                body: .bytes(Array(try snapshot(includingAPNsKey: includeKey).serialized().utf8)))
        case ("PUT", ["snapshot"]):
            try importSnapshot(request.body)
            emulator.requestLog.clear()
            return .json(200, appJSON())
        default: throw APIError.notFound
        }
    }

    /// `GET /admin/requests?limit=&device=&status=&after=`: newest first. `limit` 1…5000 (default 100); `status`
    /// an exact code (`404`) or a class (`4xx`); `after` only entries with a larger `id` (live polling).
    private func requestLog(_ request: HTTPRequest, log: RequestLog) throws -> HTTPResponse {
        let limit: Int
        if let text = request.query["limit"] {
            guard let value = Int(text), (1...RequestLog.capacity).contains(value) else {
                throw APIError.invalidRequest("limit must be a whole number in 1…\(RequestLog.capacity)")
            }
            limit = value
        } else {
            limit = 100
        }
        var after = 0
        if let text = request.query["after"] {
            guard let value = Int(text), value >= 0 else { throw APIError.invalidRequest("after must be a whole number ≥ 0") }
            after = value
        }
        var statuses: ClosedRange<Int>?
        if let text = request.query["status"], !text.isEmpty {
            let lower = text.lowercased()
            if lower.count == 3, lower.hasSuffix("xx"), let first = lower.first?.wholeNumberValue, (1...5).contains(first) {
                statuses = first * 100...first * 100 + 99
            } else if let code = Int(text), (0...599).contains(code) {
                statuses = code...code
            } else {
                throw APIError.invalidRequest("status must be a code (404) or a class (4xx)")
            }
        }
        let device = request.query["device"].flatMap { $0.isEmpty ? nil : $0 }
        let entries = log.newest(limit: limit) { entry in
            entry.id > after && (device == nil || entry.deviceId == device)
                && (statuses?.contains(entry.status) ?? true)
        }
        return .json(200, ["requests": .array(entries.map(RequestLog.json))])
    }

    /// The device a logged request belongs to: by its bearer token, by the session secret in its body (renewal,
    /// logout, deletion), or by the token a registration answered with.
    func deviceId(of request: HTTPRequest, response: HTTPResponse) -> String? {
        if let id = deviceId(bearerOf: request) { return id }
        if request.body.count <= BodyLimits.api, !request.body.isEmpty,
            let secret = (try? JSONValue.parse(request.body))?["sessionSecret"]?.stringValue,
            let id = try? db.row("SELECT device_id FROM sessions WHERE secret = ?", [.text(secret)])?.text("device_id")
        {
            return id
        }
        if case .bytes(let bytes) = response.body, (200..<300).contains(response.status),
            let token = (try? JSONValue.parse(bytes))?["token"]?.stringValue
        {
            return try? db.row("SELECT device_id FROM access_tokens WHERE token = ?", [.text(token)])?.text("device_id")
        }
        return nil
    }

    /// The device whose access token the request carries (expired or not), `nil` without one.
    func deviceId(bearerOf request: HTTPRequest) -> String? {
        guard let header = request.header("authorization"), header.hasPrefix("Bearer ") else { return nil }
        let token = String(header.dropFirst("Bearer ".count)).trimmingCharacters(in: .whitespaces)
        return try? db.row("SELECT device_id FROM access_tokens WHERE token = ?", [.text(token)])?.text("device_id")
    }

    /// Reads a fault: `{path, method?, device?, kind: "delay"|"status"|"drop"|"garble", probability?, delayMs?, jitterMs?,
    /// status?, code?, message?, retryAfter?, retryScope?, count?, commit?}`. Numbers outside their range are 400
    /// `invalid_request`: `count` 1…2^53−1, `probability` a number 0…1, `delayMs` and `jitterMs` 0…60000, `status`
    /// 400…599, `retryAfter` any safe whole number (sent as it is, so a test can hand the client a negative or an
    /// over-long wait, spec 5.2). Without `count` a fault fires once, or, with a `probability`, until removed.
    static func fault(from body: [String: JSONValue]) throws(APIError) -> FaultPlan.Fault {
        let path = try body.requiredIdentifier("path")
        guard path.utf8.count <= 1024 else { throw APIError.invalidRequest("path has more than 1024 bytes") }
        var probability = 1.0
        if let value = body["probability"], !value.isNull {
            let number: Double
            switch value {
            case .int(let whole) where whole == 0 || whole == 1: number = Double(whole)
            case .double(let fraction): number = fraction
            default: throw APIError.invalidRequest("probability must be a number in 0…1")
            }
            guard number.isFinite, number >= 0, number <= 1 else {
                throw APIError.invalidRequest("probability must be a number in 0…1")
            }
            probability = number
        }
        let count = try body.optionalInt("count", in: 1...JSONValue.safeIntegers.upperBound)
        let hasProbability = body["probability"].map { !$0.isNull } ?? false
        let remaining: Int? = count.map { Int($0) } ?? (hasProbability ? nil : 1)
        let action: FaultPlan.Action
        switch try body.requiredString("kind") {
        case "delay":
            action = .delay(
                milliseconds: Int(try body.optionalInt("delayMs", in: 0...60_000) ?? 0),
                jitter: Int(try body.optionalInt("jitterMs", in: 0...60_000) ?? 0))
        case "drop":
            action = .drop
        case "garble":
            action = .garble(commits: try body.optionalBool("commit") ?? true)
        case "status":
            let status = Int(try body.optionalInt("status", in: 400...599) ?? 503)
            action = .fail(
                APIError(
                    status, try body.optionalString("code") ?? "injected_fault",
                    try body.optionalString("message") ?? "Injected fault.",
                    retryScope: try body.optionalString("retryScope"),
                    retryAfter: try body.optionalInt("retryAfter", in: JSONValue.safeIntegers).map { Int($0) }))
        default:
            throw APIError.invalidRequest("kind must be delay, status, drop or garble")
        }
        let method = try body.optionalIdentifier("method")
        guard (method?.utf8.count ?? 0) <= 16 else { throw APIError.invalidRequest("method has more than 16 bytes") }
        return FaultPlan.Fault(
            method: method?.uppercased(), path: path, deviceId: try body.optionalIdentifier("device"), action: action,
            remaining: remaining, probability: probability)
    }

    static func faultJSON(_ fault: FaultPlan.Fault) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(fault.id), "path": .string(fault.path), "method": .optional(fault.method),
            "device": .optional(fault.deviceId), "count": fault.remaining.map { .int(Int64($0)) } ?? .null,
            "probability": .double(fault.probability),
        ]
        switch fault.action {
        case .delay(let milliseconds, let jitter):
            object["kind"] = "delay"
            object["delayMs"] = .int(Int64(milliseconds))
            object["jitterMs"] = .int(Int64(jitter))
        case .drop: object["kind"] = "drop"
        case .garble(let commits):
            object["kind"] = "garble"
            object["commit"] = .bool(commits)
        case .fail(let error):
            object["kind"] = "status"
            object["status"] = .int(Int64(error.status))
            object["code"] = .string(error.code)
        }
        return .object(object)
    }
}
