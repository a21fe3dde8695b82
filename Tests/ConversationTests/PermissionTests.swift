import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

/// Spec 7.7: sending permission flags, and a GET that started before a local permission change.
@Suite("PermissionTests")
struct PermissionTests {
    @Test("a GET that started before a 403 on a send does not overwrite what the 403 taught", arguments: [
        (ReceptionError.Code.blocked, ComposerAvailability.sendingDisabled),
        (ReceptionError.Code.verificationRequired, .signInRequired),
    ])
    func staleGetAfterForbiddenSend(code: ReceptionError.Code, availability: ComposerAvailability) async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.setDevice(DeviceFlags(blocked: false, verificationRequired: false))
        await h.service.hold("events")
        await h.service.hold("history")
        await h.open()
        #expect(await eventually { await h.service.waitingCount("history") == 1 })
        await h.service.fail("send", with: ReceptionError(code: code, status: 403))
        let id = try #require(await h.send("forbidden"))
        #expect(await eventually { await h.message(id)?.status == .notDelivered })
        #expect(await h.snapshot.composer.availability == availability)
        await h.service.release("history")
        await h.elapse(seconds: 1)
        #expect(await h.service.count("history") == 1)
        #expect(await h.snapshot.composer.availability == availability, "the older GET's flags are not applied")
        #expect(await h.service.count("send") == 1, "no automatic resend while sending is not allowed")
        #expect(await h.message(id)?.retry == .available, "the message stays Not delivered with Retry (the probe)")
        #expect(availability.replacementText != nil)
    }

    @Test("a GET that started before an identity token was staged does not bring the sign-in notice back; a later one does")
    func staleGetAfterTokenStaged() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.setDevice(DeviceFlags(verificationRequired: true))
        await h.service.hold("events")
        await h.open()
        #expect(await eventually { await h.snapshot.composer.availability == .signInRequired })
        await h.engine.setVisible(false)
        await h.service.hold("history")
        await h.open()
        #expect(await eventually { await h.service.waitingCount("history") == 1 })
        await h.engine.identityTokenStaged()
        #expect(await h.snapshot.composer.availability == .open)
        await h.service.release("history")
        #expect(await eventually { await h.service.count("history") == 2 })
        await h.elapse(seconds: 1)
        #expect(await h.snapshot.composer.availability == .open, "the older GET is not applied")
        // A GET that starts after the change applies its flags.
        await h.engine.setVisible(false)
        await h.open()
        #expect(await eventually { await h.snapshot.composer.availability == .signInRequired })
        #expect(await h.service.count("history") == 3)
    }

    @Test("verificationRequired from a GET waits while a staged identity token is unsent, and applies once it was sent")
    func stagedTokenUnsent() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.setDevice(DeviceFlags(verificationRequired: true))
        await h.service.hold("events")
        await h.engine.identityTokenStaged()
        await h.service.fail("updateDevice", with: .connectionFailed())
        await h.open()
        #expect(await eventually { await h.service.count("history") == 1 })
        await h.elapse(seconds: 1)
        #expect(await h.snapshot.composer.availability == .open, "the token that may lift it is not sent yet")
        await h.engine.setVisible(false)
        await h.open()
        #expect(await eventually { await h.snapshot.composer.availability == .signInRequired })
        #expect(await h.service.count("updateDevice") == 2)
    }

    @Test("seed 001 over spec 7.7: a block learnt after the uploads and before the POST leaves the message Not delivered with its text and photos")
    func blockBeforePostStaysNotDelivered() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.hold("events")
        await h.open()
        #expect(await eventually { await h.service.count("history") == 1 })
        await h.service.hold("upload")
        await h.engine.addPhoto(Data([7]))
        await h.engine.setDraft("with a photo")
        let id = try #require(await h.engine.send())
        #expect(await eventually { await h.service.waitingCount("upload") == 1 })
        await h.engine.setDraft("typed since")
        // A GET that starts now learns the block.
        await h.service.setDevice(DeviceFlags(blocked: true))
        await h.engine.setVisible(false)
        await h.open()
        #expect(await eventually { await h.snapshot.composer.availability == .sendingDisabled })
        await h.service.release("upload")
        #expect(await eventually { await h.message(id)?.status == .notDelivered })
        let message = try #require(await h.message(id))
        #expect(message.text == "with a photo")
        #expect(message.localPhotos == [tinyJPEG(tag: 7)], "the photo stays with the message")
        let composer = await h.snapshot.composer
        #expect(composer.text == "typed since", "nothing moved back into the composer")
        #expect(composer.photos.isEmpty)
        #expect(await h.service.count("send") == 0, "the POST was not made")
        let unsent = try h.store.unsentMessages()
        #expect(unsent.map(\.id) == [id] && unsent.first?.images == [tinyJPEG(tag: 7)], "nothing is lost from the store")
        #expect(try h.store.draft() == "typed since")
    }

    @Test("device flags from a GET block and unblock sending; the draft is kept")
    func flagsFromGet() async throws {
        let h = await EngineHarness(conversationExists: true)
        await h.service.setDevice(DeviceFlags(blocked: true))
        await h.service.hold("events")
        await h.engine.setDraft("kept draft")
        await h.open()
        #expect(await eventually { await h.snapshot.composer.availability == .sendingDisabled })
        #expect(await h.snapshot.composer.text == "kept draft")
        #expect(await h.snapshot.composer.canSend == false)
        await h.service.setDevice(DeviceFlags(blocked: false))
        await h.engine.setVisible(false)
        await h.open()
        #expect(await eventually { await h.snapshot.composer.availability == .open })
        #expect(await h.snapshot.composer.canSend)
    }
}
