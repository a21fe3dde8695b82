import Digest
import Foundation

/// The last published appearance of each App ID (spec 7.17: plain preferences, key `sha256hex(appId)`, at most
/// 65,536 bytes), so a relaunch shows the dashboard's look before, or without, any network answer. It holds no user
/// data, so logout and deletion keep it; the ETag stays in memory (the first fetch after launch is unconditional).
struct AppearanceCache: Sendable {
    static let maximumBytes = AppearanceFetch.maximumBytes

    private let preferences: FilePreferences

    @_optimize(size) package init(preferences: FilePreferences) { self.preferences = preferences }

    /// The cached appearance of `appID`; `nil` when there is none, or it is damaged or too large.
    @inline(never) @_optimize(size) func load(appID: String) -> RemoteAppearance? {
        guard let text = preferences[Self.key(appID)], text.utf8.count <= Self.maximumBytes else { return nil }
        return try? JSONDecoder().decode(RemoteAppearance.self, from: UTF8Bytes.data(text))
    }

    /// Keeps `appearance` for `appID` (an envelope over the limit is not kept).
    @inline(never) @_optimize(size) func save(_ appearance: RemoteAppearance, appID: String) {
        guard let data = try? JSONEncoder().encode(appearance), data.count <= Self.maximumBytes else { return }
        preferences[Self.key(appID)] = String(decoding: data, as: UTF8.self)
    }

    @_optimize(size) static func key(_ appID: String) -> String { Hex.encode(SHA256.hash(Array(appID.utf8))) }
}
