import ReceptionCore

/// The composer's own state (spec 7.8.1, 7.17, seed 001): the draft text, the photos picked for the next message,
/// the photos still being prepared, and the notices it raised itself. What blocks sending from outside (permission,
/// waits, held resends) comes in as `Gates` when the state is read.
struct Composer: Sendable {
    /// What outside the composer decides whether it may send now.
    struct Gates: Sendable {
        /// The permission states' verdict.
        var availability: ComposerAvailability
        /// Spec 6.3.5: the wait notice the composer would show.
        var cooldown: CooldownNotice?
        /// A `messages` / `requests` / `session` wait is active.
        var textBlocked: Bool
        /// An `uploads` wait is active.
        var uploadsBlocked: Bool
        /// Spec 6.3.5: held messages are going out again.
        var resendingHeld: Bool
    }

    /// The draft (restored across launches).
    private(set) var text = ""
    /// One photo picked and prepared for the next message.
    struct Picked: Sendable {
        /// Its place in the pick order (a photo that loads faster than one picked before it still goes after it).
        var order: Int
        /// Its identity from the pick to the send (`ComposerState.PickedPhoto.id`): never reused, so a second
        /// remove of the same photo (a double tap on ✕) finds nothing, and a removal while another photo finishes
        /// loading still removes the photo that was meant.
        var id: Int
        var photo: PreparedPhoto
    }

    /// Photos picked and prepared for the next message, in the order they were picked.
    private(set) var picked: [Picked] = []
    /// The photos of `picked`, in order.
    @_optimize(size) var photos: [PreparedPhoto] { picked.map(\.photo) }
    /// The next pick's place in the order, and its identity.
    private var nextTicket = 0
    /// Photos still being prepared.
    private(set) var photoLoads = 0
    /// The last picked photo could not be prepared.
    private(set) var photoLoadFailed = false
    /// A store write failed because the device is full or the store is unavailable (spec 7.17: sending still works).
    private(set) var storageProblem = false

    /// Another photo may start loading (at most 5 per message, counting those still loading).
    @_optimize(size) var hasRoomForPhoto: Bool { picked.count + photoLoads < Limits.photosPerMessage }

    /// The person edited the draft (or it was restored).
    @_optimize(size) mutating func setText(_ value: String) { text = value }

    /// A picked photo starts loading; the previous failure notice clears. Returns its place in the pick order,
    /// which `photoLoadFinished` takes back.
    @inline(never) @_optimize(size) mutating func photoLoadStarted() -> Int {
        photoLoadFailed = false
        photoLoads += 1
        defer { nextTicket += 1 }
        return nextTicket
    }

    /// The photo picked as `ticket` finished loading: prepared (`photo`, placed by its pick order) or not (`nil`:
    /// "Could not load this photo.").
    @inline(never) @_optimize(size) mutating func photoLoadFinished(_ ticket: Int, _ photo: PreparedPhoto?) {
        photoLoads -= 1
        guard let photo else {
            photoLoadFailed = true
            return
        }
        let position = picked.firstIndex { $0.order > ticket } ?? picked.count
        picked.insert(Picked(order: ticket, id: ticket, photo: photo), at: position)
    }

    /// Removes the picked photo with identity `id`; returns whether one was there (a second remove of the same
    /// photo finds nothing and changes nothing).
    @inline(never) @_optimize(size) mutating func removePhoto(id: Int) -> Bool {
        guard let index = picked.firstIndex(where: { $0.id == id }) else { return false }
        picked.remove(at: index)
        return true
    }

    /// Sending: the composer empties and hands over its trimmed text and photos.
    @inline(never) @_optimize(size) mutating func takeForSending() -> (text: String, photos: [PreparedPhoto]) {
        let taken = (Limits.trimmedMessageText(text), photos)
        text = ""
        picked = []
        photoLoadFailed = false
        return taken
    }

    /// Spec 7.12: a chat reset clears the draft (picked photos stay).
    @_optimize(size) mutating func chatReset() { text = "" }

    /// A store write failed in a way the person should know about.
    @_optimize(size) mutating func storageFailed() { storageProblem = true }

    /// What the composer shows and allows, given the outside `gates`.
    @inline(never) @_optimize(size) func state(_ gates: Gates) -> ComposerState {
        let trimmed = Limits.trimmedMessageText(text)
        let length = trimmed.utf16Length
        var notices: [ComposerNotice] = []
        if length > Limits.messageText.maximum {
            notices.append(.textTooLong(length: length, limit: Limits.messageText.maximum))
        }
        if gates.availability == .open, let notice = gates.cooldown { notices.append(.cooldown(notice)) }
        if gates.resendingHeld { notices.append(.resendingHeldMessages) }
        if photoLoadFailed { notices.append(.photoCouldNotLoad) }
        if storageProblem { notices.append(.storageProblem) }
        let hasContent = !trimmed.isEmpty || !photos.isEmpty
        let canSend = gates.availability == .open && hasContent && length <= Limits.messageText.maximum
            && photos.count <= Limits.photosPerMessage && photoLoads == 0 && !gates.textBlocked
            && !(gates.uploadsBlocked && !photos.isEmpty) && !gates.resendingHeld
        return ComposerState(
            availability: gates.availability, text: text,
            pickedPhotos: picked.map { ComposerState.PickedPhoto(id: $0.id, photo: $0.photo) },
            loadingPhotoCount: photoLoads,
            canSend: canSend,
            canAddPhotos: gates.availability == .open && !gates.uploadsBlocked && hasRoomForPhoto,
            notices: notices)
    }
}
