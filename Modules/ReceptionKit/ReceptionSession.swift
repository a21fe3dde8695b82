import Conversation
import Foundation
import ReceptionCore
import Transport

/// The parts of one session (spec 7.15: everything that logout, revocation and deletion replace): its storage
/// scope, message store, service client and chat engine (client and engine share the session's cooldowns). Built
/// by the facade; never shared across sessions, so a late answer for an old session cannot touch the new one.
final class ReceptionSession: Sendable {
    let scope: StorageScope
    let store: SessionStore
    let client: ReceptionAPIClient
    let engine: ChatEngine

    @inline(never) @_optimize(size) init(
        scope: StorageScope, store: SessionStore, client: ReceptionAPIClient,
        engine: ChatEngine
    ) {
        self.scope = scope
        self.store = store
        self.client = client
        self.engine = engine
    }

    /// Whether the person ever sent a message in this session (spec 7.3).
    @_optimize(size) var hasStartedChat: Bool { (try? store.sessionState().hasStartedChat) ?? false }

    /// A used chat of a registered device: the condition for device updates at launch, foreground, chat opening
    /// and push-token changes (spec 7.2). Never true for an unused session, so nothing registers by itself.
    @inline(never) @_optimize(size) func isActivated() async -> Bool {
        guard hasStartedChat else { return false }
        return (try? await client.isRegistered()) == true
    }

    /// Stops everything this session does.
    @inline(never) @_optimize(size) func end() async {
        await client.invalidate()
        await engine.shutdown()
    }
}

/// A `MessageStoring` that holds nothing, for a session whose store could not be opened (a damaged disk): the chat
/// still works in memory and reports what it cannot keep (`storage_unavailable` is logged by the engine).
final class UnavailableMessageStore: MessageStoring {
    let scope: StorageScope
    @_optimize(size) init(scope: StorageScope) { self.scope = scope }
    @_optimize(size) func loadWindow() throws(ReceptionError) -> [StoredMessage] { [] }
    @_optimize(size) func save(_ messages: [StoredMessage]) throws(ReceptionError) { throw Self.error }
    @_optimize(size) func removeConfirmed(notIn window: Set<Int64>) throws(ReceptionError) { throw Self.error }
    @_optimize(size) func enqueue(_ message: StoredMessage) throws(ReceptionError) { throw Self.error }
    @_optimize(size) func removeUnsent(_ id: String) throws(ReceptionError) { throw Self.error }
    @_optimize(size) func unsentMessages() throws(ReceptionError) -> [StoredMessage] { [] }
    @inline(never) @_optimize(size)
    func setDelivery(_ delivery: DeliveryFlags, of id: String) throws(ReceptionError) { throw Self.error }
    @inline(never) @_optimize(size)
    func appendAttachmentID(_ attachmentID: String, to id: String) throws(ReceptionError) { throw Self.error }
    @_optimize(size) func clearAttachmentIDs(of id: String) throws(ReceptionError) { throw Self.error }
    @inline(never) @_optimize(size)
    func complete(_ id: String, with confirmed: StoredMessage) throws(ReceptionError) { throw Self.error }
    @_optimize(size) func draft() throws(ReceptionError) -> String { "" }
    @_optimize(size) func setDraft(_ text: String) throws(ReceptionError) { throw Self.error }
    @_optimize(size) func sessionState() throws(ReceptionError) -> SessionState { SessionState() }
    @inline(never) @_optimize(size)
    func updateSessionState(_ change: (inout SessionState) -> Void) throws(ReceptionError) { throw Self.error }
    @_optimize(size) func resetChat(revision: Int) throws(ReceptionError) { throw Self.error }
    @_optimize(size) func rotate(to newScope: StorageScope) throws(ReceptionError) { throw Self.error }
    private static let error = ReceptionError(code: ReceptionError.Code.storageUnavailable)
}
