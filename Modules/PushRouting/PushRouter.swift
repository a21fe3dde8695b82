import Digest
import Foundation
import ReceptionCore

/// The host-facing push surface (spec 7.16, seed 002): `setPushToken(_:environment:)` and
/// `handlePushNotification(userInfo:openChat:)`. It stages, recognises and requests; the facade's hooks do the
/// network work and the presentation, so this module imports neither the unread monitor nor the transport.
@MainActor
public final class PushRouter {
    /// Why an unread refresh is requested.
    public enum RefreshReason: Sendable, Hashable {
        /// A new push token was staged on an activated session.
        case pushTokenChanged
        /// A support notification was forwarded.
        case notificationForwarded
    }

    /// What the router asks of the rest of the SDK.
    public struct Hooks: Sendable {
        /// Whether `configure(appId:)` has run (calls before it are ignored).
        public var isConfigured: @MainActor @Sendable () -> Bool
        /// Whether the current session's device is registered and its chat started (spec 7.2).
        public var isSessionActivated: @Sendable () async -> Bool
        /// `PATCH devices/me` with the staged token, for the current session.
        public var updateDevice: @Sendable () async throws(ReceptionError) -> Void
        /// Requests an unread refresh of the current session (the monitor skips an unused one).
        public var refreshUnread: @Sendable (RefreshReason) async -> Void
        /// Requests the SDK chat sheet for the current session.
        public var presentChat: @MainActor @Sendable () -> Void

        /// Makes hooks.
        @inline(never) @_optimize(size) public init(
            isConfigured: @escaping @MainActor @Sendable () -> Bool,
            isSessionActivated: @escaping @Sendable () async -> Bool,
            updateDevice: @escaping @Sendable () async throws(ReceptionError) -> Void,
            refreshUnread: @escaping @Sendable (RefreshReason) async -> Void,
            presentChat: @escaping @MainActor @Sendable () -> Void
        ) {
            self.isConfigured = isConfigured
            self.isSessionActivated = isSessionActivated
            self.updateDevice = updateDevice
            self.refreshUnread = refreshUnread
            self.presentChat = presentChat
        }
    }

    /// The staged token, shared with the device payload builder.
    public nonisolated let stage: PushTokenStage
    private let resolver: any PushEnvironmentResolving
    private let hooks: Hooks
    private let logger: ReceptionLogger
    /// The follow-up work, one item after the other.
    private var work: Task<Void, Never>?
    /// Bumped by logout, so follow-ups queued for the previous session do nothing.
    private var generation = 0

    /// A router staging into `stage`, resolving `automatic` with `resolver`.
    @inline(never) @_optimize(size) public init(
        stage: PushTokenStage = PushTokenStage(), resolver: any PushEnvironmentResolving, hooks: Hooks,
        logger: ReceptionLogger = ReceptionLogger(category: "Push")
    ) {
        self.stage = stage
        self.resolver = resolver
        self.hooks = hooks
        self.logger = logger
    }

    /// Spec 7.16: stages the APNs token as lower-case hex with its environment. Ignored before configure, for an
    /// empty token, and when the environment cannot be resolved. A changed token on an activated session starts a
    /// device update and an unread refresh; otherwise it waits for the device update after registration.
    @inline(never)
    @_optimize(size) public func setPushToken(_ token: Data, environment: PushEnvironmentChoice = .automatic) {
        guard hooks.isConfigured() else {
            logger.write(.info, "push token ignored: Reception is not configured")
            return
        }
        guard !token.isEmpty else {
            logger.write(.info, "push token ignored: empty")
            return
        }
        guard let resolved = environment.resolve(with: resolver) else {
            logger.write(.info, "push token ignored: the APNs environment could not be resolved")
            return
        }
        guard stage.stage(StagedPushToken(token: Hex.encode(token), environment: resolved)) else { return }
        let hooks = self.hooks
        let logger = self.logger
        enqueue {
            guard await hooks.isSessionActivated() else { return }
            do throws(ReceptionError) {
                try await hooks.updateDevice()
            } catch {
                logger.write(.info, "push token update failed (\(error.code)); the next device update carries it")
            }
            await hooks.refreshUnread(.pushTokenChanged)
        }
    }

    /// Spec 7.16: `true` when `userInfo["reception"]["conversationId"]` is a non-empty string. Then the chat of
    /// the current session is requested (unless `openChat` is false, as for a foreground receipt) and an unread
    /// refresh follows. The ID selects nothing: after a logout an old notification opens the new, empty session and
    /// cannot restore the previous one.
    @inline(never)
    @_optimize(size) public func handlePushNotification(userInfo: [AnyHashable: Any], openChat: Bool = true) -> Bool {
        guard PushPayload.isSupportNotification(userInfo) else { return false }
        guard hooks.isConfigured() else { return true }
        if openChat { hooks.presentChat() }
        let hooks = self.hooks
        enqueue { await hooks.refreshUnread(.notificationForwarded) }
        return true
    }

    /// Spec 7.15: logout clears the staged token; queued follow-ups of the old session are dropped.
    @inline(never) @_optimize(size) public func logout() {
        generation += 1
        stage.clear()
    }

    /// Waits until every queued follow-up finished.
    @inline(never) @_optimize(size) func waitUntilIdle() async {
        while let current = work {
            await current.value
            if work == current { work = nil }
        }
    }

    @inline(never) @_optimize(size) private func enqueue(_ operation: @escaping @Sendable () async -> Void) {
        let previous = work
        let generation = self.generation
        work = Task { [weak self] in
            await previous?.value
            guard let self, self.generation == generation else { return }
            await operation()
        }
    }
}
