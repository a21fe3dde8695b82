import Foundation
import ReceptionCore
#if canImport(UIKit)
import UIKit
#endif

extension Reception {
    /// The revision of the published appearance the chat shows, `nil` while none is known or remote appearance is
    /// off.
    @inline(never) @_optimize(size)
    public var remoteAppearanceRevision: Int? { usesRemoteAppearance ? appearanceSlot.shown?.revision : nil }

    /// Spec 7.1 step 3 and 7.20: load this App ID's cached appearance, show it, and start the refresh loop.
    /// `cached` is what the launch read from `cache` off the main actor.
    @inline(never)
    @_optimize(size) func startAppearance(appID: String, cache: AppearanceCache, cached: RemoteAppearance?) {
        let refresher = AppearanceRefresher(
            .init(
                fetch: { [weak self] etag throws(ReceptionError) -> AppearanceFetch in
                    guard let client = await self?.session?.client else { throw ReceptionError(code: ReceptionError.Code.cancelled) }
                    return try await client.appearance(etag: etag)
                },
                published: { [weak self] appearance in await self?.appearancePublished(appearance, appID: appID) },
                clock: configuration.clock, random: configuration.random, logger: logger("Appearance")),
            active: foreground.isActive, enabled: usesRemoteAppearance)
        appearanceSlot.start(cache: cache, cached: cached, refresher: refresher)
        resolveAppearance()
        refresher.post(.start)
    }

    /// A fetched appearance: cached at once, shown now unless the chat is open (it is not restyled mid-session).
    @inline(never) @_optimize(size) func appearancePublished(_ appearance: RemoteAppearance, appID: String) {
        guard appID == self.appID else { return }
        if appearanceSlot.publish(appearance, appID: appID, chatOpen: isChatOpen) { resolveAppearance() }
    }

    /// `usesRemoteAppearance` changed: the loop follows, and the chat shows the host's appearance alone, or merged.
    @inline(never) @_optimize(size) func remoteAppearanceSwitched() {
        let refresher = appearanceRefresher
        let enabled = usesRemoteAppearance
        refresher?.post(.enabled(enabled))
        resolveAppearance()
    }

    /// `chatAppearance` = `appearance`, with the shown published appearance laid over it when remote is on.
    @inline(never) @_optimize(size) func resolveAppearance() {
        guard usesRemoteAppearance, let shownAppearance = appearanceSlot.shown,
              let imagesBase = try? endpoint?.url(path: "appearance/images") else {
            chatAppearance = appearance
            chat?.texts = chatTexts
            return
        }
        let context = AppearanceMergeContext(
            appLanguage: appLanguage, uiLanguage: chatLanguage, imagesBase: imagesBase, canDraw: Self.canDrawSymbol)
        chatAppearance = appearance.merged(with: shownAppearance, context: context)
        chat?.texts = chatTexts
    }

    /// Spec 7.20: "a symbol the OS cannot draw is ignored".
    nonisolated static let canDrawSymbol: @Sendable (String) -> Bool = { name in
        #if canImport(UIKit)
        return UIImage(systemName: name) != nil
        #else
        return SymbolNames.looksDrawable(name)
        #endif
    }

    /// Follows the configured lifecycle monitor, as if the host called `appDidBecomeActive()` and
    /// `appDidEnterBackground()` itself (an inactive app counts as not active, as for the chat engine).
    @inline(never) @_optimize(size) func observeLifecycle() {
        guard let lifecycle = configuration.lifecycle else { return }
        foreground.follow(Task { [weak self] in
            for await state in lifecycle.lifecycleUpdates() {
                guard let self else { return }
                if state == .active { self.appDidBecomeActive() } else { self.appDidEnterBackground() }
            }
        })
    }
}
