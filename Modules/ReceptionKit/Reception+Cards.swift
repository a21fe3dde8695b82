import Conversation
import Foundation
import ReceptionCore
import Transport

/// Spec 7.21: the registration rules of a host's paywall list — trimmed, `id` 1–64 units of `[A-Za-z0-9_.-]`, title
/// 1–60 units, first occurrence of an ID wins, at most 20 entries. Invalid entries are dropped.
enum PaywallRules {
    @inline(never) @_optimize(size) static func validated(_ paywalls: [ReceptionPaywall]) -> [ReceptionPaywall] {
        var seen = Set<String>()
        var kept: [ReceptionPaywall] = []
        for paywall in paywalls {
            let id = paywall.id.trimmingCharacters(in: .whitespacesAndNewlines)
            let title = paywall.title.trimmingCharacters(in: .whitespacesAndNewlines)
            guard Limits.paywallId.admits(id), Limits.paywallTitle.admits(title),
                  id.utf8.allSatisfy({ byte in
                      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                          || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                          || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                          || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
                  }),
                  !seen.contains(id), kept.count < Limits.paywalls
            else { continue }
            seen.insert(id)
            kept.append(ReceptionPaywall(id: id, title: title))
        }
        return kept
    }
}

extension Reception {
    // MARK: - Paywalls (spec 7.21)

    /// Every paywall your app can present from a paywall card. Setting it validates the list (spec 7.21: trimmed,
    /// invalid and duplicate IDs dropped, at most 20), so reading gives what was kept. Without
    /// `paywallAvailability` all of them are available; the available list is synchronised to the service.
    @inline(never) @_optimize(size) public var paywalls: [ReceptionPaywall] {
        get { cards.registered }
        set {
            cards.register(newValue)
            refreshPaywalls(invalidate: false)
        }
    }

    /// Registers the paywalls your app can present from a paywall card (the earlier form of `paywalls`).
    @available(*, deprecated, renamed: "paywalls")
    @inline(never) @_optimize(size) public func setPaywalls(_ paywalls: [ReceptionPaywall]) {
        self.paywalls = paywalls
    }

    /// Re-checks which registered paywalls are available. `invalidate` empties the list at once (logout, a
    /// subscription change); otherwise the current list stays while checking. Only the latest check publishes.
    @inline(never) @_optimize(size) public func refreshPaywalls(invalidate: Bool = false) {
        if invalidate { availablePaywalls = [] }
        let check = cards.beginCheck()
        let registered = cards.registered
        guard let availability = paywallAvailability else {
            availablePaywalls = registered
            preferencesChanged()
            return
        }
        Task { [weak self] in
            var available: [ReceptionPaywall] = []
            for paywall in registered where await availability(paywall.id) { available.append(paywall) }
            guard let self, self.cards.isLatest(check) else { return }
            self.availablePaywalls = available
            self.preferencesChanged()
        }
    }

    // MARK: - Card taps

    /// The person tapped a card's button. A review card with a usable link opens it (through
    /// `ReceptionConfiguration.openURL`) and emits `.reviewOpened`; an available paywall card calls `onPaywall` and
    /// emits `.paywallOpened`. Either records the click for the team's receipt. Returns `false` when the card can
    /// do nothing: a review without a link, or a paywall that is no longer available (show "No longer available").
    @discardableResult
    @inline(never) @_optimize(size) public func tapCard(_ message: ChatMessage) -> Bool {
        guard let (session, _) = configured("tapCard") else { return false }
        switch message.kind {
        case .review:
            guard let link = message.reviewUrl, let url = URL(string: link),
                  let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
            recordActionClick(message.id, session: session)
            onEvent?(.reviewOpened)
            configuration.openURL(url)
            return true
        case .paywall:
            guard let id = message.paywallId, let onPaywall, availablePaywallIDs.contains(id) else { return false }
            // A second tap while the screen the first one asked for is still on its way (a double tap): the same
            // tap, not a second paywall stacked on the first (issue 50).
            guard !hostScreens.isBusy else { return true }
            recordActionClick(message.id, session: session)
            onEvent?(.paywallOpened)
            onPaywall(id)
            return true
        default:
            return false
        }
    }

    /// Spec 4.2: the paywalls an offer card can open now: the available ones while `onPaywall` is set, else none.
    /// `tapCard(_:)` and the chat screen's disabled "No longer available" state both read it.
    @inline(never) @_optimize(size) package var availablePaywallIDs: Set<String> {
        onPaywall == nil ? [] : Set(availablePaywalls.map(\.id))
    }

    /// Spec 7.21: the click is queued (persisted, de-duplicated) and the queue is flushed in order.
    @inline(never) @_optimize(size) func recordActionClick(_ messageId: String, session: ReceptionSession) {
        try? session.store.updateSessionState { state in
            if !state.pendingActionClicks.contains(messageId) { state.pendingActionClicks.append(messageId) }
        }
        flushActionClicks(session)
    }

    /// Sends queued clicks one at a time; success or 404 `action_not_found` removes the head, another failure
    /// leaves the queue for the next flush (after a device update, a new click, or a relaunch).
    @inline(never) @_optimize(size) func flushActionClicks(_ session: ReceptionSession) {
        let store = session.store
        let client = session.client
        cards.chainClickFlush { previous in
            Task { await Self.reportActionClicks(after: previous, store: store, client: client) }
        }
    }

    /// Reports the stored card taps, oldest first, once the flush before has ended: a tap leaves the list when the
    /// service took it, or answered 404 `action_not_found`; any other failure leaves it for the next flush. A named
    /// function rather than the task's closure, so it is compiled for size (a closure is not: Docs/Footprint.md).
    @inline(never) @_optimize(size) private static func reportActionClicks(
        after previous: Task<Void, Never>?, store: SessionStore, client: ReceptionAPIClient
    ) async {
        await previous?.value
        while let head = (try? store.sessionState())?.pendingActionClicks.first {
            do throws(ReceptionError) {
                try await client.actionClick(messageId: head)
            } catch {
                guard error.status == 404, error.code == ReceptionError.Code.actionNotFound else { return }
            }
            try? store.updateSessionState { Self.dropActionClick(head, from: &$0) }
        }
    }

    /// Removes the click reported for `messageID` from the queue. Never inlined: the store's update closure calls
    /// it, and closures are compiled at -O (Docs/Footprint.md).
    @inline(never)
    @_optimize(size) private static func dropActionClick(_ messageID: String, from state: inout SessionState) {
        state.pendingActionClicks.removeAll { $0 == messageID }
    }
}
