import Foundation
import ReceptionCore
import ReceptionTesting
import Testing

/// Spec 6.2 and 6.3.4.
@Suite("RetryTests")
struct RetryTests {
    @Test(arguments: [(1, 2.0), (2, 4.0), (3, 8.0), (4, 16.0), (5, 32.0), (6, 60.0), (7, 60.0), (50, 60.0), (0, 2.0)])
    func backoffBase(attempt: Int, seconds: Double) {
        #expect(Backoff.baseSeconds(attempt: attempt) == seconds)
    }

    @Test func jitterIsPlusMinus25PercentAfterTheCap() {
        #expect(Backoff.delay(attempt: 1, random: FixedRandomSource(0)) == .milliseconds(1500))
        #expect(Backoff.delay(attempt: 1, random: FixedRandomSource(0.5)) == .seconds(2))
        #expect(Backoff.delay(attempt: 9, random: FixedRandomSource(0.999_999_999)) <= .seconds(75))
        #expect(Backoff.delay(attempt: 9, random: FixedRandomSource(0.999_999_999)) > .milliseconds(74_990))
    }

    @Test func aBudgetStopsAfterTheEighthCountedAttempt() {
        var budget = RetryBudget()
        let random = FixedRandomSource()
        for attempt in 1...7 {
            budget.recordFailure(.connectionFailed(), random: random)
            #expect(!budget.isStopped && budget.attempts == attempt)
            #expect(budget.nextDelay == Backoff.delay(attempt: attempt, random: random))
        }
        budget.recordFailure(.connectionFailed(), random: random)
        #expect(budget.isStopped && budget.nextDelay == nil)
        budget.appBecameActive()
        #expect(!budget.isStopped && budget.attempts == 0, "a transiently stopped budget starts fresh when active")
    }

    @Test func aPermanentFailureStopsTheBudgetForGood() {
        var budget = RetryBudget()
        budget.recordFailure(ReceptionError(code: "invalid_attachment", status: 400), random: FixedRandomSource())
        #expect(budget.isStopped)
        budget.appBecameActive()
        #expect(budget.isStopped)
    }

    @Test func aRetryAfterOnTheErrorSetsTheNextDelay() {
        var budget = RetryBudget()
        budget.recordFailure(ReceptionError(code: "unavailable", status: 503, retryAfter: 9), random: FixedRandomSource())
        #expect(budget.nextDelay == .seconds(9) && budget.attempts == 1)
    }

    let t0 = Date(timeIntervalSince1970: 1_790_330_400)

    @Test func aLongerWaitIsNeverShortenedAndARepeatWithinOneSecondIsADuplicate() {
        let book = CooldownBook(now: t0)
        #expect(book.record(scope: .messages, seconds: 120, now: t0))
        #expect(!book.record(scope: .messages, seconds: 30, now: t0), "a shorter report never shortens")
        #expect(!book.record(scope: .messages, seconds: 120, now: t0.addingTimeInterval(0.8)), "one-second resolution")
        #expect(book.record(scope: .messages, seconds: 120, now: t0.addingTimeInterval(5)))
        #expect(book.changeCount(of: .messages) == 4)
        #expect(book.wait(for: [.messages], now: t0)?.remainingSeconds == 125)
    }

    @Test func theAutomaticFlagFollowsTheOriginalLength() {
        let book = CooldownBook(now: t0)
        book.record(scope: .messages, seconds: 600, now: t0)
        let late = book.wait(for: [.messages], now: t0.addingTimeInterval(590))
        #expect(late?.automatic == false && late?.remainingSeconds == 10)
        book.record(scope: .uploads, seconds: 60, now: t0)
        #expect(book.wait(for: [.uploads], now: t0)?.automatic == true)
    }

    @Test func theEffectiveWaitIsTheLatestAndAutomaticOnlyIfAllAre() {
        let book = CooldownBook(now: t0)
        book.record(scope: .messages, seconds: 20, now: t0)
        book.record(scope: .requests, seconds: 50, now: t0)
        var wait = book.wait(for: [.messages, .requests], now: t0)
        #expect(wait?.scope == .requests && wait?.remainingSeconds == 50 && wait?.automatic == true)
        book.record(scope: .uploads, seconds: 90, now: t0)
        wait = book.wait(for: [.messages, .uploads], now: t0)
        #expect(wait?.scope == .uploads && wait?.automatic == false)
        #expect(book.wait(for: [.stream], now: t0) == nil)
        #expect(book.wait(for: [.messages], now: t0.addingTimeInterval(20)) == nil, "an ended wait holds nothing")
        #expect(wait?.error == ReceptionError(code: "cooldown") && wait?.error.retryScope == .uploads)
    }

    @Test func aRemainingFractionRoundsUp() {
        let book = CooldownBook(now: t0)
        book.record(scope: .session, seconds: 5, now: t0)
        #expect(book.wait(for: [.session], now: t0.addingTimeInterval(4.8))?.remainingSeconds == 1)
    }

    @Test func storedWaitsAreClampedToOneDayAndExpiredOnesPruned() {
        let stored = [
            StoredCooldown(scope: .messages, until: t0.addingTimeInterval(10 * 86_400), automatic: false),
            StoredCooldown(scope: .uploads, until: t0.addingTimeInterval(-1), automatic: true),
        ]
        let book = CooldownBook(stored: stored, now: t0)
        #expect(book.active(now: t0).map(\.scope) == [.messages])
        #expect(book.wait(for: [.messages], now: t0)?.remainingSeconds == 86_400)
        // The clock set back by a week cannot stretch the wait beyond a day from the new now.
        let earlier = t0.addingTimeInterval(-7 * 86_400)
        #expect(book.wait(for: [.messages], now: earlier)?.remainingSeconds == 86_400)
    }

    @Test func everyChangeIsSavedAndRemoveAllClears() {
        let saved = SavedList()
        let book = CooldownBook(now: t0) { saved.set($0) }
        book.record(scope: .stream, seconds: 30, now: t0)
        #expect(saved.value == [StoredCooldown(scope: .stream, until: t0.addingTimeInterval(30), automatic: true)])
        book.applyRecheck(scope: .stream, seconds: 200, now: t0)
        #expect(saved.value.first?.automatic == false, "a re-set wait is never automatic")
        book.applyRecheck(scope: .stream, seconds: 0, now: t0)
        #expect(saved.value.isEmpty)
        book.record(scope: .messages, seconds: 30, now: t0)
        book.removeAll()
        #expect(saved.value.isEmpty && book.active(now: t0).isEmpty)
        #expect(book.nextDeadline(now: t0) == nil)
    }
}

final class SavedList: Sendable {
    private let state = Locked<[StoredCooldown]>([])
    func set(_ value: [StoredCooldown]) { state.withLock { $0 = value } }
    var value: [StoredCooldown] { state.withLock { $0 } }
}
