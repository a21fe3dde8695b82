import Foundation
import ReceptionCore

/// The write-ahead record of storage-generation rotations (issue 15). A logout rotates the generation in
/// `preferences.json`; if that write fails (a full disk) and the process ends before a retry, the next launch would
/// read the old generation and bring the logged-out user's pending identity back. So the rotation is recorded here,
/// in the secure store — another medium than the file it covers — before the file is touched, and removed once the
/// file holds it; configure completes any rotation still recorded before it reads a scope.
///
/// Per App ID: the generations retired since the file last held a rotation, and the one that replaced them.
/// Owned by `StorageNamespaces`, which has one user at a time, so its read-modify-writes never interleave.
struct RotationJournal: Sendable {
    /// The rotations of one App ID the file may not hold.
    struct Entry: Codable, Equatable, Sendable {
        /// Generations that must never be current again.
        var retired: [String]
        /// The generation that replaced them.
        var successor: String
    }

    private let store: any SecureStoring
    private let logger: ReceptionLogger

    @_optimize(size) package init(store: any SecureStoring, logger: ReceptionLogger) {
        self.store = store
        self.logger = logger
    }

    /// Records that `retired` is replaced by `successor` for `appID`, before the file is written.
    @_optimize(size) func record(appID: String, retired: String, successor: String) {
        var entries: KeyedList<Entry>
        switch read() {
        case .unavailable:
            // Nothing stored may be replaced by a partial list; the rotation goes on without its record.
            logger.write(.error, "the rotation journal cannot be read; this rotation is not recorded")
            return
        case .entries(let stored):
            entries = stored
        }
        var entry = entries[appID] ?? Entry(retired: [], successor: successor)
        if !entry.retired.contains(retired) { entry.retired.append(retired) }
        entry.successor = successor
        entries[appID] = entry
        save(entries)
    }

    /// What is recorded for `appID`, or `nil` (also when the journal cannot be read now, which is logged: seed 000
    /// says local secure-storage failures can prevent recovery after relaunch).
    @_optimize(size) func entry(appID: String) -> Entry? {
        switch read() {
        case .unavailable:
            logger.write(
                .error, "the rotation journal cannot be read; a rotation preferences.json missed cannot be completed")
            return nil
        case .entries(let entries):
            return entries[appID]
        }
    }

    /// Forgets `appID`'s rotations: the file holds them.
    @_optimize(size) func clear(appID: String) {
        guard case .entries(var entries) = read(), entries.removeValue(forKey: appID) != nil else { return }
        save(entries)
    }

    private enum Stored {
        case entries(KeyedList<Entry>)
        case unavailable
    }

    /// The stored form: a JSON object of entries by App ID. An app has one App ID, so the entries are a
    /// `KeyedList`, whose code the SDK shares, not a dictionary of their own (Docs/Footprint.md).
    private struct Document: Codable {
        var entries: KeyedList<Entry>

        @_optimize(size) init(_ entries: KeyedList<Entry>) { self.entries = entries }

        @_optimize(size) init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: WireKey.self)
            entries = KeyedList()
            for key in c.allKeys { entries[key.stringValue] = try c.decode(Entry.self, forKey: key) }
        }

        @_optimize(size) func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: WireKey.self)
            for (index, appID) in entries.allKeys.enumerated() {
                try c.encode(entries.allValues[index], forKey: WireKey(stringLiteral: appID))
            }
        }
    }

    @_optimize(size) private func read() -> Stored {
        switch store.read(.pendingScopeRotations) {
        case .missing:
            return .entries(KeyedList())
        case .value(let data):
            guard let document = try? JSONDecoder().decode(Document.self, from: data) else {
                // A record that does not decode cannot be completed; a new one replaces it.
                logger.write(.error, "the rotation journal does not decode; it is replaced")
                return .entries(KeyedList())
            }
            return .entries(document.entries)
        case .unavailable:
            return .unavailable
        }
    }

    @_optimize(size) private func save(_ entries: KeyedList<Entry>) {
        do {
            if entries.isEmpty {
                try store.delete(.pendingScopeRotations)
            } else {
                try store.write(try JSONEncoder().encode(Document(entries)), for: .pendingScopeRotations)
            }
        } catch {
            logger.write(.error, "the rotation journal could not be saved")
        }
    }
}

extension RotationJournal.Entry {
    @_optimize(size) package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireKey.self)
        retired = try c.decode([String].self, forKey: "retired")
        successor = try c.decode(String.self, forKey: "successor")
    }

    @_optimize(size) func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WireKey.self)
        try c.encode(retired, forKey: "retired")
        try c.encode(successor, forKey: "successor")
    }
}
