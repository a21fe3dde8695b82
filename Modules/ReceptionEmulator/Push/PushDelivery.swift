import Foundation

/// One push to deliver: an outbox entry for one device, with the credentials saved when it was queued.
struct PushJob: Sendable {
    var outboxId: Int64
    var deviceId: String
    /// The device's push token (lower-case hex), the last path segment of the request.
    var deviceToken: String
    /// `SANDBOX` or `PRODUCTION`, as the device reported it.
    var environment: String?
    var payload: [UInt8]
    /// `apns-collapse-id`: set for test pushes, so a second test replaces the first on the phone.
    var collapseId: String?
    var credentials: APNsCredentials
}

/// One try of a job and what APNs answered, for the push inbox and the request log.
struct PushAttempt: Sendable {
    var job: PushJob
    /// 1-based.
    var number: Int
    var answer: APNsAnswer
    var host: String
    var at: Double
    var milliseconds: Double
}

/// How a job ended.
enum PushOutcome: Sendable, Equatable {
    /// 200: APNs accepted it (not proof that the phone showed it, seed 002).
    case delivered(apnsId: String?)
    /// 410 or 400 `BadDeviceToken`: the device's token was dropped.
    case tokenDropped(status: Int, reason: String?)
    /// Any other final answer, or retries used up.
    case rejected(status: Int, reason: String?)
}

/// The APNs provider's worker (Docs/Emulator.md "APNs provider"): jobs run one after another on a queue of their
/// own, never on a thread that answers requests, so a slow or failing APNs never holds up a client. Each job is
/// tried until APNs accepts it, refuses it for good, or ``APNsBackoff`` gives up; 403 for the provider token renews
/// the token and tries once more.
final class PushDelivery: Sendable {
    private let queue = DispatchQueue(label: "reception-emulator.apns-delivery")
    private let tokens = EmulatorLock(ProviderTokens())
    private let sender: any APNsSending
    private let hosts: APNsHosts
    private let now: @Sendable () -> Double
    private let sleep: @Sendable (Double) -> Void
    private let observers = EmulatorLock<Observers>(Observers())

    /// Who hears of attempts and outcomes (the emulator records them in its state).
    struct Observers {
        var attempt: @Sendable (PushAttempt) -> Void = { _ in }
        var finished: @Sendable (PushJob, PushOutcome) -> Void = { _, _ in }
    }

    init(
        sender: any APNsSending, hosts: APNsHosts, now: @escaping @Sendable () -> Double,
        sleep: @escaping @Sendable (Double) -> Void
    ) {
        self.sender = sender
        self.hosts = hosts
        self.now = now
        self.sleep = sleep
    }

    /// Sets who hears of attempts and outcomes.
    func observe(
        attempt: @escaping @Sendable (PushAttempt) -> Void,
        finished: @escaping @Sendable (PushJob, PushOutcome) -> Void
    ) {
        observers.withLock { $0 = Observers(attempt: attempt, finished: finished) }
    }

    /// Queues `job` and returns at once.
    func enqueue(_ job: PushJob) {
        queue.async { [self] in deliver(job) }
    }

    /// Returns once every job queued before the call has ended. Never call it while holding the emulator's state
    /// lock: the jobs take it to record what happened.
    func waitUntilIdle() {
        queue.sync {}
    }

    private func deliver(_ job: PushJob) {
        let observers = observers.withLock { $0 }
        var number = 0
        var renewed = false
        while true {
            number += 1
            let at = now()
            guard let token = tokens.withLock({ $0.token(for: job.credentials, now: at) }) else {
                observers.finished(job, .rejected(status: 0, reason: "the key could not sign a provider token"))
                return
            }
            let request = APNsRequest(job: job, token: token, hosts: hosts, now: at)
            let started = ContinuousClock.now
            let answer = sender.send(request)
            let elapsed = ContinuousClock.now - started
            let milliseconds =
                Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            observers.attempt(
                PushAttempt(
                    job: job, number: number, answer: answer, host: hosts.host(environment: job.environment), at: at,
                    milliseconds: milliseconds))
            switch answer.disposition {
            case .delivered:
                observers.finished(job, .delivered(apnsId: answer.apnsId))
                return
            case .dropToken:
                observers.finished(job, .tokenDropped(status: answer.status, reason: answer.reason))
                return
            case .renewProviderToken where !renewed:
                renewed = true
                tokens.withLock { $0.renew() }
            case .retry where number < APNsBackoff.maximumAttempts:
                sleep(APNsBackoff.delay(afterAttempt: number))
            case .renewProviderToken, .retry, .reject:
                observers.finished(job, .rejected(status: answer.status, reason: answer.reason))
                return
            }
        }
    }
}
