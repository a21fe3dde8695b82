import Foundation
@testable import ReceptionCore
@testable import ReceptionKit
import ReceptionTesting
import Testing

/// Spec 7.20's refresh cadence, on a manual clock: what is fetched when, with which ETag, and when it stops.
@Suite("AppearanceRefreshTests")
struct AppearanceRefreshTests {
    /// Answers the refresher's fetches from a script and records each call's ETag and time.
    final class ScriptedAppearance: Sendable {
        struct Call: Equatable { let etag: String?; let at: Duration }
        private let state = Locked<(answers: [Result<AppearanceFetch, ReceptionError>], calls: [Call], published: [Int])>(
            ([], [], []))
        let clock: ManualClock

        init(clock: ManualClock) { self.clock = clock }

        func answer(_ answers: Result<AppearanceFetch, ReceptionError>...) { state.withLock { $0.answers += answers } }
        var calls: [Call] { state.withLock { $0.calls } }
        var published: [Int] { state.withLock { $0.published } }

        func fetch(_ etag: String?) throws(ReceptionError) -> AppearanceFetch {
            let next: Result<AppearanceFetch, ReceptionError> = state.withLock { state in
                state.calls.append(Call(etag: etag, at: clock.uptime))
                return state.answers.isEmpty ? .failure(ReceptionError(code: "appearance_unavailable", status: 404))
                    : state.answers.removeFirst()
            }
            return try next.get()
        }

        func publish(_ appearance: RemoteAppearance) { state.withLock { $0.published.append(appearance.revision) } }
    }

