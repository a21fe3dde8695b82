import Foundation
import ReceptionCore

extension ChatEngine {
    /// The person edited the draft: it is stored at once (spec 7.17) and drives the typing reports (spec 7.13).
    /// Nothing here touches the network for an unused chat (seed 001 check 1).
    @inline(never) @_optimize(size) public func setDraft(_ text: String) {
        guard !isShutDown else { return }
        composer.setText(text)
        storing("save draft") { try $0.setDraft(text) }
        composerChangedForTyping()
        publish(transcriptChanged: false)
    }

    /// The person picked a photo: it is prepared for upload right away (loading disables sending meanwhile). An
    /// unreadable photo shows "Could not load this photo." and is skipped; more than 5 are refused.
    @_optimize(size) public func addPhoto(_ file: Data) async {
        await addPhoto(loading: Self.loaded(file))
    }

    /// `file` as an already loaded photo. Made here, out of line, rather than as a closure literal at the call: the
    /// compiler would otherwise copy all of `addPhoto(loading:)` for that one closure (Docs/Footprint.md).
    @inline(never) @_optimize(size) static func loaded(_ file: Data) -> @Sendable () async -> Data? { { file } }

    /// The person picked a photo whose bytes still have to be read (the system picker hands out items that load
    /// later): the composer counts it as loading from now, so Send waits, and the picker's room shrinks at once.
    /// `load` returning `nil` (an unreadable selection) shows "Could not load this photo."; more than 5 photos,
    /// counting those loading, are refused without calling `load`.
    @inline(never) @_optimize(size) public func addPhoto(loading load: @escaping @Sendable () async -> Data?) async {
        guard !isShutDown else { return }
        guard composer.hasRoomForPhoto else { return }
        let ticket = composer.photoLoadStarted()
        publish()
        guard let file = await load(), !isShutDown else {
            composer.photoLoadFinished(ticket, nil)
            publish()
            return
        }
        let images = deps.images
        // Preparation is CPU work; it runs off the engine so the chat stays responsive.
        let result = await Task.detached { () -> Result<PreparedPhoto, ReceptionError> in
            do throws(ReceptionError) { return .success(try images.prepare(file)) } catch { return .failure(error) }
        }.value
        switch result {
        case .success(let photo): composer.photoLoadFinished(ticket, photo)
        case .failure(let error):
            logger.write(.info, "photo could not be prepared (\(error.code))")
            composer.photoLoadFinished(ticket, nil)
        }
        publish()
    }

    /// Removes the picked photo with identity `id` (`ComposerState.PickedPhoto.id`) before sending; nothing when
    /// it is gone already (a double tap on its ✕).
    @_optimize(size) public func removePhoto(id: Int) {
        guard composer.removePhoto(id: id) else { return }
        publish()
    }

    /// Removes the picked photo at `index` of the picked photos as they are now.
    @available(*, deprecated, message: "Use removePhoto(id:): a position moves when another photo is removed or loads")
    @_optimize(size) public func removePhoto(at index: Int) {
        guard composer.picked.indices.contains(index) else { return }
        removePhoto(id: composer.picked[index].id)
    }

    /// Sends the composer's text and photos (spec 7.8.1). Returns the new message's local ID, or `nil` when the
    /// composer cannot send now (the snapshot's composer says why); an over-limit draft is never shortened.
    @discardableResult
    @inline(never) @_optimize(size) public func send() -> String? {
        guard started, !isShutDown, composerState.canSend else { return nil }
        let (text, photos) = composer.takeForSending()
        let id = deps.ids.makeID()
        let message = StoredMessage(
            id: id, sender: .user, text: text, createdAt: clock.now, images: photos.map(\.jpeg),
            expectedImageCount: photos.count)
        // The outbox row exists before any network work, so a crash right after this line still recovers it.
        storing("enqueue message") { try $0.enqueue(message) }
        transcript.append(message)
        if !session.hasStartedChat { persistSession { $0.hasStartedChat = true } }
        storing("clear draft") { try $0.setDraft("") }
        stopTypingAfterSend()
        outbox.enqueue(id)
        submit(id, userInitiated: true)
        publish()
        return id
    }
}
