import ReceptionCore

/// Whether this device may send (spec 7.7, 6.4): the session's halt, a block, a verification requirement, and the
/// epoch that keeps an older answer from overwriting newer knowledge.
///
/// Every local change of the permission bumps `epoch`; device flags from a GET that started under an older epoch
/// are not applied. `verificationRequired: true` from a GET is also ignored while a staged identity token has not
/// been carried by a device update yet (it may lift the requirement).
struct SendingPermission: Sendable {
    /// Spec 6.4: the session is halted (`blocked` or `appUnavailable`), as the transport last reported.
    private(set) var halt: HaltReason?
    /// The device is blocked: a 403 `blocked`, a blocked halt or the GET's device flags said so.
    private(set) var sendingDisabled = false
    /// The app accepts only verified users and this session is not verified.
    private(set) var verificationRequired = false
    /// Bumped on every local permission change (spec 7.7).
    private(set) var epoch = 0
    /// An identity token was staged and no device update has carried it yet.
    private(set) var identityTokenPending = false

    /// Sending is allowed by every permission state.
    @_optimize(size) var permitted: Bool { !sendingDisabled && !verificationRequired && halt == nil }

    /// What the composer shows instead of itself, if anything.
    @inline(never) @_optimize(size) var availability: ComposerAvailability {
        if halt == .appUnavailable { return .appUnavailable }
        if sendingDisabled || halt == .blocked { return .sendingDisabled }
        if verificationRequired { return .signInRequired }
        return .open
    }

    /// The transport's halt state as read during a send's steps (no other state changes).
    @_optimize(size) mutating func observe(halt: HaltReason?) { self.halt = halt }

    /// The transport's halt state read after a failed request: a blocked halt also disables sending.
    @_optimize(size) mutating func observeAfterFailure(halt: HaltReason?) {
        self.halt = halt
        if halt == .blocked { sendingDisabled = true }
    }

    /// Spec 6.4: the session halted (`reason`) or resumed (`nil`).
    @inline(never) @_optimize(size) mutating func haltChanged(_ reason: HaltReason?) {
        halt = reason
        epoch += 1
        if reason == .blocked { sendingDisabled = true }
        if reason == nil { sendingDisabled = false }
    }

    /// Spec 3.8: a send succeeded. A verification requirement is cleared, and a successful probe ends a halt or a
    /// block (spec 6.4).
    @inline(never) @_optimize(size) mutating func sendSucceeded() {
        if verificationRequired {
            verificationRequired = false
            epoch += 1
        }
        if halt != nil || sendingDisabled {
            halt = nil
            sendingDisabled = false
            epoch += 1
        }
    }

    /// A send was refused with 403 `blocked`.
    @_optimize(size) mutating func sendBlocked() {
        sendingDisabled = true
        epoch += 1
    }

    /// A send was refused with 403 `verification_required`.
    @_optimize(size) mutating func sendNeedsVerification() {
        verificationRequired = true
        epoch += 1
    }

    /// Spec 7.14.3: a new identity token was accepted locally; the sign-in notice clears.
    @inline(never) @_optimize(size) mutating func identityTokenStaged() {
        verificationRequired = false
        identityTokenPending = true
        epoch += 1
    }

    /// A device update that started at `startedAt` succeeded: a token staged before it was carried.
    @_optimize(size) mutating func deviceUpdated(startedAt: Int) {
        if startedAt == epoch { identityTokenPending = false }
    }

    /// Spec 7.7: device flags from a GET that started at epoch `startedAt`, applied unless the local knowledge is
    /// newer than the request.
    @inline(never) @_optimize(size) mutating func apply(_ flags: DeviceFlags?, startedAt: Int) {
        guard let flags, startedAt == epoch else { return }
        if let blocked = flags.blocked {
            sendingDisabled = blocked
            if !blocked, halt == .blocked { halt = nil }
        }
        if let required = flags.verificationRequired, !(required && identityTokenPending) {
            verificationRequired = required
        }
    }
}
