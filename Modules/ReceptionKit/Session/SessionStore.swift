import Foundation
import ReceptionCore

/// The store a session's parts (engine, client hooks, unread monitor) write through. When the session ends (logout,
/// deletion, a reset), `closeAndRotate(to:)` closes it before the underlying store moves to the new scope: the old
/// session's parts wind down asynchronously, and a late write of theirs (a photo, a confirmation, a cursor) must not
/// land in the next user's scope, nor bring the previous user's data back into the file. After closing, writes throw
/// `storage_unavailable` and reads see nothing.
final class SessionStore: MessageStoring {
    private let inner: any MessageStoring
    /// `true` once closed. Held across each forwarded call, so a write in progress finishes before the rotation.
    private let closed = Locked(false)

    init(_ inner: any MessageStoring) { self.inner = inner }

    var scope: StorageScope { inner.scope }

    /// Closes the store for this session's parts, then switches the underlying store to `newScope`, erasing the
    /// previous scope (spec 7.15).
    func closeAndRotate(to newScope: StorageScope) throws(ReceptionError) {
        closed.withLock { $0 = true }
        try inner.rotate(to: newScope)
    }

    private static let closedError = ReceptionError(code: ReceptionError.Code.storageUnavailable)

    private func write(_ body: () throws(ReceptionError) -> Void) throws(ReceptionError) {
        try closed.withLock { isClosed throws(ReceptionError) in
            if isClosed { throw Self.closedError }
            try body()
        }
    }

    private func read<T: Sendable>(empty: T, _ body: () throws(ReceptionError) -> T) throws(ReceptionError) -> T {
        try closed.withLock { isClosed throws(ReceptionError) -> T in
            if isClosed { return empty }
            return try body()
        }
    }

    func loadWindow() throws(ReceptionError) -> [StoredMessage] { try read(empty: []) { () throws(ReceptionError) in try inner.loadWindow() } }
    func save(_ messages: [StoredMessage]) throws(ReceptionError) { try write { () throws(ReceptionError) in try inner.save(messages) } }
    func removeConfirmed(notIn window: Set<Int64>) throws(ReceptionError) {
        try write { () throws(ReceptionError) in try inner.removeConfirmed(notIn: window) }
    }
    func enqueue(_ message: StoredMessage) throws(ReceptionError) { try write { () throws(ReceptionError) in try inner.enqueue(message) } }
    func unsentMessages() throws(ReceptionError) -> [StoredMessage] {
        try read(empty: []) { () throws(ReceptionError) in try inner.unsentMessages() }
    }
    func setDelivery(_ delivery: DeliveryFlags, of id: String) throws(ReceptionError) {
        try write { () throws(ReceptionError) in try inner.setDelivery(delivery, of: id) }
    }
    func appendAttachmentID(_ attachmentID: String, to id: String) throws(ReceptionError) {
        try write { () throws(ReceptionError) in try inner.appendAttachmentID(attachmentID, to: id) }
    }
    func clearAttachmentIDs(of id: String) throws(ReceptionError) {
        try write { () throws(ReceptionError) in try inner.clearAttachmentIDs(of: id) }
    }
    func complete(_ id: String, with confirmed: StoredMessage) throws(ReceptionError) {
        try write { () throws(ReceptionError) in try inner.complete(id, with: confirmed) }
    }
    func removeUnsent(_ id: String) throws(ReceptionError) { try write { () throws(ReceptionError) in try inner.removeUnsent(id) } }
    func draft() throws(ReceptionError) -> String { try read(empty: "") { () throws(ReceptionError) in try inner.draft() } }
    func setDraft(_ text: String) throws(ReceptionError) { try write { () throws(ReceptionError) in try inner.setDraft(text) } }
    func sessionState() throws(ReceptionError) -> SessionState {
        try read(empty: SessionState()) { () throws(ReceptionError) in try inner.sessionState() }
    }
    func updateSessionState(_ change: (inout SessionState) -> Void) throws(ReceptionError) {
        try write { () throws(ReceptionError) in try inner.updateSessionState(change) }
    }
    func teamProfiles() throws(ReceptionError) -> [TeamProfile] {
        try read(empty: []) { () throws(ReceptionError) in try inner.teamProfiles() }
    }
    func saveTeamProfiles(_ profiles: [TeamProfile]) throws(ReceptionError) {
        try write { () throws(ReceptionError) in try inner.saveTeamProfiles(profiles) }
    }
    func resetChat(revision: Int) throws(ReceptionError) { try write { () throws(ReceptionError) in try inner.resetChat(revision: revision) } }
    func rotate(to newScope: StorageScope) throws(ReceptionError) { try closeAndRotate(to: newScope) }
}
