import Foundation
import ReceptionCore

/// A `MessageStoring` in memory, kept honest by `MessageStoreContract`, with a switch that makes writes fail as on
/// a full disk. Instances made with `reopened(scope:)` share the storage, like two launches over one file.
public final class InMemoryMessageStore: MessageStoring {
    private struct ScopeContents {
        /// In insertion order, like rows.
        var messages: [StoredMessage] = []
        var draft = ""
        var session = SessionState()
        var team: [TeamProfile] = []
    }

    private struct Contents {
        var scopes: [StorageScope: ScopeContents] = [:]
        var writeFailure: ReceptionError?
    }

    /// What every instance over the same storage shares.
    private final class Storage: Sendable {
        let contents = Locked(Contents())
    }

    private let storage: Storage
    private let current: Locked<StorageScope>

    /// An empty store for `scope`.
    public convenience init(scope: StorageScope) {
        self.init(storage: Storage(), scope: scope)
    }

    private init(storage: Storage, scope: StorageScope) {
        self.storage = storage
        current = Locked(scope)
        storage.contents.withLock { Self.adopt(scope, in: &$0) }
    }

    /// Another instance over the same storage for `scope`: a relaunch. Like opening the SQLite file, it erases
    /// older scopes of the same App ID.
    public func reopened(scope: StorageScope) -> InMemoryMessageStore {
        InMemoryMessageStore(storage: storage, scope: scope)
    }

    /// While set, every write throws this error and changes nothing.
    public var writeFailure: ReceptionError? {
        get { storage.contents.withLock { $0.writeFailure } }
        set { storage.contents.withLock { $0.writeFailure = newValue } }
    }

    public var scope: StorageScope { current.withLock { $0 } }

    // MARK: Window and outbox

    public func loadWindow() throws(ReceptionError) -> [StoredMessage] {
        StoredMessage.inListOrder(read { $0.messages })
    }

    public func save(_ messages: [StoredMessage]) throws(ReceptionError) {
        let limit = confirmedWindow
        try write { contents in
            for message in messages { Self.upsert(message, into: &contents.messages) }
            Self.trim(&contents.messages, keeping: limit)
        }
    }

    public func removeConfirmed(notIn window: Set<Int64>) throws(ReceptionError) {
        try write { contents in contents.messages.removeAll { $0.seq.map { !window.contains($0) } ?? false } }
    }

    public func removeUnsent(_ id: String) throws(ReceptionError) {
        try write { contents in contents.messages.removeAll { $0.id == id && !$0.isConfirmed } }
    }

    public func enqueue(_ message: StoredMessage) throws(ReceptionError) {
        try write { contents throws(ReceptionError) in
            guard !message.isConfirmed, !contents.messages.contains(where: { $0.id == message.id }) else {
                throw .invalidInput
            }
            contents.messages.append(message)
        }
    }

    public func unsentMessages() throws(ReceptionError) -> [StoredMessage] {
        read { $0.messages.filter { !$0.isConfirmed } }
    }

    public func setDelivery(_ delivery: DeliveryFlags, of id: String) throws(ReceptionError) {
        try write { contents in
            guard let index = contents.messages.firstIndex(where: { $0.id == id && !$0.isConfirmed }) else { return }
            contents.messages[index].delivery = delivery
        }
    }

    public func appendAttachmentID(_ attachmentID: String, to id: String) throws(ReceptionError) {
        try write { contents in
            guard let index = contents.messages.firstIndex(where: { $0.id == id }) else { return }
            contents.messages[index].attachmentIds.append(attachmentID)
        }
    }

    public func clearAttachmentIDs(of id: String) throws(ReceptionError) {
        try write { contents in
            guard let index = contents.messages.firstIndex(where: { $0.id == id }) else { return }
            contents.messages[index].attachmentIds = []
        }
    }

    public func complete(_ id: String, with confirmed: StoredMessage) throws(ReceptionError) {
        var replacement = confirmed
        replacement.id = id
        let limit = confirmedWindow
        try write { contents in
            guard contents.messages.contains(where: { $0.id == id }) else { return }
            Self.upsert(replacement, into: &contents.messages)
            Self.trim(&contents.messages, keeping: limit)
        }
    }

    // MARK: Draft and session state

    public func draft() throws(ReceptionError) -> String { read { $0.draft } }

    public func setDraft(_ text: String) throws(ReceptionError) {
        try write { $0.draft = text }
    }

    public func sessionState() throws(ReceptionError) -> SessionState { read { $0.session } }

    public func updateSessionState(_ change: (inout SessionState) -> Void) throws(ReceptionError) {
        try write { change(&$0.session) }
    }

    // MARK: Team profiles

    public func teamProfiles() throws(ReceptionError) -> [TeamProfile] { read { $0.team } }

    public func saveTeamProfiles(_ profiles: [TeamProfile]) throws(ReceptionError) {
        var seen = Set<String>()
        let unique = profiles.filter { seen.insert($0.id).inserted }
        try write { $0.team = unique }
    }

    // MARK: Session-wide

    public func resetChat(revision: Int) throws(ReceptionError) {
        try write { contents in
            contents.messages = []
            contents.draft = ""
            contents.team = []
            contents.session = contents.session.afterChatReset(revision: revision)
        }
    }

    public func rotate(to newScope: StorageScope) throws(ReceptionError) {
        current.withLock { $0 = newScope }
        try storage.contents.withLock { contents throws(ReceptionError) in
            if let failure = contents.writeFailure { throw failure }
            Self.adopt(newScope, in: &contents)
        }
    }

    // MARK: Helpers

    private func read<T: Sendable>(_ body: (ScopeContents) -> T) -> T {
        let scope = self.scope
        return storage.contents.withLock { body($0.scopes[scope] ?? ScopeContents()) }
    }

    private func write(_ body: (inout ScopeContents) throws(ReceptionError) -> Void) throws(ReceptionError) {
        let scope = self.scope
        try storage.contents.withLock { contents throws(ReceptionError) in
            if let failure = contents.writeFailure { throw failure }
            // Work on a copy: a body that throws halfway leaves the stored contents as they were.
            var scoped = contents.scopes[scope] ?? ScopeContents()
            try body(&scoped)
            contents.scopes[scope] = scoped
        }
    }

    private static func adopt(_ scope: StorageScope, in contents: inout Contents) {
        contents.scopes = contents.scopes.filter { $0.key.appID != scope.appID || $0.key == scope }
    }

    /// Replaces by local ID in place, keeping stored photos when the replacement has as many (as SQLite does).
    private static func upsert(_ message: StoredMessage, into messages: inout [StoredMessage]) {
        guard let index = messages.firstIndex(where: { $0.id == message.id }) else {
            messages.append(message)
            return
        }
        var replacement = message
        if !message.images.isEmpty, messages[index].images.count == message.images.count {
            replacement.images = messages[index].images
        }
        messages[index] = replacement
    }

    /// Spec 7.17: every unsent message and the newest `limit` confirmed ones.
    private static func trim(_ messages: inout [StoredMessage], keeping limit: Int) {
        let seqs = messages.compactMap(\.seq).sorted(by: >)
        guard seqs.count > limit else { return }
        let oldestKept = seqs[limit - 1]
        messages.removeAll { ($0.seq ?? .max) < oldestKept }
    }
}
