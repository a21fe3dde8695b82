/// One HTTP request as the router sees it: everything copied out of libmicrohttpd before routing, so nothing refers
/// to C memory once the access handler returns.
package struct HTTPRequest: Sendable {
    /// `GET`, `POST`, …
    package var method: String
    /// The path without the query, as libmicrohttpd decoded it (`/v1/conversation`).
    package var path: String
    /// Query arguments by name (`after`, `limits`, `sig`).
    package var query: [String: String]
    /// Header values by lower-cased name.
    package var headers: [String: String]
    /// The collected body (empty when it was over the limit).
    package var body: [UInt8]
    /// The body exceeded the route's limit and was discarded while it was read.
    package var bodyTooLarge: Bool

    /// Creates a request; the server fills it, tests of the router may build one directly.
    package init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
        body: [UInt8] = [], bodyTooLarge: Bool = false
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.bodyTooLarge = bodyTooLarge
    }

    /// The value of header `name`, compared case-insensitively (HTTP header names are).
    package func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The path split at `/` without empty parts: `/v1/attachments/x` → `["v1", "attachments", "x"]`.
    package var segments: [Substring] { path.split(separator: "/") }
}

/// One answer: a status, headers and either bytes, a live event stream, a dropped connection or a delayed answer
/// (fault injection).
package struct HTTPResponse: Sendable {
    /// What follows the status line and headers.
    package enum Body: Sendable {
        /// A complete body.
        case bytes([UInt8])
        /// A server-sent event stream that stays open until it ends or the client leaves (spec 3.12).
        case stream(EventStream)
        /// No response at all: the connection is closed (the "drop after committing" fault).
        case drop
        /// The answer `then` produces after `seconds` (the "delay" fault): the connection waits parked, holding no
        /// thread, and `then` runs on a timer thread.
        case later(seconds: Double, then: @Sendable () -> HTTPResponse)
    }

    /// The HTTP status code.
    package var status: Int
    /// Response headers in order.
    package var headers: [(String, String)]
    /// The body.
    package var body: Body

    /// Creates a response.
    package init(status: Int, headers: [(String, String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response (spec 1.6: every body is a UTF-8 JSON object).
    package static func json(_ status: Int, _ value: JSONValue, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "application/json")] + headers,
            body: .bytes(Array(value.serialized().utf8)))
    }

    /// The value of response header `name`, compared case-insensitively.
    package func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}
