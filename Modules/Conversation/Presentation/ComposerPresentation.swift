import Foundation
import ReceptionCore

/// What the composer shows (seed 001 "Text messages", "Photos", "Restrictions and reset behavior"): the field with
/// its placeholder, the send arrow, the picked photos with their remove controls, the notices above it, or the
/// notice that replaces the whole composer.
public struct ComposerPresentation: Sendable, Hashable {
    /// A photo picked for the next message.
    public struct PickedPhoto: Sendable, Hashable, Identifiable {
        /// Its identity from the pick to the send (what `ChatModel.removePhoto(id:)` takes): a removal names the
        /// photo the person meant, and happens once.
        public var id: Int
        /// The prepared JPEG, for its thumbnail.
        public var jpeg: Data
        /// Width over height, square when unknown.
        public var aspectRatio: Double
        /// The remove control's label ("Remove photo").
        public var removeLabel: String

        /// Hashes the ID only; `==` compares every field, so equal values hash alike.
        @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(id) }

        /// Written rather than synthesized, and compiled for size: the synthesized `==` takes in `Data`'s comparison,
        /// up to 0.7 kB on iOS (Docs/Footprint.md). It compares every field (`WrittenEqualityTests`).
        @inline(never) @_optimize(size) public static func == (lhs: PickedPhoto, rhs: PickedPhoto) -> Bool {
            lhs.id == rhs.id && lhs.aspectRatio == rhs.aspectRatio && lhs.removeLabel == rhs.removeLabel
                && lhs.jpeg == rhs.jpeg
        }
    }

    /// The notice shown instead of the composer: a blocked device, "Sign in to send messages.", an unavailable
    /// app. `nil` while the composer shows.
    public var replacement: String?
    /// Whether the composer shows (no replacement).
    @_optimize(size) public var isShown: Bool { replacement == nil }
    /// The draft.
    public var text: String
    /// The empty field's placeholder ("Message").
    public var placeholder: String
    /// Notices above the field, most important first: the length explanation, a wait, "Could not load this
    /// photo.", …
    public var notices: [String]
    /// Seed 001: the trimmed draft is over 4,000 UTF-16 units; it is explained and cannot be sent.
    public var isOverLimit: Bool
    /// Whether the send arrow is enabled.
    public var canSend: Bool
    /// The send arrow's label ("Send").
    public var sendLabel: String
    /// The photos picked for the next message.
    public var photos: [PickedPhoto]
    /// Picked photos still loading (each shows a placeholder; sending waits for them).
    public var loadingPhotoCount: Int
    /// Whether the photo button is enabled.
    public var canAddPhotos: Bool
    /// How many more photos the picker may select: five per message, less those picked or loading.
    public var photoSelectionLimit: Int
    /// The photo button's label ("Add photo").
    public var addPhotoLabel: String

    /// The largest a composer icon grows with Dynamic Type, in points (issue 50): at the accessibility sizes the
    /// photo button and the send arrow stop at a 44-point target, so on a 320-point-wide iPhone SE the text field
    /// keeps more than two thirds of the row.
    public static let maximumIconSize = 44.0

    /// The size of a composer icon whose Dynamic Type-scaled size is `scaled` points: `scaled`, at most
    /// `maximumIconSize` (and at least 1, whatever a broken metric gives).
    @inline(never) @_optimize(size) public static func iconSize(scaled: Double) -> Double {
        guard scaled.isFinite else { return maximumIconSize }
        return min(max(scaled, 1), maximumIconSize)
    }

    /// The composer for `state` in `texts`' language.
    @inline(never) @_optimize(size) public init(_ state: ComposerState, texts: ChatTexts) {
        replacement = texts.replacement(state.availability)
        text = state.text
        placeholder = texts.text(.placeholder)
        notices = state.notices.map(texts.notice)
        isOverLimit = state.notices.contains { if case .textTooLong = $0 { true } else { false } }
        canSend = state.availability == .open && state.canSend
        sendLabel = texts.text(.send)
        photos = state.pickedPhotos.map { picked in
            let photo = picked.photo
            return PickedPhoto(
                id: picked.id, jpeg: photo.jpeg,
                aspectRatio: ChatPresentation.aspectRatio(width: photo.width, height: photo.height),
                removeLabel: texts.text(.removePhoto))
        }
        loadingPhotoCount = state.loadingPhotoCount
        let room = max(0, Limits.photosPerMessage - state.photos.count - state.loadingPhotoCount)
        canAddPhotos = state.availability == .open && state.canAddPhotos && room > 0
        photoSelectionLimit = canAddPhotos ? room : 0
        addPhotoLabel = texts.text(.addPhoto)
    }

    /// Hashes the text only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
