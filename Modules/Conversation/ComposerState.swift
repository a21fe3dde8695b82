import Foundation
import ReceptionCore

/// Whether the composer is shown at all (spec 7.7, 6.4; seed 001 "Restrictions and reset behavior").
public enum ComposerAvailability: String, Sendable, Hashable, CaseIdentity {
    /// The person may write and send.
    case open
    /// The device is blocked: the composer is replaced by a "can't send from this device" notice.
    case sendingDisabled
    /// The app accepts only verified users: "Sign in to send messages."
    case signInRequired
    /// The service no longer serves this app (spec 6.4 `appUnavailable`).
    case appUnavailable

    /// The English text of the notice that replaces the composer, if any (`ChatTexts.replacement(_:)` gives it in
    /// the chat language).
    @_optimize(size) public var replacementText: String? { ChatTexts.english.replacement(self) }
}

/// A line the composer shows above the text field.
public enum ComposerNotice: Sendable, Hashable {
    /// Seed 001: the trimmed draft is longer than the limit; it is not shortened and cannot be sent.
    case textTooLong(length: Int, limit: Int)
    /// Spec 6.3.5: a server wait blocks sending.
    case cooldown(CooldownNotice)
    /// Spec 6.3.5: held messages are going out again; new sends wait so the order stays intact.
    case resendingHeldMessages
    /// Seed 001: a picked photo could not be loaded and was skipped.
    case photoCouldNotLoad
    /// At most 5 photos per message.
    case tooManyPhotos(limit: Int)
    /// The device could not store the conversation (for example a full disk); sending still works.
    case storageProblem

    /// The English text of the notice (`ChatTexts.notice(_:)` gives it in the chat language).
    @_optimize(size) public var text: String { ChatTexts.english.notice(self) }

    /// Hashes the case only; `==` compares the values too, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
        switch self {
        case .textTooLong: hasher.combine(0)
        case .cooldown: hasher.combine(1)
        case .resendingHeldMessages: hasher.combine(2)
        case .photoCouldNotLoad: hasher.combine(3)
        case .tooManyPhotos: hasher.combine(4)
        case .storageProblem: hasher.combine(5)
        }
    }
}

/// Everything the composer shows.
public struct ComposerState: Sendable, Hashable {
    /// Whether the composer is shown, or what replaces it.
    public var availability: ComposerAvailability
    /// The draft text (restored across launches).
    public var text: String
    /// A photo picked for the next message, with its identity from the pick to the send.
    public struct PickedPhoto: Sendable, Hashable, Identifiable {
        /// Stable while the photo stays picked, never given to another photo (what `ChatModel.removePhoto(id:)`
        /// takes).
        public var id: Int
        /// The prepared photo.
        public var photo: PreparedPhoto

        /// A picked photo.
        @_optimize(size) public init(id: Int, photo: PreparedPhoto) {
            self.id = id
            self.photo = photo
        }

        /// Hashes the ID only; `==` compares every field, so equal values hash alike.
        @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }

    /// The photos picked for the next message, in pick order (memory only, never persisted as draft photos).
    public var pickedPhotos: [PickedPhoto]
    /// The prepared photos of `pickedPhotos`.
    @_optimize(size) public var photos: [PreparedPhoto] { pickedPhotos.map(\.photo) }
    /// How many picked photos are still loading (read from the picker or being prepared).
    public var loadingPhotoCount: Int
    /// A picked photo is still loading; sending is disabled meanwhile.
    @_optimize(size) public var isLoadingPhotos: Bool { loadingPhotoCount > 0 }
    /// Whether tapping Send would send.
    public var canSend: Bool
    /// Whether the photo button is enabled.
    public var canAddPhotos: Bool
    /// Notices to show, most important first.
    public var notices: [ComposerNotice]

    /// Hashes the text only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
