import Foundation
import ReceptionCore
import ReceptionKit
import Testing

/// A keychain that can be locked (as before the first unlock after a restart): reads answer *unavailable*, not
/// *missing*, and writes fail.
final class LockableSecureStore: SecureStoring {
    /// The switch, shared by every wrapper of one install.
    final class Lock: Sendable {
        private let locked = Locked(false)
        var isLocked: Bool {
            get { locked.withLock { $0 } }
            set { locked.withLock { $0 = newValue } }
        }
    }

    private let inner: any SecureStoring
    private let lock: Lock

    init(_ inner: any SecureStoring, lock: Lock) {
        self.inner = inner
        self.lock = lock
    }

    func read(_ key: SecureStoreKey) -> SecureStoreRead {
        lock.isLocked ? .unavailable(reason: "locked") : inner.read(key)
    }

    func write(_ value: Data, for key: SecureStoreKey) throws(ReceptionError) {
        if lock.isLocked { throw .secureStorageUnavailable }
        try inner.write(value, for: key)
    }

    func delete(_ key: SecureStoreKey) throws(ReceptionError) {
        if lock.isLocked { throw .secureStorageUnavailable }
        try inner.delete(key)
    }

    func deleteAll(namespace: String) throws(ReceptionError) {
        if lock.isLocked { throw .secureStorageUnavailable }
        try inner.deleteAll(namespace: namespace)
    }
}

/// Seed 000, "When deletion completes" and "Handle ReceptionError": every failure `deleteData()` can throw, made
/// by the real emulator (fault injection), a locked keychain, a cancelled task or an offline device. Each keeps the
/// session (same chat, same secret, same history) and emits no event; the retry then completes and emits
/// `.dataDeleted` once.
@Suite("SeedPromisesTests+Deletion", .serialized)
@MainActor
struct SeedPromisesDeletionTests {
    enum Failure: String, CaseIterable, Sendable {
        case deleteFailed = "delete_failed"
        case secureStorageUnavailable = "secure_storage_unavailable"
        case cancelled
        case invalidResponse = "invalid_response"
        case connectionFailed = "connection_failed"

        /// The status the error carries (seed 000's table: 0 without a valid HTTP answer).
        var status: Int {
            switch self {
            case .deleteFailed: 503
            case .invalidResponse: 200
            case .secureStorageUnavailable, .cancelled, .connectionFailed: 0
            }
        }
    }

    @Test(arguments: Failure.allCases)
    func aFailedDeletionKeepsTheSessionEmitsNothingAndTheRetryCompletes(failure: Failure) async throws {
        let service = try Service()
        let lock = LockableSecureStore.Lock()
        let app = App(service)
        app.wrapSecureStore = { LockableSecureStore($0, lock: lock) }
        await app.launch()
        try await app.send("keep me until deleted")
        let secret = try #require(app.sessionSecret())
        let chat = try #require(app.reception.chat)
        switch failure {
        case .deleteFailed:
            try await service.admin("POST", "faults", [
                "path": "/v1/devices/me", "method": "DELETE", "kind": "status", "status": 503, "code": "delete_failed",
            ])
        case .secureStorageUnavailable:
            lock.isLocked = true
        case .cancelled:
            try await service.admin("POST", "faults", ["path": "/v1/devices/me", "method": "DELETE", "kind": "delay", "delayMs": 3000])
        case .invalidResponse:
            try await service.admin("POST", "faults", [
                "path": "/v1/devices/me", "method": "DELETE", "kind": "garble", "commit": false,
            ])
        case .connectionFailed:
            // Offline. (A dropped connection is repeated by libcurl under URLSession on Linux, so it never surfaces.)
            app.transport.isOffline = true
        }
        let reception = app.reception
        let attempt = Task { try await reception.deleteData() }
        if failure == .cancelled {
            // The request is on the wire (held by the service) when the host's task is cancelled.
            try #require(await until { await service.faultsFired() }, "the deletion never reached the service")
            attempt.cancel()
        }
        var thrown: ReceptionError?
        do { try await attempt.value } catch { thrown = error as? ReceptionError }
        let error = try #require(thrown, "the deletion did not fail")
        #expect(error.code == failure.rawValue)
        #expect(error.status == failure.status)
        // `.dataDeleted` is emitted before deleteData returns on a completing path, so its absence now is final.
        #expect(!app.events.contains(.dataDeleted), "events: \(app.events)")
        // The service did not delete the device (the garbled answer comes without a commit): a committed deletion
        // would end the session, and the chat's next request would learn that.
        lock.isLocked = false
        app.transport.isOffline = false
        #expect(app.reception.chat === chat, "the session was replaced")
        #expect(app.sessionSecret() == secret, "the session secret is gone")
        #expect(app.texts.contains("keep me until deleted"), "the history is gone")

        try await app.reception.deleteData()
        #expect(app.events.filter { $0 == .dataDeleted }.count == 1)
        #expect(try await service.devices().isEmpty)
        await app.reception.chat?.refresh()
        #expect(app.texts.isEmpty)
        #expect(app.sessionSecret() == nil)
    }
}
