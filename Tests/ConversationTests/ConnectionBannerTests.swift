import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

/// Spec 7.18, on the manual clock.
@Suite("ConnectionBannerTests")
struct ConnectionBannerTests {
    /// An open chat with a conversation, its stream connected and the banner settled to hidden.
    private func connectedChat() async -> EngineHarness {
        let h = await EngineHarness(conversationExists: true)
        await h.open()
        _ = await eventually { await h.service.openStreams == 1 }
        await h.elapse(seconds: 1)
        return h
    }

    private func banner(_ h: EngineHarness) async -> ConnectionBanner { await h.snapshot.banner }

    @Test("hidden for a chat that was never used, whatever the path does")
    func hiddenWhenUnused() async {
        let h = await EngineHarness(conversationExists: true, startedChat: false)
        await h.open()
        await h.engine.setNetworkAvailable(false)
        #expect(await banner(h) == .hidden)
        await h.engine.setNetworkAvailable(true)
        await h.elapse(seconds: 2)
        #expect(await banner(h) == .hidden)
    }

    @Test("opening a healthy chat shows nothing: the stream connects within the grace period")
    func quietOpen() async {
        let h = await EngineHarness(conversationExists: true)
        await h.open()
        #expect(await banner(h) == .hidden)
        #expect(await eventually { await h.service.openStreams == 1 })
        await h.elapse(seconds: 4)
        #expect(await banner(h) == .hidden)
    }

    @Test("a halted session hides the banner, even offline")
    func hiddenWhenHalted() async {
        let h = await connectedChat()
        await h.engine.setNetworkAvailable(false)
        #expect(await banner(h) == .offline)
        await h.engine.haltChanged(.blocked)
        #expect(await banner(h) == .hidden)
        await h.engine.setNetworkAvailable(true)
        await h.elapse(seconds: 2)
        #expect(await banner(h) == .hidden)
    }

    @Test("no path shows offline; the path returning shows connecting at once, then connected for 3 s")
    func offlineConnectingConnected() async {
        let h = await connectedChat()
        await h.engine.setNetworkAvailable(false)
        #expect(await banner(h) == .offline)
        await h.elapse(seconds: 5)
        #expect(await banner(h) == .offline, "offline has no timer")
        await h.service.hold("events")
        await h.engine.setNetworkAvailable(true)
        #expect(await banner(h) == .connecting, "coming from offline: no grace period")
        #expect(await eventually { await h.service.waitingCount("events") == 1 })
        await h.service.release("events")
        #expect(await eventually { await h.snapshot.banner == .connected })
        await h.elapse(seconds: 2.5)
        #expect(await banner(h) == .connected)
        await h.elapse(seconds: 0.5)
        #expect(await banner(h) == .hidden)
    }

    @Test("a stream dropped while online shows connecting only after the 1 s grace")
    func graceBeforeConnecting() async {
        let h = await connectedChat()
        await h.service.hold("events")
        await h.service.dropStream()
        await settle()
        #expect(await banner(h) == .hidden)
        await h.elapse(seconds: 0.5)
        #expect(await banner(h) == .hidden)
        await h.elapse(seconds: 0.5)
        #expect(await banner(h) == .connecting)
        await h.service.release("events")
        // The reconnect waits for the stream budget's backoff; "Connected" follows the connection.
        var seen: [ConnectionBanner] = []
        for _ in 0..<20 where seen.last != .connected {
            await h.elapse(seconds: 0.5)
            seen.append(await banner(h))
        }
        #expect(seen.last == .connected)
        #expect(Set(seen).isSubset(of: [.connecting, .connected]))
    }

    @Test("a short blip stays invisible: the stream reconnects within the grace")
    func blipInvisible() async {
        let h = await connectedChat()
        await h.service.signal(.reconnect)
        #expect(await eventually { await h.service.openStreams == 2 })
        for _ in 0..<8 {
            await h.elapse(seconds: 0.5)
            #expect(await banner(h) == .hidden)
        }
    }

    @Test("a stream, requests or session wait shows paused; the stream coming back shows connected",
          arguments: [RetryScope.stream, .requests, .session])
    func pausedOnCooldown(scope: RetryScope) async {
        let h = await connectedChat()
        await h.service.fail("events", with: ReceptionError(
            code: "rate_limited", status: 429, retryAfter: 30, retryScope: scope))
        await h.service.signal(.reconnect)
        #expect(await eventually { await h.snapshot.banner == .paused })
        await h.elapse(seconds: 20)
        #expect(await banner(h) == .paused)
        await h.elapse(seconds: 11)
        #expect(await eventually { await h.snapshot.banner == .connected })
        await h.elapse(seconds: 3)
        #expect(await banner(h) == .hidden)
    }

    @Test("a messages or uploads wait never touches the banner", arguments: [RetryScope.messages, .uploads])
    func otherWaitsIgnored(scope: RetryScope) async {
        let h = await connectedChat()
        _ = h.cooldowns.record(scope: scope, seconds: 30, now: h.clock.now)
        await h.service.hold("events")
        await h.service.dropStream()
        await h.elapse(seconds: 1)
        #expect(await banner(h) == .connecting)
    }

    @Test("closing the chat hides the banner unless it shows offline")
    func closingHides() async {
        let h = await connectedChat()
        await h.service.hold("events")
        await h.service.dropStream()
        await h.elapse(seconds: 1)
        #expect(await banner(h) == .connecting)
        await h.engine.setVisible(false)
        #expect(await banner(h) == .hidden)
        await h.elapse(seconds: 2)
        #expect(await banner(h) == .hidden)

        await h.engine.setNetworkAvailable(false)
        await h.open()
        #expect(await banner(h) == .offline)
        await h.engine.setVisible(false)
        #expect(await banner(h) == .offline)
    }
}
