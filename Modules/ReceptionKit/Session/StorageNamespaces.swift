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
    /// name, email, metadata, push token) is removed with it, in one write.
    @discardableResult
    package func rotate(appID: String) -> StorageScope {
        let scope = StorageScope(appID: appID, generation: ids.makeID())
        preferences.change { values in
            values = values.filter { !Self.isEarlier($0.key, than: scope) }
            values[key(appID)] = scope.generation
        }
        return scope
    }

    /// Removes the preferences of every scope of `scope.appID` except `scope`.
    package func removeEarlierScopes(of scope: StorageScope) {
        preferences.removeAll { Self.isEarlier($0, than: scope) }
    }

    /// A key of another scope of the same App ID (App IDs have one length, so no App ID is a prefix of another);
    /// the generation key itself is not one.
    private static func isEarlier(_ key: String, than scope: StorageScope) -> Bool {
        key.hasPrefix(scope.appID) && key != "\(scope.appID).generation" && !key.hasPrefix(scope.key + ".")
    }
}

extension StorageNamespaces {
    /// Makes namespaces over `preferences`.
    package init(preferences: FilePreferences, idGenerator: any IDGenerating) {
        self.preferences = preferences
        self.ids = idGenerator
    }
}
