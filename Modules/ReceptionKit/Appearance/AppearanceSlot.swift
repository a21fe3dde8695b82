/// The facade's part for the published appearance (spec 7.20): this App ID's cache, the newest published
/// appearance, the one the chat shows, and the refresh loop. A published appearance is shown at once unless the
/// chat is open; an open chat shows the newest one only at its next opening.
final class AppearanceSlot {
    /// The cache of published appearances by App ID.
    private(set) var cache: AppearanceCache?
    /// The newest published appearance known.
    private(set) var published: RemoteAppearance?
    /// The published appearance the chat shows now.
    private(set) var shown: RemoteAppearance?
    /// The refresh loop of the current configuration.
    private(set) var refresher: AppearanceRefresher?

    /// A configure: the App ID's cached appearance (`cached`, read from `cache`) is the newest and is shown; the
    /// previous loop is ended.
    @inline(never) @_optimize(size)
    func start(cache: AppearanceCache, cached: RemoteAppearance?, refresher: AppearanceRefresher) {
        if let previous = self.refresher { Task { await previous.end() } }
        self.cache = cache
        published = cached
        shown = published
        self.refresher = refresher
    }

    /// A fetched appearance: cached, and shown unless the chat is open. Returns whether the shown one changed.
    @inline(never)
    @_optimize(size) func publish(_ appearance: RemoteAppearance, appID: String, chatOpen: Bool) -> Bool {
        cache?.save(appearance, appID: appID)
        published = appearance
        guard !chatOpen else { return false }
        shown = appearance
        return true
    }

    /// A chat opening shows the newest published appearance.
    @_optimize(size) func showNewest() { shown = published }
}
