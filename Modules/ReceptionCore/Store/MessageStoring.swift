/// The history window the chat shows at launch (spec 7.17): every unconfirmed message plus the last
/// `confirmedWindow` confirmed ones.
public protocol MessageWindowStoring: Sendable {
    /// The window in list order (`StoredMessage.inListOrder`), photos included.
    func loadWindow() throws(ReceptionError) -> [StoredMessage]

    /// Inserts or replaces messages by local ID (the result of a merge, spec 7.10), then trims confirmed messages
    /// beyond the last `confirmedWindow`, in one transaction: either all of it is stored or none of it.
    /// An existing message's stored photos are kept when `images` has the same count and replaced otherwise; an
    /// empty `images` removes them (a message confirmed with attachments).
    func save(_ messages: [StoredMessage]) throws(ReceptionError)

    /// Spec 3.6: removes every stored confirmed message whose `seq` is not in `window` (the seqs of a history
    /// response), photos included, in one transaction. Unsent messages are never removed.
    func removeConfirmed(notIn window: Set<Int64>) throws(ReceptionError)
}

extension MessageWindowStoring {
    /// Spec 7.17: how many confirmed messages the window keeps.
    @_optimize(size) public var confirmedWindow: Int { 50 }
}

/// The outbox: messages written by this person and not yet confirmed, with their photos (spec 7.8).
public protocol OutboxStoring: Sendable {
    /// Stores a new unconfirmed message with its text and prepared JPEG photos in one transaction (spec 7.8.1).
    /// Throws `invalid_input` for a confirmed message or an ID already stored.
    func enqueue(_ message: StoredMessage) throws(ReceptionError)

    /// Every unconfirmed message, oldest first.
    func unsentMessages() throws(ReceptionError) -> [StoredMessage]

    /// Records the failure bookkeeping of spec 7.8.4 for an unconfirmed message; an unknown ID changes nothing.
    func setDelivery(_ delivery: DeliveryFlags, of id: String) throws(ReceptionError)

    /// Appends the attachment ID of the next uploaded photo (spec 7.8.2 step 5), persisted at once so a restart
    /// resumes with the remaining photos only; an unknown ID changes nothing.
    func appendAttachmentID(_ attachmentID: String, to id: String) throws(ReceptionError)

    /// Forgets the saved attachment IDs after `invalid_attachment` or `upload_incomplete` (spec 7.9).
    func clearAttachmentIDs(of id: String) throws(ReceptionError)

    /// Replaces the unconfirmed message `id` with the service's copy in one transaction: the local ID is kept,
    /// photos are dropped when `confirmed.images` is empty, and the window is trimmed (spec 7.10).
    func complete(_ id: String, with confirmed: StoredMessage) throws(ReceptionError)

    /// Removes the unconfirmed message `id` with its photos; a confirmed or unknown ID changes nothing. (The chat no
    /// longer calls it: a send stopped by a block stays Not delivered, seed 001 over spec 7.7; kept for hosts'
    /// stores and their contract.)
    func removeUnsent(_ id: String) throws(ReceptionError)
}

/// The composer draft (spec 7.17: text only; photos picked but not sent are never persisted, seed 001).
public protocol DraftStoring: Sendable {
    /// The stored draft, empty when there is none.
    func draft() throws(ReceptionError) -> String
    /// Stores the draft; an empty text removes it.
    func setDraft(_ text: String) throws(ReceptionError)
}

/// The per-session bookkeeping of `SessionState`.
public protocol SessionStateStoring: Sendable {
    /// The stored state, or a fresh one.
    func sessionState() throws(ReceptionError) -> SessionState
    /// Reads, changes and writes the state in one transaction; `change` must not call back into the store.
    func updateSessionState(_ change: (inout SessionState) -> Void) throws(ReceptionError)
}

/// The team profile cache (spec 7.17): names and photos of the teammates who wrote agent replies.
///
/// A store that does not implement it keeps nothing (the defaults below): names and photos then come back with the
/// next history load instead of showing at once.
public protocol TeamProfileStoring: Sendable {
    /// The stored profiles in their stored order; empty when there are none.
    func teamProfiles() throws(ReceptionError) -> [TeamProfile]
    /// Replaces the stored profiles with `profiles`, in one transaction (the caller applies the limits).
    func saveTeamProfiles(_ profiles: [TeamProfile]) throws(ReceptionError)
}

extension TeamProfileStoring {
    /// Nothing stored.
    @_optimize(size) public func teamProfiles() throws(ReceptionError) -> [TeamProfile] { [] }
    /// Nothing kept.
    @_optimize(size) public func saveTeamProfiles(_ profiles: [TeamProfile]) throws(ReceptionError) {}
}

/// Spec 7.12: the chat reset, as one transaction.
public protocol ChatResetStoring: Sendable {
    /// Clears the window, the outbox, the draft, the team profiles and the conversation state, keeps cooldowns and
    /// synchronised preferences, and adopts `revision`, in one transaction.
    func resetChat(revision: Int) throws(ReceptionError)
}

/// The roles the chat engine uses: everything of a session's chat, without the session-wide rotation.
public typealias ChatStoring = MessageWindowStoring & OutboxStoring & DraftStoring & SessionStateStoring
    & TeamProfileStoring & ChatResetStoring

/// Everything the SDK persists for a session, under one `StorageScope`. The chat engine asks for the roles it
/// needs; the facade owns the whole store and performs the session-wide operations.
///
/// Contract (checked by `MessageStoreContract` over every implementation): what a call stored is read back after
/// reopening; a write that throws leaves what was stored before; nothing of another scope is ever returned.
public protocol MessageStoring: MessageWindowStoring, OutboxStoring, DraftStoring, SessionStateStoring,
    TeamProfileStoring, ChatResetStoring {
    /// The scope reads and writes go to.
    var scope: StorageScope { get }

    /// Spec 7.15 (logout, deleteData): switches to `newScope` and erases every other scope of the same App ID, so
    /// nothing of the previous session can be read back. Scopes of other App IDs are kept.
    func rotate(to newScope: StorageScope) throws(ReceptionError)
}
