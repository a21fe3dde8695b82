/// A failed request as the error envelope of spec 5.1 carries it.
struct APIError: Error, Equatable, Sendable {
    var status: Int
    var code: String
    var message: String
    var retryScope: String?
    var resetRevision: Int64?
    var retryAfter: Int?

    init(
        _ status: Int, _ code: String, _ message: String, retryScope: String? = nil, resetRevision: Int64? = nil,
        retryAfter: Int? = nil
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.retryScope = retryScope
        self.resetRevision = resetRevision
        self.retryAfter = retryAfter
    }

    /// `{"error": {"code", "message", "retryScope"?, "resetRevision"?}}` with `Retry-After` when set.
    var response: HTTPResponse {
        var error: [String: JSONValue] = ["code": .string(code), "message": .string(message)]
        if let retryScope { error["retryScope"] = .string(retryScope) }
        if let resetRevision { error["resetRevision"] = .int(resetRevision) }
        let headers = retryAfter.map { [("Retry-After", String($0))] } ?? []
        return .json(status, ["error": .object(error)], headers: headers)
    }

    static func invalidRequest(_ message: String) -> APIError { APIError(400, "invalid_request", message) }
    static let invalidJSON = APIError(400, "invalid_json", "The body is not a JSON object.")
    static let unauthorized = APIError(401, "unauthorized", "The access token is unknown or expired.")
    static let notFound = APIError(404, "not_found", "No such endpoint.")
    static let payloadTooLarge = APIError(413, "payload_too_large", "The body is larger than this endpoint accepts.")
}

/// Reading request bodies with stable 400 codes: `invalid_json` when the body is not a JSON object,
/// `invalid_request` when a field has the wrong type or is out of range.
extension HTTPRequest {
    /// The body as a JSON object.
    func jsonObject() throws(APIError) -> [String: JSONValue] {
        guard let value = try? JSONValue.parse(body), let object = value.objectValue else { throw APIError.invalidJSON }
        return object
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// A required string member.
    func requiredString(_ key: String) throws(APIError) -> String {
        guard let value = self[key]?.stringValue else { throw APIError.invalidRequest("\(key) must be a string") }
        return value
    }

    /// An optional string member (absent or `null` → `nil`).
    func optionalString(_ key: String) throws(APIError) -> String? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw APIError.invalidRequest("\(key) must be a string") }
        return text
    }

    /// An optional boolean member.
    func optionalBool(_ key: String) throws(APIError) -> Bool? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let flag = value.boolValue else { throw APIError.invalidRequest("\(key) must be a boolean") }
        return flag
    }

    /// An optional whole-number member within `range` (absent or `null` → `nil`). A fraction, a number beyond
    /// the range (±2^63, 1e309) or another type is 400 `invalid_request`, never a trap.
    func optionalInt(_ key: String, in range: ClosedRange<Int64>) throws(APIError) -> Int64? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let number = value.integer(in: range) else {
            throw APIError.invalidRequest("\(key) must be a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return number
    }

    /// A required identifier: a string without U+0000 (an ID that differs from another only after a NUL is
    /// refused rather than stored as a second, confusable key).
    func requiredIdentifier(_ key: String) throws(APIError) -> String {
        let value = try requiredString(key)
        guard !value.containsNUL else { throw APIError.invalidRequest("\(key) must not contain U+0000") }
        return value
    }

    /// An optional identifier (absent or `null` → `nil`), without U+0000.
    func optionalIdentifier(_ key: String) throws(APIError) -> String? {
        guard let value = try optionalString(key) else { return nil }
        guard !value.containsNUL else { throw APIError.invalidRequest("\(key) must not contain U+0000") }
        return value
    }
}

extension String {
    /// Whether the text holds U+0000, which identifiers refuse (message text keeps it: spec 3.8 limits only length).
    var containsNUL: Bool { utf8.contains(0) }
}
