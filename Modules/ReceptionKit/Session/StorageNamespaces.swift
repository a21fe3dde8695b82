import Foundation
import ReceptionCore

/// Spec 7.1 step 4 and 7.15: every per-session key lives under `scope = appId + generation`, and the generation is
/// rotated on logout, session revocation and data deletion, so nothing of the previous session is reachable even
/// where deleting it failed.
package struct StorageNamespaces: Sendable {
    package let preferences: FilePreferences
    package let ids: any IDGenerating

    private func key(_ appID: String) -> String { "\(appID).generation" }

    /// The current scope of `appID`, creating its first generation on first use.
    package func current(appID: String) -> StorageScope {
        if let generation = preferences[key(appID)] { return StorageScope(appID: appID, generation: generation) }
        return rotate(appID: appID)
    }

    /// A fresh generation for `appID`; every preference of its earlier scopes (the pending identity: user ID,
    /// name, email, metadata, push token) is removed with it.
    @discardableResult
    package func rotate(appID: String) -> StorageScope {
        let generation = ids.makeID()
        preferences[key(appID)] = generation
        let scope = StorageScope(appID: appID, generation: generation)
        removeEarlierScopes(of: scope)
        return scope
    }

    /// Removes the preferences of every scope of `scope.appID` except `scope` (App IDs have one length, so no
    /// App ID is a prefix of another).
    package func removeEarlierScopes(of scope: StorageScope) {
        let appID = scope.appID
        let generationKey = key(appID)
        let current = scope.key + "."
        preferences.removeAll { $0.hasPrefix(appID) && $0 != generationKey && !$0.hasPrefix(current) }
    }
}

extension StorageNamespaces {
    /// Makes namespaces over `preferences`.
    package init(preferences: FilePreferences, idGenerator: any IDGenerating) {
        self.preferences = preferences
        self.ids = idGenerator
    }
}
