/// The last 5,000 `/v1/` requests, and the APNs provider's requests to Apple (`direction: "apns"`), for the developer
/// console (`GET /admin/requests`, the dashboard's Requests page). An entry keeps what a developer needs to see what the SDK did and nothing that grants access: no header values,
/// no query values of secret-bearing names, and bodies only as their size and top-level key names.
package final class RequestLog: Sendable {
    /// How many entries the ring keeps.
    package static let capacity = 5_000

    package struct Entry: Sendable {
        package var id: Int
        package var method: String
        package var path: String
        /// Query arguments; values of names that can carry a secret are replaced by `"…"`.
        package var query: [String: String]
        /// What the client got: 0 when a `drop` fault closed the connection instead of answering.
        package var status: Int
        /// The status the emulator committed but never sent (a `drop` fault); `nil` otherwise.
        package var committedStatus: Int?
        package var errorCode: String?
        package var deviceId: String?
        package var milliseconds: Double
        package var at: Double
        package var bodyBytes: Int
        package var bodyKeys: [String]
        /// What a fault did: `delay`, `status`, `drop` or `garble`; `nil` when none fired.
        package var fault: String?
        /// The `apns-id` APNs answered a provider request with.
        package var apnsId: String?
        /// ``RequestLog/apnsDirection`` for a request the emulator sent to APNs; `nil` for a request it received.
        package var direction: String?

        /// An entry; ``RequestLog/record(_:)`` assigns its `id`.
        package init(
            method: String, path: String, query: [String: String] = [:], status: Int, committedStatus: Int? = nil,
            errorCode: String? = nil,
            deviceId: String? = nil, milliseconds: Double = 0, at: Double = 0, bodyBytes: Int = 0,
            bodyKeys: [String] = [], fault: String? = nil, apnsId: String? = nil, direction: String? = nil
        ) {
            id = 0
            self.method = method
            self.path = path
            self.query = query
            self.status = status
            self.committedStatus = committedStatus
            self.errorCode = errorCode
            self.deviceId = deviceId
            self.milliseconds = milliseconds
            self.at = at
            self.bodyBytes = bodyBytes
            self.bodyKeys = bodyKeys
            self.fault = fault
            self.apnsId = apnsId
            self.direction = direction
        }
    }

    private struct Ring {
        var entries: [Entry] = []
        /// Where the next entry goes once the ring is full.
        var start = 0
        var nextId = 1
    }

    private let ring = EmulatorLock(Ring())

    /// An empty log.
    package init() {}

    /// The `direction` of an entry for a request the APNs provider sent.
    package static let apnsDirection = "apns"

    /// Query names whose values are never kept (signed URLs, tokens).
    static let secretNames: Set<String> = ["sig", "signature", "token", "secret", "key", "expires", "session"]

    /// Records one request; `entry.id` is assigned here.
    package func record(_ entry: Entry) {
        ring.withLock { ring in
            var entry = entry
            entry.id = ring.nextId
            ring.nextId += 1
            if ring.entries.count < Self.capacity {
                ring.entries.append(entry)
            } else {
                ring.entries[ring.start] = entry
                ring.start = (ring.start + 1) % Self.capacity
            }
        }
    }

    /// Entries newest first that pass `include`, at most `limit`.
    package func newest(limit: Int, where include: (Entry) -> Bool = { _ in true }) -> [Entry] {
        ring.withLock { ring in
            var found: [Entry] = []
            let count = ring.entries.count
            var step = 0
            while step < count, found.count < limit {
                let index = (ring.start + count - 1 - step) % count
                if include(ring.entries[index]) { found.append(ring.entries[index]) }
                step += 1
            }
            return found
        }
    }

    /// Empties the log (`POST /admin/reset`).
    package func clear() { ring.withLock { $0 = Ring(nextId: $0.nextId) } }

    /// The query as the log keeps it.
    package static func redacted(_ query: [String: String]) -> [String: String] {
        var kept: [String: String] = [:]
        for (name, value) in query.prefix(20) {
            let lower = name.lowercased()
            let secret = secretNames.contains(lower) || lower.contains("token") || lower.contains("secret")
            kept[String(name.prefix(64))] = secret ? "…" : String(value.prefix(128))
        }
        return kept
    }

    /// The top-level key names of a JSON object body (at most 20, each cut to 64 characters); `[]` otherwise.
    static func bodyKeys(_ body: [UInt8]) -> [String] {
        guard !body.isEmpty, let object = (try? JSONValue.parse(body))?.objectValue else { return [] }
        return object.keys.sorted().prefix(20).map { String($0.prefix(64)) }
    }

    static func json(_ entry: Entry) -> JSONValue {
        [
            "id": .int(Int64(entry.id)), "method": .string(entry.method), "path": .string(entry.path),
            "query": .object(entry.query.mapValues(JSONValue.string)), "status": .int(Int64(entry.status)),
            "committedStatus": entry.committedStatus.map { .int(Int64($0)) } ?? .null,
            "errorCode": .optional(entry.errorCode), "deviceId": .optional(entry.deviceId),
            "durationMs": .double((entry.milliseconds * 10).rounded() / 10), "at": InternetDate.json(entry.at),
            "body": ["bytes": .int(Int64(entry.bodyBytes)), "keys": .array(entry.bodyKeys.map(JSONValue.string))],
            "fault": .optional(entry.fault), "apnsId": .optional(entry.apnsId), "direction": .optional(entry.direction),
        ]
    }
}
