import Foundation
import ReceptionCore
import Synchronization

/// One session still to sign out remotely after logout (spec 7.15): `{appId, sessionSecret}`.
package struct PendingRevocation: Codable, Hashable, Sendable {
    package var appId: String
    package var sessionSecret: String
}

/// The logout revocation queue (spec 7.15), kept in the secure store under `pendingSessionRevocations` because each
/// entry carries a session secret. Entries survive relaunch and are sent one after the other while the app is
/// active. If the stored queue cannot be read right now, new entries wait in memory and are combined with the
/// stored ones once it can be read: the stored entries are never replaced by a partial list.
package final class RevocationQueue: Sendable {
    private let store: any SecureStoring
    private let logger: ReceptionLogger
    private let unsaved = Mutex<[PendingRevocation]>([])

    package init(store: any SecureStoring, logger: ReceptionLogger) {
        self.store = store
        self.logger = logger
    }

    /// Adds an entry (deduplicated) and saves what can be saved.
    package func enqueue(_ entry: PendingRevocation) {
        unsaved.withLock { if !$0.contains(entry) { $0.append(entry) } }
        flushUnsaved()
    }

    /// The entries in order, or `nil` while the stored queue cannot be read.
    package func entries() -> [PendingRevocation]? {
        flushUnsaved()
        guard let stored = readStored() else { return nil }
        return stored + unsaved.withLock { $0 }.filter { !stored.contains($0) }
    }

    /// Removes an entry after the service answered for it.
    package func remove(_ entry: PendingRevocation) {
        unsaved.withLock { $0.removeAll { $0 == entry } }
        guard var stored = readStored() else { return }
        stored.removeAll { $0 == entry }
        save(stored)
    }

    private func readStored() -> [PendingRevocation]? {
        switch store.read(.pendingSessionRevocations) {
        case .missing:
            return []
        case .value(let data):
            guard let list = try? JSONDecoder().decode([PendingRevocation].self, from: data) else {
                logger.error("the revocation queue does not decode; keeping it for later")
                return nil
            }
            return list
        case .unavailable:
            return nil
        }
    }

    private func flushUnsaved() {
        let pending = unsaved.withLock { $0 }
        guard !pending.isEmpty, let stored = readStored() else { return }
        let combined = stored + pending.filter { !stored.contains($0) }
        if save(combined) { unsaved.withLock { $0.removeAll { pending.contains($0) } } }
    }

    @discardableResult
    private func save(_ list: [PendingRevocation]) -> Bool {
        do {
            if list.isEmpty {
                try store.delete(.pendingSessionRevocations)
            } else {
                try store.write(try JSONEncoder().encode(list), for: .pendingSessionRevocations)
            }
            return true
        } catch {
            logger.error("could not save the revocation queue")
            return false
        }
    }
}

extension PendingRevocation {
    /// Makes an entry.
    package init(appID: String, secret: String) {
        self.appId = appID
        self.sessionSecret = secret
    }
}
