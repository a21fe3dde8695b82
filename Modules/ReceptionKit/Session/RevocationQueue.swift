import Foundation
import ReceptionCore

/// One session still to sign out remotely after logout (spec 7.15): `{appId, sessionSecret}`.
struct PendingRevocation: Codable, Equatable, Sendable {
    var appId: String
    var sessionSecret: String
}

extension PendingRevocation {
    /// Makes an entry.
    @_optimize(size) package init(appID: String, secret: String) {
        self.appId = appID
        self.sessionSecret = secret
    }
}

/// The logout revocation queue (spec 7.15) and its drain, with one serial owner: the facade's main actor. Every
/// change of the stored list is one synchronous read-modify-write on that actor, and at most one drain runs, so an
/// entry queued while a drain sends cannot be erased by the drain writing back a shortened list, and no session is
/// sent twice by two drains reading the same list (issue 15).
///
/// Entries live in the secure store under `pendingSessionRevocations` (each carries a session secret) and survive
/// relaunch. They are sent one after the other while the app is active; going to the background pauses the drain
/// after the request in flight. If the stored queue cannot be read right now, new entries wait in memory and are
/// combined with the stored ones once it can be read: the stored entries are never replaced by a partial list.
@MainActor
final class RevocationQueue {
    /// Signs one session out on the service (`POST devices/me/logout` through a client of its own).
    typealias Revoke = @Sendable (PendingRevocation) async throws(ReceptionError) -> Void

    /// What a drain needs from the configuration that asked for it.
    struct Sender: Sendable {
        var revoke: Revoke
        var clock: any ReceptionClock
        var random: any RandomSource

        @_optimize(size) package init(revoke: @escaping Revoke, clock: any ReceptionClock, random: any RandomSource) {
            self.revoke = revoke
            self.clock = clock
            self.random = random
        }
    }

    private let store: any SecureStoring
    private let logger: ReceptionLogger
    private var unsaved: [PendingRevocation] = []
    private var active = true
    private var sender: Sender?
    private var drain: Task<Void, Never>?
    /// A drain was asked for while one ran: it makes another pass, retrying entries this one gave up on for now.
    private var passRequested = false

    @_optimize(size) package init(store: any SecureStoring, logger: ReceptionLogger) {
        self.store = store
        self.logger = logger
    }

    /// Whether this queue keeps its entries in `store` (the facade keeps one queue per secure store).
    @_optimize(size)
    func keeps(_ store: any SecureStoring) -> Bool { (self.store as AnyObject) === (store as AnyObject) }

    /// Adds an entry (deduplicated) and saves what can be saved.
    @_optimize(size) func enqueue(_ entry: PendingRevocation) {
        if !unsaved.contains(entry) { unsaved.append(entry) }
        flushUnsaved()
    }

    /// The entries in order, or `nil` while the stored queue cannot be read.
    @_optimize(size) func entries() -> [PendingRevocation]? {
        flushUnsaved()
        guard let stored = readStored() else { return nil }
        return stored + unsaved.filter { !stored.contains($0) }
    }

    /// Removes an entry after the service answered for it.
    @_optimize(size) func remove(_ entry: PendingRevocation) {
        unsaved.removeAll { $0 == entry }
        guard var stored = readStored() else { return }
        stored.removeAll { $0 == entry }
        save(stored)
    }

    /// Follows the app: in the background the drain stops after the request in flight; becoming active does not
    /// start one by itself (the facade asks, spec 7.15: on active, on configure, when a halt ends).
    @_optimize(size) func setActive(_ isActive: Bool) { active = isActive }

    /// Sends the queued entries with `sender`, or, while a drain runs, lets it make another pass with `sender`.
    @_optimize(size) func startDrain(_ sender: Sender) {
        self.sender = sender
        guard drain == nil else {
            passRequested = true
            return
        }
        drain = Task { await self.run() }
    }

    /// Waits until no drain runs (tests; the facade never waits for the network).
    @_optimize(size) func settled() async {
        while let drain { await drain.value }
    }

    @_optimize(size) private func run() async {
        // A list: a queue holds an entry or two (a set would compile its own hashing code for the entry type).
        var attempted: [PendingRevocation] = []
        while active, let entries = entries() {
            if passRequested {
                passRequested = false
                attempted.removeAll()
            }
            // Entries queued meanwhile join the next turn of this loop; the ones tried in this run wait for a new
            // request (a transient failure past its budget, spec 6.2).
            guard let entry = entries.first(where: { !attempted.contains($0) }), let sender else { break }
            attempted.append(entry)
            await send(entry, with: sender)
        }
        drain = nil
        // Asked for in the last turn, after the loop looked: go again (never two at once).
        if passRequested, active, let sender {
            passRequested = false
            startDrain(sender)
        }
    }

    /// One entry with its own retry budget: removed when the service answered or the error is permanent, kept
    /// after a transient failure the budget gave up on.
    @_optimize(size) private func send(_ entry: PendingRevocation, with sender: Sender) async {
        var budget = RetryBudget()
        while true {
            do throws(ReceptionError) {
                try await sender.revoke(entry)
                remove(entry)
                return
            } catch {
                budget.recordFailure(error, random: sender.random)
                guard error.isTransient, !budget.isStopped, let delay = budget.nextDelay, active else {
                    if !error.isTransient { remove(entry) }
                    logger.write(.info, "revocation \(error.isTransient ? "paused" : "dropped") (\(error.code))")
                    return
                }
                try? await sender.clock.sleep(for: delay)
            }
        }
    }

    @_optimize(size) private func readStored() -> [PendingRevocation]? {
        switch store.read(.pendingSessionRevocations) {
        case .missing:
            return []
        case .value(let data):
            guard let list = try? JSONDecoder().decode([PendingRevocation].self, from: data) else {
                logger.write(.error, "the revocation queue does not decode; keeping it for later")
                return nil
            }
            return list
        case .unavailable:
            return nil
        }
    }

    @_optimize(size) private func flushUnsaved() {
        guard !unsaved.isEmpty, let stored = readStored() else { return }
        let pending = unsaved
        if save(stored + pending.filter { !stored.contains($0) }) { unsaved.removeAll { pending.contains($0) } }
    }

    @discardableResult
    @_optimize(size) private func save(_ list: [PendingRevocation]) -> Bool {
        do {
            if list.isEmpty {
                try store.delete(.pendingSessionRevocations)
            } else {
                try store.write(try JSONEncoder().encode(list), for: .pendingSessionRevocations)
            }
            return true
        } catch {
            logger.write(.error, "could not save the revocation queue")
            return false
        }
    }
}

extension PendingRevocation {
    @_optimize(size) package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        appId = try c.decode(String.self, forKey: "appId")
        sessionSecret = try c.decode(String.self, forKey: "sessionSecret")
    }

    @_optimize(size) func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(appId, forKey: "appId")
        try c.encode(sessionSecret, forKey: "sessionSecret")
    }
}
