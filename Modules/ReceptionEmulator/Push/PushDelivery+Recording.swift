import Foundation

/// The values of `push_outbox.delivery`.
enum PushDeliveryState {
    /// Written to the outbox only: no APNs key was saved (simulated credentials).
    static let outbox = "outbox"
    /// Handed to the provider; attempts follow.
    static let queued = "queued"
    /// APNs answered 200.
    static let delivered = "delivered"
    /// APNs answered 410 or 400 `BadDeviceToken`; the device's token was dropped.
    static let tokenDropped = "token_dropped"
    /// Any other final answer, or retries used up.
    static let rejected = "rejected"
}

extension ReceptionEmulator {
    /// Wires the provider's worker to the state: jobs go to it, attempts and outcomes come back under the lock.
    func connectPushDelivery() {
        let delivery = pushDelivery
        state.withLock { $0.pushQueued = { job in delivery.enqueue(job) } }
        delivery.observe(
            attempt: { [weak self] attempt in self?.recordPushAttempt(attempt) },
            finished: { [weak self] job, outcome in
                self?.state.withLock { state in
                    // An outcome that cannot be written is lost; the attempts already recorded still show it.
                    try? state.finishPush(job, outcome)
                }
            })
    }

    /// Returns once every push queued so far has been delivered, refused or given up (tests; Docs/Emulator.md).
    package func waitForPushDeliveries() { pushDelivery.waitUntilIdle() }

    /// One attempt in the push outbox entry and in the request log (the token shortened as the dashboard shows it,
    /// no header values: never the provider token).
    private func recordPushAttempt(_ attempt: PushAttempt) {
        state.withLock { state in try? state.recordPushAttempt(attempt) }
        let answer = attempt.answer
        requestLog.record(
            RequestLog.Entry(
                method: "POST", path: "/3/device/…" + String(attempt.job.deviceToken.suffix(8)),
                query: ["host": String(attempt.host.prefix(128))], status: answer.status, errorCode: answer.reason,
                deviceId: attempt.job.deviceId, milliseconds: attempt.milliseconds, at: attempt.at,
                bodyBytes: attempt.job.payload.count, bodyKeys: RequestLog.bodyKeys(attempt.job.payload),
                apnsId: answer.apnsId, direction: RequestLog.apnsDirection))
    }
}

extension EmulatorState {
    /// How many attempts an outbox entry keeps (a job makes at most ``APNsBackoff/maximumAttempts`` plus one
    /// after renewing its provider token).
    static let attemptsKept = 10

    /// Appends `attempt` to its outbox entry, unless the entry was deleted meanwhile (the outbox emptied).
    func recordPushAttempt(_ attempt: PushAttempt) throws {
        let id = SQLValue.int(attempt.job.outboxId)
        guard let row = try db.row("SELECT attempts FROM push_outbox WHERE id = ?", [id]) else { return }
        var list = (try? JSONValue.parse(row.text("attempts") ?? "[]"))?.arrayValue ?? []
        let answer = attempt.answer
        list.append([
            "attempt": .int(Int64(attempt.number)), "at": InternetDate.json(attempt.at),
            "status": .int(Int64(answer.status)), "reason": .optional(answer.reason), "apnsId": .optional(answer.apnsId),
            "host": .string(attempt.host),
        ])
        let kept = JSONValue.array(Array(list.suffix(Self.attemptsKept)))
        try db.query(
            "UPDATE push_outbox SET attempts = ?, apns_id = COALESCE(?, apns_id) WHERE id = ?",
            [.text(kept.serialized()), .optional(answer.apnsId), id])
    }

    /// Records how a job ended: the entry's state; a delivery clears the device's rejection, anything else shows
    /// it until a delivery succeeds (seed 002); a dead token is dropped, unless the device sent a new one meanwhile.
    func finishPush(_ job: PushJob, _ outcome: PushOutcome) throws {
        let entry = SQLValue.int(job.outboxId)
        let device = SQLValue.text(job.deviceId)
        func rejection(_ status: Int, _ reason: String?, dropped: Bool) -> SQLValue {
            .text(
                JSONValue.object([
                    "status": .int(Int64(status)), "reason": .optional(reason), "at": InternetDate.json(now),
                    "tokenDropped": .bool(dropped),
                ]).serialized())
        }
        try db.transaction {
            switch outcome {
            case .delivered:
                try db.query("UPDATE push_outbox SET delivery = ? WHERE id = ?", [.text(PushDeliveryState.delivered), entry])
                try db.query("UPDATE devices SET push_rejection = NULL WHERE id = ?", [device])
            case .tokenDropped(let status, let reason):
                try db.query("UPDATE push_outbox SET delivery = ? WHERE id = ?", [.text(PushDeliveryState.tokenDropped), entry])
                try db.query(
                    "UPDATE devices SET push_token = NULL, push_environment = NULL WHERE id = ? AND push_token = ?",
                    [device, .text(job.deviceToken)])
                try db.query(
                    "UPDATE devices SET push_rejection = ? WHERE id = ?", [rejection(status, reason, dropped: true), device])
            case .rejected(let status, let reason):
                try db.query("UPDATE push_outbox SET delivery = ? WHERE id = ?", [.text(PushDeliveryState.rejected), entry])
                try db.query(
                    "UPDATE devices SET push_rejection = ? WHERE id = ?", [rejection(status, reason, dropped: false), device])
            }
        }
    }
}
