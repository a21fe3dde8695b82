extension ReceptionError {
    /// A stable code a `ReceptionError` can carry. Client codes never come from the service (spec 5.4); service
    /// codes are those the client reacts to (spec 5.3). A service may send codes not listed here, so this is a
    /// `RawRepresentable` string, not an enum: an unknown code is just another value, and a host's `switch` keeps a
    /// `default` branch (seed 000, "Handle ReceptionError").
    ///
    /// Equality is by the raw string, exactly (case-sensitive, no normalisation). A code compares equal to a
    /// `String` holding the same characters, in either order, and matches it in a `switch` over
    /// `ReceptionError.code`, which stays a `String` for hosts.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code as it appears on the wire and in `ReceptionError.code`.
        public let rawValue: String

        /// The code `rawValue`, known here or not.
        @_optimize(size) public init(rawValue: String) { self.rawValue = rawValue }

        /// The code `rawValue`, known here or not.
        @_optimize(size) public init(_ rawValue: String) { self.rawValue = rawValue }

        /// The raw string.
        @_optimize(size) public var description: String { rawValue }

        /// Whether `code` holds exactly the raw string of `known` (`nil` never does).
        @_optimize(size) public static func == (code: String?, known: Code) -> Bool { code == known.rawValue }

        /// Whether `known`'s raw string is exactly `code` (`nil` never is).
        @_optimize(size) public static func == (known: Code, code: String?) -> Bool { code == known.rawValue }

        /// Whether `code` differs from the raw string of `known`.
        @_optimize(size) public static func != (code: String?, known: Code) -> Bool { code != known.rawValue }

        /// Whether `known`'s raw string differs from `code`.
        @_optimize(size) public static func != (known: Code, code: String?) -> Bool { code != known.rawValue }

        /// Lets `case ReceptionError.Code.blocked:` match a `String` code in a `switch`.
        @_optimize(size) public static func ~= (known: Code, code: String) -> Bool { code == known.rawValue }

        // MARK: Client codes (spec 5.4)

        /// Transport failure, no HTTP response; transient.
        public static let connectionFailed = Code("connection_failed")
        /// The task was cancelled or the session was replaced.
        public static let cancelled = Code("cancelled")
        /// Undecodable success body, failed validation, non-HTTP response, paging without progress.
        public static let invalidResponse = Code("invalid_response")
        /// Internal: an unparseable date; surfaces as `invalid_response`.
        public static let invalidDate = Code("invalid_date")
        /// Non-success status without a decodable error envelope.
        public static let httpError = Code("http_error")
        /// Skipped because the session is halted and no probe is available.
        public static let sessionHalted = Code("session_halted")
        /// No send ever happened for this session, or registration is not allowed yet.
        public static let chatNotStarted = Code("chat_not_started")
        /// A known cooldown held the request before the network.
        public static let cooldown = Code("cooldown")
        /// The secure store could not be read or written.
        public static let secureStorageUnavailable = Code("secure_storage_unavailable")
        /// Zero or non-finite size, incomplete cached photo set, or encoding failed.
        public static let invalidImage = Code("invalid_image")
        /// No encoding under the byte budget after every shrink round.
        public static let imageTooLarge = Code("image_too_large")
        /// The storage PUT failed.
        public static let uploadFailed = Code("upload_failed")
        /// The reservation returned a non-http(s) upload URL.
        public static let invalidUploadURL = Code("invalid_upload_url")
        /// The base URL scheme is not http or https, or the App ID is malformed.
        public static let invalidConfiguration = Code("invalid_configuration")
        /// A URL could not be built.
        public static let invalidURL = Code("invalid_url")
        /// A request body could not be encoded.
        public static let invalidInput = Code("invalid_input")
        /// The device payload could not be encoded.
        public static let invalidDeviceInfo = Code("invalid_device_info")
        /// The appearance body exceeded 65,536 bytes.
        public static let appearanceTooLarge = Code("appearance_too_large")
        /// Appearance answered non-200 without an envelope code.
        public static let appearanceUnavailable = Code("appearance_unavailable")
        /// Appearance body undecodable or of the wrong schema or revision.
        public static let invalidAppearance = Code("invalid_appearance")
        /// Local storage (the message cache) could not be read or written.
        public static let storageUnavailable = Code("storage_unavailable")
        /// Setup-check failure reasons (spec 7.23), log only.
        public static let appIDMismatch = Code("app_id_mismatch")
        /// The setup check: the app is not active on the service.
        public static let appNotActive = Code("app_not_active")
        /// The setup check: the service would not accept a message from this device.
        public static let sendNotAllowed = Code("send_not_allowed")
        /// The setup check: the test message was not confirmed.
        public static let notDelivered = Code("not_delivered")
        /// The setup check did not finish within its time budget.
        public static let timeout = Code("timeout")

        // MARK: Service codes (spec 5.3)

        /// 401: the App ID is unknown to the service; the session halts (app unavailable).
        public static let invalidAppID = Code("invalid_app_id")
        /// 403: the app is disabled in the dashboard; the session halts (app unavailable).
        public static let appDisabled = Code("app_disabled")
        /// 403: the team blocked this device; reading goes on, sending stops until unblocked.
        public static let blocked = Code("blocked")
        /// 401: the access token is missing, expired or unknown; renewed once, then the request is retried.
        public static let unauthorized = Code("unauthorized")
        /// 401 on a token refresh: the session secret is no longer valid; the session ends locally.
        public static let sessionRevoked = Code("session_revoked")
        /// 409: the team reset support for this device; the chat is cleared and starts again.
        public static let chatReset = Code("chat_reset")
        /// 403: the app accepts only verified users and this device has no accepted identity token.
        public static let verificationRequired = Code("verification_required")
        /// 400: an attachment ID is unknown, used already or belongs to another device.
        public static let invalidAttachment = Code("invalid_attachment")
        /// 409: an attachment was sent before its upload finished.
        public static let uploadIncomplete = Code("upload_incomplete")
        /// 404: this device has no conversation yet.
        public static let noConversation = Code("no_conversation")
        /// 400: the identity token is malformed, badly signed or out of range; it is dropped.
        public static let identityTokenInvalid = Code("identity_token_invalid")
        /// 400: the identity token has expired; mint a fresh one.
        public static let identityTokenExpired = Code("identity_token_expired")
        /// 400: an identity token was sent but the app has no identity secret yet.
        public static let identityNotConfigured = Code("identity_not_configured")
        /// 409: the token is for another user than this device's verified one; the facade switches users.
        public static let identityMismatch = Code("identity_mismatch")
        /// 404: a card action the device reported does not exist.
        public static let actionNotFound = Code("action_not_found")
        /// 429: a rate limit was reached; the answer carries the wait and its scope.
        public static let rateLimited = Code("rate_limited")
        /// Seed 000 ("Handle ReceptionError"): device deletion could not complete (503).
        public static let deleteFailed = Code("delete_failed")
    }
}
