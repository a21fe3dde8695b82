import ReceptionCore
import Testing
@testable import Conversation

/// `SendingPermission` alone (spec 7.7, 6.4): halt, block, verification and the permission epoch.
@Suite("SendingPermissionTests")
struct SendingPermissionTests {
    @Test("a fresh session may send and the composer is open")
    func openByDefault() {
        let permission = SendingPermission()
        #expect(permission.permitted)
        #expect(permission.availability == .open)
    }

    @Test("a blocked halt disables sending; resuming enables it again, and each change bumps the epoch")
    func haltAndResume() {
        var permission = SendingPermission()
        permission.haltChanged(.blocked)
        #expect(!permission.permitted)
        #expect(permission.availability == .sendingDisabled)
        #expect(permission.epoch == 1)
        permission.haltChanged(nil)
        #expect(permission.permitted)
        #expect(permission.epoch == 2)
        permission.haltChanged(.appUnavailable)
        #expect(permission.availability == .appUnavailable)
    }

    @Test("spec 7.7: device flags from a GET that started under an older epoch are not applied")
    func staleFlagsIgnored() {
        var permission = SendingPermission()
        let startedAt = permission.epoch
        permission.sendBlocked()
        permission.apply(DeviceFlags(blocked: false), startedAt: startedAt)
        #expect(permission.sendingDisabled, "the newer 403 blocked wins over the older GET")
        permission.apply(DeviceFlags(blocked: false), startedAt: permission.epoch)
        #expect(!permission.sendingDisabled)
    }

    @Test("spec 7.7: verificationRequired true waits while a staged identity token is unsent")
    func stagedTokenHoldsVerification() {
        var permission = SendingPermission()
        permission.sendNeedsVerification()
        #expect(permission.availability == .signInRequired)
        permission.identityTokenStaged()
        #expect(permission.availability == .open)
        permission.apply(DeviceFlags(verificationRequired: true), startedAt: permission.epoch)
        #expect(!permission.verificationRequired, "the staged token may lift the requirement")
        let updateStarted = permission.epoch
        permission.deviceUpdated(startedAt: updateStarted)
        #expect(!permission.identityTokenPending)
        permission.apply(DeviceFlags(verificationRequired: true), startedAt: permission.epoch)
        #expect(permission.verificationRequired)
    }

    @Test("a device update that started before a newer token does not count as carrying it")
    func olderUpdateKeepsTokenPending() {
        var permission = SendingPermission()
        let updateStarted = permission.epoch
        permission.identityTokenStaged()
        permission.deviceUpdated(startedAt: updateStarted)
        #expect(permission.identityTokenPending)
    }

    @Test("spec 6.4: a successful send ends a halt, a block and a verification requirement")
    func successEndsEverything() {
        var permission = SendingPermission()
        permission.sendNeedsVerification()
        permission.observeAfterFailure(halt: .blocked)
        #expect(permission.sendingDisabled)
        let before = permission.epoch
        permission.sendSucceeded()
        #expect(permission.permitted)
        #expect(permission.epoch == before + 2)
    }

    @Test("a halt read during a send's steps changes nothing else; after a failure a blocked halt also blocks")
    func observedHalts() {
        var permission = SendingPermission()
        permission.observe(halt: .blocked)
        #expect(!permission.sendingDisabled)
        #expect(permission.epoch == 0)
        permission.observeAfterFailure(halt: .blocked)
        #expect(permission.sendingDisabled)
    }

    @Test("device flags unblocking the device also end a blocked halt")
    func unblockEndsBlockedHalt() {
        var permission = SendingPermission()
        permission.observeAfterFailure(halt: .blocked)
        permission.apply(DeviceFlags(blocked: false), startedAt: permission.epoch)
        #expect(permission.halt == nil)
        #expect(permission.permitted)
    }
}
