import ReceptionCore

/// What the API client needs from, and tells, the rest of the SDK. The facade wires these to the identity stager,
/// the session store and the chat engine; tests wire them to recorders.
public struct SessionHooks: Sendable {
    /// Spec 1.2: the stored chat revision, sent as `X-Reception-Revision`.
    public var chatRevision: @Sendable () -> Int
    /// Spec 7.3: whether the person ever sent a message in this session; without it no bearer request is made.
    public var hasStartedChat: @Sendable () -> Bool
    /// Spec 4.1: the complete current device payload, including a staged identity token when one should travel.
    public var devicePayload: @Sendable () async throws(ReceptionError) -> DevicePayload
    /// A registration or device update carrying `payload` succeeded; `verifiedUserId` is what the service now has.
    public var deviceSynchronised: @Sendable (_ payload: DevicePayload, _ verifiedUserId: String?) async -> Void
    /// The service rejected `token` with an identity code (spec 5.3, 7.14.3 step 9).
    public var identityRejected: @Sendable (_ error: ReceptionError, _ token: String) async -> Void
    /// Spec 7.12: a bearer request was answered with 409 `chat_reset`.
    public var chatReset: @Sendable (_ revision: Int) async -> Void
    /// Spec 7.5: the refresh was answered with 401 `session_revoked`; credentials are already forgotten.
    public var sessionRevoked: @Sendable () async -> Void
    /// Spec 6.4: the session halted (a reason) or resumed (`nil`).
    public var haltChanged: @Sendable (_ reason: HaltReason?) async -> Void

    /// Hooks with inert defaults; set the ones you need.
    @_optimize(size) public init(
        chatRevision: @escaping @Sendable () -> Int = { 0 },
        hasStartedChat: @escaping @Sendable () -> Bool = { true },
        devicePayload: @escaping @Sendable () async throws(ReceptionError) -> DevicePayload,
        deviceSynchronised: @escaping @Sendable (DevicePayload, String?) async -> Void = { _, _ in },
        identityRejected: @escaping @Sendable (ReceptionError, String) async -> Void = { _, _ in },
        chatReset: @escaping @Sendable (Int) async -> Void = { _ in },
        sessionRevoked: @escaping @Sendable () async -> Void = {},
        haltChanged: @escaping @Sendable (HaltReason?) async -> Void = { _ in }
    ) {
        self.chatRevision = chatRevision
        self.hasStartedChat = hasStartedChat
        self.devicePayload = devicePayload
        self.deviceSynchronised = deviceSynchronised
        self.identityRejected = identityRejected
        self.chatReset = chatReset
        self.sessionRevoked = sessionRevoked
        self.haltChanged = haltChanged
    }
}

extension ReceptionError {
    /// Spec 5.3: the codes that reject a staged identity token.
    @_optimize(size) var isIdentityTokenRejection: Bool {
        [Code.identityTokenInvalid, Code.identityTokenExpired, Code.identityNotConfigured, Code.identityMismatch]
            .contains(Code(code))
    }
}
