extension ReceptionError {
    /// The stable codes a `ReceptionError` can carry. Client codes never come from the service (spec 5.4); service
    /// codes are those the client reacts to (spec 5.3). A service may send codes not listed here.
    public enum Code {
        // MARK: Client codes (spec 5.4)

        /// Transport failure, no HTTP response; transient.
        public static let connectionFailed = "connection_failed"
        /// The task was cancelled or the session was replaced.
        public static let cancelled = "cancelled"
        /// Undecodable success body, failed validation, non-HTTP response, paging without progress.
        public static let invalidResponse = "invalid_response"
        /// Internal: an unparseable date; surfaces as `invalid_response`.
        public static let invalidDate = "invalid_date"
        /// Non-success status without a decodable error envelope.
        public static let httpError = "http_error"
        /// Skipped because the session is halted and no probe is available.
        public static let sessionHalted = "session_halted"
        /// No send ever happened for this session, or registration is not allowed yet.
        public static let chatNotStarted = "chat_not_started"
        /// A known cooldown held the request before the network.
        public static let cooldown = "cooldown"
        /// The secure store could not be read or written.
        public static let secureStorageUnavailable = "secure_storage_unavailable"
        /// Zero or non-finite size, incomplete cached photo set, or encoding failed.
        public static let invalidImage = "invalid_image"
        /// No encoding under the byte budget after every shrink round.
        public static let imageTooLarge = "image_too_large"
        /// The storage PUT failed.
        public static let uploadFailed = "upload_failed"
        /// The reservation returned a non-http(s) upload URL.
        public static let invalidUploadURL = "invalid_upload_url"
        /// The base URL scheme is not http or https, or the App ID is malformed.
        public static let invalidConfiguration = "invalid_configuration"
        /// A URL could not be built.
        public static let invalidURL = "invalid_url"
        /// A request body could not be encoded.
        public static let invalidInput = "invalid_input"
        /// The device payload could not be encoded.
        public static let invalidDeviceInfo = "invalid_device_info"
        /// The appearance body exceeded 65,536 bytes.
        public static let appearanceTooLarge = "appearance_too_large"
        /// Appearance answered non-200 without an envelope code.
        public static let appearanceUnavailable = "appearance_unavailable"
        /// Appearance body undecodable or of the wrong schema or revision.
        public static let invalidAppearance = "invalid_appearance"
        /// Local storage (the message cache) could not be read or written.
        public static let storageUnavailable = "storage_unavailable"
        /// Setup-check failure reasons (spec 7.23), log only.
        public static let appIDMismatch = "app_id_mismatch"
        public static let appNotActive = "app_not_active"
        public static let sendNotAllowed = "send_not_allowed"
        public static let notDelivered = "not_delivered"
        public static let timeout = "timeout"

        // MARK: Service codes (spec 5.3)

        public static let invalidAppID = "invalid_app_id"
        public static let appDisabled = "app_disabled"
        public static let blocked = "blocked"
        public static let unauthorized = "unauthorized"
        public static let sessionRevoked = "session_revoked"
        public static let chatReset = "chat_reset"
        public static let verificationRequired = "verification_required"
        public static let invalidAttachment = "invalid_attachment"
        public static let uploadIncomplete = "upload_incomplete"
        public static let noConversation = "no_conversation"
        public static let identityTokenInvalid = "identity_token_invalid"
        public static let identityTokenExpired = "identity_token_expired"
        public static let identityNotConfigured = "identity_not_configured"
        public static let identityMismatch = "identity_mismatch"
        public static let actionNotFound = "action_not_found"
        public static let rateLimited = "rate_limited"
        /// Seed 000 ("Handle ReceptionError"): device deletion could not complete (503).
        public static let deleteFailed = "delete_failed"
    }
}
