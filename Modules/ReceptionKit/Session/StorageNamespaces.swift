import Foundation
import ReceptionCore

/// Spec 7.1 step 4 and 7.15: every per-session key lives under `scope = appId + generation`, and the generation is
/// rotated on logout, session revocation and data deletion, so nothing of the previous session is reachable even
/// where deleting it failed.
///
/// A rotation is recorded in the `RotationJournal` before `preferences.json` is written, and the record is removed
/// once the file holds it; `current(appID:)` completes a recorded rotation before it reads the generation, so a
/// failed write (issue 15) can never make a retired scope, and its user's pending identity, current again.
/// Used by one owner at a time, so its read-modify-writes never interleave: a launch's preparation off the main actor
/// (`Reception.prepareStorage`), then the facade on the main actor once the configuration's parts exist.
/// A class: its fields never change, and as a struct it carried copy, move and destroy functions of its own.
final class StorageNamespaces: Sendable {
    let preferences: FilePreferences
    let ids: any IDGenerating
    /// `nil`: rotations are not recorded (tests of the preferences alone).
    private let journal: RotationJournal?
    private let logger: ReceptionLogger

    @_optimize(size) private func key(_ appID: String) -> String { "\(appID).generation" }

    /// The current scope of `appID`, creating its first generation on first use. A rotation the file missed is
    /// completed first; `sweep` is told each retired scope then, so their secure items can go too.
    @_optimize(size)
    func current(appID: String, sweepingRetired sweep: (StorageScope) -> Void = { _ in }) -> StorageScope {
        let (scope, retired) = currentKeepingRecord(appID: appID)
        if let retired {
            retired.forEach(sweep)
            retiredScopesSwept(appID: appID)
        }
        return scope
    }

    /// As `current(appID:)`, for a caller that retires the scopes a recorded rotation left elsewhere (the facade, on
    /// the main actor, where the revocation queue lives): they are returned (`nil`: no rotation was recorded), and
    /// the rotation's record stays until `retiredScopesSwept(appID:)`, so a process that ends in between completes
    /// the rotation and its sweep again.
    @_optimize(size)
    func currentKeepingRecord(appID: String) -> (scope: StorageScope, retired: [StorageScope]?) {
        let retired = completeRecordedRotation(appID: appID)
        if let generation = preferences[key(appID)] {
            return (StorageScope(appID: appID, generation: generation), retired)
        }
        return (rotate(appID: appID), retired)
    }

    /// The retired scopes of `currentKeepingRecord(appID:)` are swept: the record goes once the file holds the
    /// rotation.
    @_optimize(size) func retiredScopesSwept(appID: String) {
        guard preferences.isWritten else { return }
        journal?.clear(appID: appID)
    }

    /// A fresh generation for `appID`; every preference of its earlier scopes (the pending identity: user ID,
    /// name, email, metadata, push token) is removed with it, in one write.
    @discardableResult
    @_optimize(size) func rotate(appID: String) -> StorageScope {
        let scope = StorageScope(appID: appID, generation: ids.makeID())
        // Write-ahead: the record exists before the file changes, so a write that fails leaves it behind.
        if let retired = preferences[key(appID)] {
            journal?.record(appID: appID, retired: retired, successor: scope.generation)
        }
        let written = preferences.change { values in
            Self.dropEarlier(than: scope, from: &values)
            values[key(appID)] = scope.generation
        }
        if written { journal?.clear(appID: appID) }
        return scope
    }

    /// Writes `preferences.json` again if a write failed, and forgets the recorded rotation once the file holds it
    /// (the app became active again: the disk may have room now).
    @_optimize(size) func retryUnwrittenRotation(appID: String) {
        guard !preferences.isWritten else { return }
        if preferences.writeIfUnwritten() { journal?.clear(appID: appID) }
    }

    /// Removes the preferences of every scope of `scope.appID` except `scope`.
    /// Removes the preferences of scopes earlier than `scope`. A loop, not a `filter` closure (Docs/Footprint.md,
    /// "Loops for one-off closures").
    @_optimize(size) static func dropEarlier(than scope: StorageScope, from values: inout [String: String]) {
        var kept: [String: String] = [:]
        for (name, value) in values where !isEarlier(name, than: scope) { kept[name] = value }
        values = kept
    }

    @_optimize(size) func removeEarlierScopes(of scope: StorageScope) {
        preferences.removeAll { Self.isEarlier($0, than: scope) }
    }

    /// A rotation recorded but maybe not written: the generation becomes the recorded successor unless the file
    /// already moved on (its generation is neither missing nor retired) and every other scope's preferences go.
    /// Returns the retired scopes to sweep (`nil` without a record); the record stays until they are swept.
    @_optimize(size) private func completeRecordedRotation(appID: String) -> [StorageScope]? {
        guard let journal, let entry = journal.entry(appID: appID) else { return nil }
        let stored = preferences[key(appID)]
        let generation = stored.flatMap { entry.retired.contains($0) ? nil : $0 } ?? entry.successor
        let scope = StorageScope(appID: appID, generation: generation)
        preferences.change { values in
            Self.dropEarlier(than: scope, from: &values)
            values[key(appID)] = generation
        }
        if stored != generation { logger.write(.info, "a storage rotation preferences.json had missed was completed") }
        return entry.retired.filter { $0 != generation }.map { StorageScope(appID: appID, generation: $0) }
    }

    /// A key of another scope of the same App ID (App IDs have one length, so no App ID is a prefix of another);
    /// the generation key itself is not one.
    /// Never inlined: the removal's closure calls it, and closures are compiled at -O (Docs/Footprint.md).
    @inline(never) @_optimize(size) private static func isEarlier(_ key: String, than scope: StorageScope) -> Bool {
        key.hasPrefix(scope.appID) && key != "\(scope.appID).generation" && !key.hasPrefix(scope.key + ".")
    }

    /// Makes namespaces over `preferences`, recording rotations in `journal` when one is given.
    @_optimize(size) package init(
        preferences: FilePreferences, idGenerator: any IDGenerating, journal: RotationJournal? = nil,
        logger: ReceptionLogger = .silent
    ) {
        self.preferences = preferences
        self.ids = idGenerator
        self.journal = journal
        self.logger = logger
    }
}
