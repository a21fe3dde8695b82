import Foundation
import ReceptionCore

/// The store of one session, behind the gate the session's end closes (`StoreGate`). The session's parts reach it
/// through their roles: the chat engine through `chat` (the roles of `ChatStoring`), the facade's hooks and the
/// unread wiring through `SessionStateStoring`. When the session ends (logout, deletion, a reset),
/// `closeAndRotate(to:)` closes the gate before the underlying store moves to the new scope, so a late write of the
/// old session never lands in the next user's scope; after closing, writes throw `storage_unavailable` and reads see
/// nothing.
final class SessionStore: SessionStateStoring {
    private let gate: StoreGate<any MessageStoring>
    /// The engine's way in, sharing the gate.
    let chat: StoreGate<any ChatStoring>
    /// The session's photo cache, behind its own gate, closed with the store's.
    let photos: StoreGate<any PhotoCaching>

    @_optimize(size) init(_ inner: any MessageStoring, photos: any PhotoCaching = NoPhotoCache()) {
        gate = StoreGate(inner)
        chat = gate.role { $0 }
        self.photos = StoreGate(photos)
    }

    /// Closes the store and the photo cache for this session's parts, removes the cached photos, then switches the
    /// underlying store to `newScope`, erasing the previous scope (spec 7.15). A photo download of the old session
    /// that ends later keeps nothing.
    @_optimize(size) func closeAndRotate(to newScope: StorageScope) throws(ReceptionError) {
        try photos.close { cache in cache.removeAll() }
        try gate.close { store throws(ReceptionError) in try store.rotate(to: newScope) }
    }

    @_optimize(size) func sessionState() throws(ReceptionError) -> SessionState {
        try Self.typed { try gate.read(orIfClosed: SessionState()) { try $0.sessionState() } }
    }

    @_optimize(size) func updateSessionState(_ change: (inout SessionState) -> Void) throws(ReceptionError) {
        try Self.typed { try gate.write { try $0.updateSessionState(change) } }
    }

    /// The gate passes on what the store threw, and a store throws only `ReceptionError`.
    @_optimize(size) private static func typed<T>(_ access: () throws -> T) throws(ReceptionError) -> T {
        do { return try access() } catch let error as ReceptionError { throw error } catch { throw .storageUnavailable }
    }
}
