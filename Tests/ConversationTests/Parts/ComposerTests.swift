import Foundation
import ReceptionCore
import Testing
@testable import Conversation

/// `Composer` alone (spec 7.8.1, 7.7, 6.3.5, seed 001).
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
        let removed = composer.removePhoto(at: 0)
        let outOfRange = composer.removePhoto(at: 9)
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
        let removed = composer.removePhoto(at: 1)
        #expect(removed)
        let fourth = composer.photoLoadStarted()
        composer.photoLoadFinished(fourth, photo(4))
        #expect(composer.photos == [photo(1), photo(3), photo(4)])
        composer.takeBack(text: "", photos: [photo(0)])
        let fifth = composer.photoLoadStarted()
        composer.photoLoadFinished(fifth, photo(5))
        #expect(composer.photos == [photo(0), photo(1), photo(3), photo(4), photo(5)])
    }

    @Test("spec 7.7: a stopped message comes back ahead of what was typed since, photos capped at 5")
    func takeBack() {
        var composer = Composer()
        composer.setText("later")
        let ticket = composer.photoLoadStarted()
        composer.photoLoadFinished(ticket, photo(9))
        composer.takeBack(text: "first", photos: (0..<5).map { photo(UInt8($0)) })
        #expect(composer.text == "first\nlater")
        #expect(composer.photos.count == 5)
        #expect(composer.photos.first == photo(0))
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
