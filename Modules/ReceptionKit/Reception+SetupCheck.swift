import Conversation
import Foundation
import ReceptionCore

/// The outcome of `Reception.runSetupCheck(appId:)` (spec 7.23).
public indirect enum SetupCheckResult: Sendable, Hashable {
    /// "Hello from setup" reached the service.
    case passed
    /// The check failed for a reason of spec 7.23: `app_id_mismatch`, `app_not_active`, `send_not_allowed`,
    /// `not_delivered`, `timeout`.
    case failed(reason: String)

    /// Hashes the case only; `==` compares the values too, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
        switch self {
        case .passed: hasher.combine(0)
        case .failed: hasher.combine(1)
        }
    }
}

extension Reception {
    /// Checks the integration end to end against the configured service (spec 7.23): the App ID given must be the
    /// configured one, the app must become active within 60 s, then "Hello from setup" goes through the normal send
    /// path and must be confirmed within 60 s overall. Polls every 200 ms; runs at most once per `Reception`.
    /// The result is also logged under the `SetupCheck` category. Use it in a debug build with a development App ID.
    @inline(never) @_optimize(size) public func runSetupCheck(appId: String) async -> SetupCheckResult {
        let log = logger("SetupCheck")
        let result = await performSetupCheck(appId: appId)
        switch result {
        case .passed: log.write(.info, "setup check passed")
        case .failed(let reason): log.write(.error, "setup check failed: \(reason)")
        }
        return result
    }

    @inline(never) @_optimize(size) private func performSetupCheck(appId: String) async -> SetupCheckResult {
        guard !setupCheckRan else { return .failed(reason: ReceptionError.Code.timeout.rawValue) }
        setupCheckRan = true
        await waitUntilReady()
        guard isConfigured, appId == appID else { return .failed(reason: ReceptionError.Code.appIDMismatch.rawValue) }
        let clock = configuration.clock
        let budget = configuration.setupCheckBudget
        let start = clock.uptime
        let poll = Duration.milliseconds(200)
        while !foreground.isActive {
            if clock.uptime - start >= budget { return .failed(reason: ReceptionError.Code.appNotActive.rawValue) }
            try? await clock.sleep(for: poll)
        }
        var messageID: String?
        while messageID == nil {
            if let engine = chat?.engine {
                await engine.setDraft("Hello from setup")
                messageID = await engine.send()
                if messageID == nil, await engine.snapshot.composer.availability != .open {
                    return .failed(reason: ReceptionError.Code.sendNotAllowed.rawValue)
                }
            }
            if messageID == nil {
                if clock.uptime - start >= budget { return .failed(reason: ReceptionError.Code.timeout.rawValue) }
                try? await clock.sleep(for: poll)
            }
        }
        while clock.uptime - start < budget {
            if let engine = chat?.engine, let id = messageID,
               let message = await engine.snapshot.messages.first(where: { $0.id == id }) {
                if message.status == .sent { return .passed }
                if message.status == .notDelivered { return .failed(reason: ReceptionError.Code.notDelivered.rawValue) }
            }
            try? await clock.sleep(for: poll)
        }
        return .failed(reason: ReceptionError.Code.timeout.rawValue)
    }
}