    static func updated(_ revision: Int, etag: String?) -> Result<AppearanceFetch, ReceptionError> {
        .success(.updated(appearance: Data(#"{"colorScheme":"dark"}"#.utf8), revision: revision, etag: etag))
    }

    static let unavailable = Result<AppearanceFetch, ReceptionError>.failure(
        ReceptionError(code: "appearance_unavailable", status: 503))

    func makeRefresher(active: Bool = true, enabled: Bool = true) -> (AppearanceRefresher, ScriptedAppearance, ManualClock) {
        let clock = ManualClock()
        let script = ScriptedAppearance(clock: clock)
        let refresher = AppearanceRefresher(
            .init(fetch: { etag throws(ReceptionError) in try script.fetch(etag) },
                  published: { script.publish($0) }, clock: clock, random: FixedRandomSource(), logger: .silent),
            active: active, enabled: enabled)
        return (refresher, script, clock)
    }

    /// Lets the refresher's task run until it sleeps or ends.
    func settle(_ refresher: AppearanceRefresher, _ clock: ManualClock) async {
        for _ in 0..<200 {
            await Task.yield()
            let running = await refresher.isRunning
            if clock.sleeperCount > 0 || !running { break }
        }
    }

    @Test func theFirstFetchIsUnconditionalThenEveryFiveMinutesWithTheETag() async {
        let (refresher, script, clock) = makeRefresher()
        script.answer(Self.updated(1, etag: "\"a\""), .success(.unchanged(etag: nil)), .success(.unchanged(etag: "\"b\"")),
                      Self.updated(2, etag: "\"c\""))
        await refresher.start()
        await clock.waitForSleepers(atLeast: 1)
        #expect(script.calls == [.init(etag: nil, at: .zero)])
        #expect(script.published == [1])
        await clock.advance(by: .seconds(299))
        #expect(script.calls.count == 1, "fetches are at least 300 s apart")
        await clock.advance(by: .seconds(1))
        await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .seconds(300))
        await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .seconds(300))
        await clock.waitForSleepers(atLeast: 1)
        #expect(script.calls == [
            .init(etag: nil, at: .zero), .init(etag: "\"a\"", at: .seconds(300)),
            .init(etag: "\"a\"", at: .seconds(600)), .init(etag: "\"b\"", at: .seconds(900)),
        ], "a 304 keeps the ETag, or replaces it with the one it brings")
        #expect(script.published == [1, 2], "an unchanged answer publishes nothing")
        await refresher.end()
    }

    @Test func failuresBackOffAndStopAfterEightUntilTheAppIsActiveAgain() async {
        let (refresher, script, clock) = makeRefresher()
        for _ in 0..<8 { script.answer(Self.unavailable) }
        await refresher.start()
        var times: [Duration] = []
        for _ in 0..<7 {
            await clock.waitForSleepers(atLeast: 1)
            times.append(clock.nextWake ?? .zero)
            await clock.advance(by: clock.nextWake ?? .zero)
        }
        await settle(refresher, clock)
        #expect(script.calls.count == 8)
        #expect(times == [2, 4, 8, 16, 32, 60, 60].map { Duration.seconds($0) }, "spec 6.2 backoff without jitter")
        #expect(await refresher.isRunning == false, "stopped after the 8th failed attempt")
        await clock.advance(by: .seconds(3600))
        #expect(script.calls.count == 8)
        script.answer(Self.updated(4, etag: nil))
        await refresher.appEnteredBackground()
        await refresher.appBecameActive()
        await clock.waitForSleepers(atLeast: 1)
        #expect(script.calls.count == 9, "the app becoming active starts a fresh budget")
        #expect(script.published == [4])
        await refresher.end()
    }

    @Test func aRateLimitPacesTheRetryWithItsRetryAfter() async {
        let (refresher, script, clock) = makeRefresher()
        script.answer(.failure(ReceptionError(code: "rate_limited", status: 429, retryAfter: 45)), Self.updated(1, etag: nil))
        await refresher.start()
        await clock.waitForSleepers(atLeast: 1)
        #expect(clock.nextWake == .seconds(45))
        await clock.advance(by: .seconds(45))
        await clock.waitForSleepers(atLeast: 1)
        #expect(script.calls.map(\.at) == [.zero, .seconds(45)])
        #expect(script.published == [1])
        await refresher.end()
    }

    @Test func aPermanentFailureStopsTheLoopEvenAcrossAForegroundUntilAHaltEnds() async {
        let (refresher, script, clock) = makeRefresher()
        script.answer(.failure(ReceptionError(code: "appearance_unavailable", status: 404)), Self.updated(1, etag: nil))
        await refresher.start()
        await settle(refresher, clock)
        #expect(script.calls.count == 1)
        #expect(await refresher.isRunning == false)
        #expect(clock.sleeperCount == 0)
        await refresher.appEnteredBackground()
        await refresher.appBecameActive()
        await settle(refresher, clock)
        #expect(script.calls.count == 1, "spec 6.2: a permanently failed budget stays stopped")
        // The service accepting the session again (a halt ending) starts afresh.
        await refresher.setHalted(true)
        await refresher.setHalted(false)
        await clock.waitForSleepers(atLeast: 1)
        #expect(script.calls.count == 2)
        #expect(script.published == [1])
        await refresher.end()
    }

    @Test func anInvalidPayloadIsIgnoredAndTheCadenceGoesOn() async {
        let (refresher, script, clock) = makeRefresher()
        script.answer(.failure(ReceptionError(code: "invalid_appearance", status: 200)), Self.updated(2, etag: nil))
        await refresher.start()
        await clock.waitForSleepers(atLeast: 1)
        #expect(clock.nextWake == .seconds(300), "as after a success")
        await clock.advance(by: .seconds(300))
        await clock.waitForSleepers(atLeast: 1)
        #expect(script.published == [2])
        await refresher.end()
    }

    @Test func aFetchCancelledByASessionChangeIsRepeatedThroughTheNewSession() async {
        let clock = ManualClock()
        let script = ScriptedAppearance(clock: clock)
        let holder = Locked<AppearanceRefresher?>(nil)
        let refresher = AppearanceRefresher(
            .init(fetch: { etag throws(ReceptionError) in
                      if script.calls.isEmpty {
                          // The facade replaces its session while this request runs; the old client cancels it.
                          _ = try? script.fetch(etag)
                          if let refresher = holder.withLock({ $0 }) { await refresher.sessionChanged() }
                          throw ReceptionError(code: "cancelled")
                      }
                      return try script.fetch(etag)
                  },
                  published: { script.publish($0) }, clock: clock, random: FixedRandomSource(), logger: .silent),
            active: true, enabled: true)
        holder.withLock { $0 = refresher }
        script.answer(.failure(ReceptionError(code: "unused", status: 500)), Self.updated(3, etag: nil))
        await refresher.start()
        await clock.waitForSleepers(atLeast: 1)
        #expect(script.calls.map(\.at) == [.zero, .zero], "repeated at once, not counted as a failure")
        #expect(script.published == [3])
        // Without a session change, a cancellation ends the loop (the facade is gone).
        await refresher.end()
    }

    @Test func theBackgroundStopsItAndAForegroundWithinFiveMinutesWaitsForTheRest() async {
        let (refresher, script, clock) = makeRefresher()
        script.answer(Self.updated(1, etag: "\"a\""), .success(.unchanged(etag: nil)))
        await refresher.start()
        await clock.waitForSleepers(atLeast: 1)
        await refresher.appEnteredBackground()
        #expect(await refresher.isRunning == false)
        await clock.advance(by: .seconds(120))
        await refresher.appBecameActive()
        await clock.waitForSleepers(atLeast: 1)
        #expect(script.calls.count == 1, "the last success was 120 s ago")
        #expect(clock.nextWake == .seconds(180))
        await clock.advance(by: .seconds(180))
        await clock.waitForSleepers(atLeast: 1)
        #expect(script.calls.map(\.at) == [.zero, .seconds(300)])
        await refresher.end()
    }

    @Test func nothingIsFetchedWhileHaltedDisabledOrInTheBackground() async {
        let (refresher, script, clock) = makeRefresher(active: false)
        script.answer(Self.updated(1, etag: nil))
        await refresher.start()
        await settle(refresher, clock)
        #expect(script.calls.isEmpty, "background")
        await refresher.setHalted(true)
        await refresher.appBecameActive()
        await settle(refresher, clock)
        #expect(script.calls.isEmpty, "halted")
        await refresher.setEnabled(false)
        await refresher.setHalted(false)
        await settle(refresher, clock)
        #expect(script.calls.isEmpty, "remote appearance off")
        await refresher.setEnabled(true)
        await clock.waitForSleepers(atLeast: 1)
        #expect(script.calls.count == 1, "the halt ended and remote appearance is on")
        await refresher.end()
        #expect(await refresher.isRunning == false)
        #expect(clock.sleeperCount == 0)
    }
}
