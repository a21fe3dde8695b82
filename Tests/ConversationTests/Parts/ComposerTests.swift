import Foundation
import ReceptionCore
import Testing
@testable import Conversation

/// `Composer` alone (spec 7.8.1, 6.3.5, seed 001).
@Suite("ComposerTests")
struct ComposerTests {
    private let open = Composer.Gates(
        availability: .open, cooldown: nil, textBlocked: false, uploadsBlocked: false, resendingHeld: false)

    private func photo(_ tag: UInt8) -> PreparedPhoto {
        PreparedPhoto(jpeg: tinyJPEG(tag: tag), width: 4, height: 3, checksum: "c\(tag)")
    }

    @Test("an empty draft cannot send; text can; sending hands over the trimmed text and empties the composer")
    func sendHandsOver() {
        var composer = Composer()
        #expect(!composer.state(open).canSend)
        composer.setText("  hello \n")
        #expect(composer.state(open).canSend)
        let taken = composer.takeForSending()
        #expect(taken.text == "hello")
        #expect(composer.text.isEmpty)
        #expect(!composer.state(open).canSend)
    }

    @Test("seed 001: an over-limit draft is never shortened and cannot be sent")
    func tooLong() {
        var composer = Composer()
        composer.setText(String(repeating: "a", count: Limits.messageText.maximum + 1))
        let state = composer.state(open)
        #expect(!state.canSend)
        #expect(state.notices.first == .textTooLong(length: Limits.messageText.maximum + 1,
                                                    limit: Limits.messageText.maximum))
        #expect(state.text.count == Limits.messageText.maximum + 1)
    }

    @Test("a photo loading disables sending; a failed one shows the notice; at most 5 in all")
    func photoLoads() {
        var composer = Composer()
        composer.setText("hi")
        let failing = composer.photoLoadStarted()
        #expect(composer.state(open).isLoadingPhotos)
        #expect(composer.state(open).loadingPhotoCount == 1)
        #expect(!composer.state(open).canSend)
        composer.photoLoadFinished(failing, nil)
        #expect(composer.state(open).notices == [.photoCouldNotLoad])
        #expect(composer.state(open).canSend)
        for tag in 0..<5 {
            let ticket = composer.photoLoadStarted()
            composer.photoLoadFinished(ticket, photo(UInt8(tag)))
        }
        #expect(!composer.hasRoomForPhoto)
        #expect(!composer.state(open).canAddPhotos)
        let removed = composer.removePhoto(id: composer.picked[0].id)
        let outOfRange = composer.removePhoto(id: 9)
        #expect(removed)
        #expect(!outOfRange)
        #expect(composer.state(open).canAddPhotos)
    }

    @Test("seed 001: picked photos keep the order they were picked in, whichever loads first")
    func pickOrder() {
        var composer = Composer()
        let first = composer.photoLoadStarted()
        let second = composer.photoLoadStarted()
        let third = composer.photoLoadStarted()
        composer.photoLoadFinished(third, photo(3))
        composer.photoLoadFinished(first, photo(1))
        #expect(composer.photos == [photo(1), photo(3)])
        composer.photoLoadFinished(second, photo(2))
        #expect(composer.photos == [photo(1), photo(2), photo(3)])
        let removed = composer.removePhoto(id: second)
        #expect(removed)
        let fourth = composer.photoLoadStarted()
        composer.photoLoadFinished(fourth, photo(4))
        #expect(composer.photos == [photo(1), photo(3), photo(4)])
        let fifth = composer.photoLoadStarted()
        composer.photoLoadFinished(fifth, photo(5))
        #expect(composer.photos == [photo(1), photo(3), photo(4), photo(5)])
    }

    @Test("issue 50: a picked photo is removed by its identity, once: a double tap on ✕ removes one photo")
    func removalByIdentity() {
        var composer = Composer()
        let tickets = (0..<3).map { _ in composer.photoLoadStarted() }
        for (tag, ticket) in tickets.enumerated() { composer.photoLoadFinished(ticket, photo(UInt8(tag))) }
        let middle = composer.state(open).pickedPhotos[1].id
        let first = composer.removePhoto(id: middle)
        let second = composer.removePhoto(id: middle)
        #expect(first)
        #expect(!second, "the second tap finds the photo gone")
        #expect(composer.photos == [photo(0), photo(2)])
    }

    @Test("issue 50: removing a photo while an earlier pick finishes loading removes the photo that was meant")
    func removalWhileAnotherLoads() {
        var composer = Composer()
        let slow = composer.photoLoadStarted()
        let quick = composer.photoLoadStarted()
        let last = composer.photoLoadStarted()
        composer.photoLoadFinished(quick, photo(1))
        composer.photoLoadFinished(last, photo(2))
        // The person aims at photo 1, shown first; the slow pick lands ahead of it before the tap arrives.
        let meant = composer.state(open).pickedPhotos[0]
        #expect(meant.photo == photo(1))
        composer.photoLoadFinished(slow, photo(0))
        _ = composer.removePhoto(id: meant.id)
        #expect(composer.photos == [photo(0), photo(2)])
    }

    @Test("outside gates: a closed composer, a text wait, an uploads wait with photos, held resends")
    func gates() {
        var composer = Composer()
        composer.setText("hi")
        var gates = open
        gates.availability = .sendingDisabled
        gates.cooldown = CooldownNotice(scope: .messages, secondsLeft: 5)
        #expect(!composer.state(gates).canSend)
        #expect(composer.state(gates).notices.isEmpty, "no wait notice while the composer is replaced")
        gates = open
        gates.textBlocked = true
        #expect(!composer.state(gates).canSend)
        gates = open
        gates.uploadsBlocked = true
        #expect(composer.state(gates).canSend, "text still works during an uploads wait")
        let ticket = composer.photoLoadStarted()
        composer.photoLoadFinished(ticket, photo(1))
        #expect(!composer.state(gates).canSend)
        gates = open
        gates.resendingHeld = true
        #expect(composer.state(gates).notices == [.resendingHeldMessages])
        #expect(!composer.state(gates).canSend)
    }

    @Test("a storage failure is a notice, not a block; a chat reset clears the draft")
    func storageAndReset() {
        var composer = Composer()
        composer.setText("hi")
        composer.storageFailed()
        #expect(composer.state(open).notices == [.storageProblem])
        #expect(composer.state(open).canSend)
        composer.chatReset()
        #expect(composer.text.isEmpty)
    }
}
