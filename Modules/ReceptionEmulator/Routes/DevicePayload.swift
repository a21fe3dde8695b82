/// The device payload of spec 4.1, validated. Optional identity fields that are absent stay `nil` and leave the
/// stored value unchanged (spec 0.1); metadata and paywalls replace the stored value whole.
struct DevicePayload {
    /// platform, versions, model, locale, timezone, bundleId: stored as sent, shown to the team.
    var info: [String: JSONValue] = [:]
    var language: String?
    var externalUserId: String?
    var name: String?
    var email: String?
    var pushToken: String?
    var pushEnvironment: String?
    var paywalls: JSONValue = .array([])
    var metadata: JSONValue = .object([:])
    var updatesAppBadge: Bool?
    var identityToken: String?

    static let infoKeys = [
        "platform", "sdkVersion", "appVersion", "appBuild", "osVersion", "deviceModel", "locale", "timezone",
        "bundleId",
    ]

    /// Reads and checks the body; a wrong type or a value over its limit is 400 `invalid_request`.
    init(_ body: [String: JSONValue]) throws(APIError) {
        for key in Self.infoKeys { if let value = try body.optionalString(key) { info[key] = .string(value) } }
        language = try body.optionalString("language")
        externalUserId = try Self.limited(body, "externalUserId", 255)
        name = try Self.limited(body, "name", 200)
        email = try Self.limited(body, "email", 254)
        pushToken = try body.optionalString("pushToken")
        pushEnvironment = try body.optionalString("pushEnvironment")
        if let token = pushToken, token.isEmpty || !token.utf8.allSatisfy(Self.isLowerHex) {
            throw APIError.invalidRequest("pushToken must be lower-case hex")
        }
        if let environment = pushEnvironment, environment != "SANDBOX", environment != "PRODUCTION" {
            throw APIError.invalidRequest("pushEnvironment must be SANDBOX or PRODUCTION")
        }
        updatesAppBadge = try body.optionalBool("updatesAppBadge")
        identityToken = try body.optionalString("identityToken")
        if let value = body["metadata"], !value.isNull { metadata = try Self.metadata(value) }
        if let value = body["paywalls"], !value.isNull { paywalls = try Self.paywalls(value) }
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    private static func limited(_ body: [String: JSONValue], _ key: String, _ limit: Int) throws(APIError) -> String? {
        guard let value = try body.optionalString(key) else { return nil }
        guard value.utf16.count <= limit else { throw APIError.invalidRequest("\(key) is longer than \(limit)") }
        return value
    }

    /// spec 4.1: ≤ 20 entries, keys 1–64, values ≤ 512 UTF-16 units, strings only.
    private static func metadata(_ value: JSONValue) throws(APIError) -> JSONValue {
        guard let entries = value.objectValue, entries.count <= 20 else {
            throw APIError.invalidRequest("metadata must be an object of at most 20 entries")
        }
        for (key, entry) in entries {
            guard (1...64).contains(key.utf16.count), let text = entry.stringValue, text.utf16.count <= 512 else {
                throw APIError.invalidRequest("metadata keys have 1–64 and values at most 512 characters")
            }
        }
        return value
    }

    /// spec 7.21: ≤ 20 entries of `{id, title}` strings.
    private static func paywalls(_ value: JSONValue) throws(APIError) -> JSONValue {
        // Entries are stored whole and shown to the team, so they must stay readable by every JSON reader.
        guard let list = value.arrayValue, list.count <= 20, !value.containsOutOfRangeNumber else {
            throw APIError.invalidRequest("paywalls must be an array of at most 20 entries")
        }
        for entry in list {
            guard let id = entry["id"]?.stringValue, let title = entry["title"]?.stringValue,
                (1...64).contains(id.utf16.count), (1...60).contains(title.utf16.count), !id.containsNUL
            else {
                throw APIError.invalidRequest("every paywall needs an id (1–64, no U+0000) and a title (1–60)")
            }
        }
        return value
    }
}
