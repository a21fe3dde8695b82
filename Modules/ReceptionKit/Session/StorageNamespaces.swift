import Foundation
import ReceptionCore

/// Spec 7.1 step 4 and 7.15: every per-session key lives under `scope = appId + generation`, and the generation is
/// rotated on logout, session revocation and data deletion, so nothing of the previous session is reachable even
/// where deleting it failed.
///
/// A rotation is recorded in the `RotationJournal` before `preferences.json` is written, and the record is removed
/// once the file holds it; `current(appID:)` completes a recorded rotation before it reads the generation, so a
/// failed write (issue 15) can never make a retired scope, and its user's pending identity, current again.
/// Used by the facade on the main actor.
@MainActor
package struct StorageNamespaces {
    package let preferences: FilePreferences
    package let ids: any IDGenerating
    /// `nil`: rotations are not recorded (tests of the preferences alone).
    private let journal: RotationJournal?
    private let logger: ReceptionLogger

    private func key(_ appID: String) -> String { "\(appID).generation" }

    /// The current scope of `appID`, creating its first generation on first use. A rotation the file missed is
    /// completed first; `sweep` is told each retired scope then, so their secure items can go too.
    package func current(appID: String, sweepingRetired sweep: (StorageScope) -> Void = { _ in }) -> StorageScope {
        completeRecordedRotation(appID: appID, sweep: sweep)
        if let generation = preferences[key(appID)] { return StorageScope(appID: appID, generation: generation) }
        return rotate(appID: appID)
    }

    /// A fresh generation for `appID`; every preference of its earlier scopes (the pending identity: user ID,
    /// name, email, metadata, push token) is removed with it, in one write.
    @discardableResult
    package func rotate(appID: String) -> StorageScope {
        let scope = StorageScope(appID: appID, generation: ids.makeID())
        // Write-ahead: the record exists before the file changes, so a write that fails leaves it behind.
        if let retired = preferences[key(appID)] {
            journal?.record(appID: appID, retired: retired, successor: scope.generation)
        }
        let written = preferences.change { values in
            values = values.filter { !Self.isEarlier($0.key, than: scope) }
            values[key(appID)] = scope.generation
        }
        if written { journal?.clear(appID: appID) }
        return scope
    }

    /// Writes `preferences.json` again if a write failed, and forgets the recorded rotation once the file holds it
    /// (the app became active again: the disk may have room now).
    package func retryUnwrittenRotation(appID: String) {
        guard !preferences.isWritten else { return }
        if preferences.writeIfUnwritten() { journal?.clear(appID: appID) }
    }

    /// Removes the preferences of every scope of `scope.appID` except `scope`.
    package func removeEarlierScopes(of scope: StorageScope) {
        preferences.removeAll { Self.isEarlier($0, than: scope) }
    }

    /// A rotation recorded but maybe not written: the generation becomes the recorded successor unless the file
    /// already moved on (its generation is neither missing nor retired), every other scope's preferences go, and the
    /// record is forgotten once the file holds that.
    private func completeRecordedRotation(appID: String, sweep: (StorageScope) -> Void) {
        guard let journal, let entry = journal.entry(appID: appID) else { return }
        let stored = preferences[key(appID)]
        let generation = stored.flatMap { entry.retired.contains($0) ? nil : $0 } ?? entry.successor
        let scope = StorageScope(appID: appID, generation: generation)
        let written = preferences.change { values in
            values = values.filter { !Self.isEarlier($0.key, than: scope) }
            values[key(appID)] = generation
        }
        if stored != generation { logger.info("a storage rotation preferences.json had missed was completed") }
        for retired in entry.retired where retired != generation {
            sweep(StorageScope(appID: appID, generation: retired))
        }
        if written { journal.clear(appID: appID) }
    }

    /// A key of another scope of the same App ID (App IDs have one length, so no App ID is a prefix of another);
    /// the generation key itself is not one.
    private static func isEarlier(_ key: String, than scope: StorageScope) -> Bool {
        key.hasPrefix(scope.appID) && key != "\(scope.appID).generation" && !key.hasPrefix(scope.key + ".")
    }
}

extension StorageNamespaces {
    /// Makes namespaces over `preferences`, recording rotations in `journal` when one is given.
    package init(
        preferences: FilePreferences, idGenerator: any IDGenerating, journal: RotationJournal? = nil,
        logger: ReceptionLogger = .silent
    ) {
        self.preferences = preferences
        self.ids = idGenerator
        self.journal = journal
        self.logger = logger
    }
}
