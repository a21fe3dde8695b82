import Conversation
import Foundation
import Identity
import PushRouting
import ReceptionCore
import Transport
import Unread

/// Linux and other hosts without an app badge: nothing to write.
struct NoBadge: BadgeSink {
    @_optimize(size) func setBadge(_ count: Int) async {}
}

/// Hosts without a notification centre: nothing delivered, nothing to remove.
struct NoNotifications: NotificationStore {
    @_optimize(size) func deliveredNotifications() async -> [DeliveredNotification] { [] }
    @_optimize(size) func removeDeliveredNotifications(withIdentifiers identifiers: [String]) async {}
}

/// Hosts that cannot show notifications: permission never granted, so unread polling never pauses for push.
struct NoNotificationPermission: NotificationPermissionReading {
    @_optimize(size) func authorization() async -> NotificationAuthorization { .notDetermined }
}

extension Reception {
    /// The unread monitor of this `Reception` (one per configuration; sessions come and go under it).
    @inline(never) @_optimize(size) func makeUnreadMonitor(_ configuration: ReceptionConfiguration) -> UnreadMonitor {
        UnreadMonitor(
            count: unreadModel,
            dependencies: .init(
                badge: configuration.badge, notifications: configuration.notifications,
                permission: configuration.notificationPermission, clock: configuration.clock,
                random: configuration.random, logger: logger("Unread")),
            appActive: foreground.isActive, updatesAppBadge: updatesAppBadge)
    }

    /// Hands the new session to the unread monitor (spec 7.11): its service, what it knows, where it saves.
    @inline(never) @_optimize(size) func attachUnread(_ session: ReceptionSession, monitor: UnreadMonitor) async {
        let store = session.store
        let engine = session.engine
        let state = (try? store.sessionState()) ?? SessionState()
        await monitor.startSession(UnreadSession(
            service: session.client,
            hasStartedChat: { (try? store.sessionState().hasStartedChat) ?? false },
            newestCachedMessageAt: { newestMessageTime(await engine.snapshot.messages) },
            synchronisedUpdatesAppBadge: { (try? store.sessionState().preferences.updatesAppBadge) ?? nil },
            saveSnapshot: { snapshot in try? store.updateSessionState { $0.unread = snapshot } },
            snapshot: state.unread))
        await monitor.refresh(.configured)
    }

    /// The push router of this `Reception`: token changes update a registered device and refresh the count;
    /// a forwarded support push presents the chat and refreshes the count.
    @inline(never) @_optimize(size) func makePushRouter(_ configuration: ReceptionConfiguration) -> PushRouter {
        PushRouter(
            resolver: configuration.pushEnvironment,
            hooks: .init(
                isConfigured: { [weak self] in self?.isConfigured ?? false },
                isSessionActivated: { [weak self] in
                    guard let session = await self?.session else { return false }
                    return await session.isActivated()
                },
                updateDevice: { [weak self] () throws(ReceptionError) in
                    guard let session = await self?.session else { return }
                    try await session.client.updateDevice(probe: false, allowRegistration: false)
                },
                refreshUnread: { [weak self] reason in
                    guard let monitor = await self?.unreadMonitor else { return }
                    await monitor.refresh(reason == .pushTokenChanged ? .pushTokenChanged : .pushForwarded)
                },
                presentChat: { [weak self] in self?.openChat() }),
            logger: logger("Push"))
    }

    // MARK: - Public push API (spec 7.16, seed 002)

    /// Forwards the APNs device token. Ignored before `configure`, for an empty token, or when the environment
    /// cannot be resolved. It never registers a device; a registered one sends an update and refreshes the count.
    @inline(never)
    @_optimize(size) public func setPushToken(_ token: Data, environment: PushEnvironmentChoice = .automatic) {
        whenConfigured("setPushToken") { [weak self] _, stager in
            self?.stagePushToken(token, environment: environment, stager: stager)
        }
    }

    /// `setPushToken` once configured. Never inlined: the call's closure runs it, and closures are compiled at -O
    /// (Docs/Footprint.md).
    @inline(never) @_optimize(size) private func stagePushToken(
        _ token: Data, environment: PushEnvironmentChoice, stager: IdentityStager
    ) {
        guard let pushRouter else { return }
        if let resolved = environment.resolve(with: configuration.pushEnvironment), !token.isEmpty {
            _ = stager.setPushToken(Array(token), environment: resolved)
        }
        pushRouter.setPushToken(token, environment: environment)
    }

    /// Handles a notification: `true` when it is Reception's (`reception.conversationId` is a non-empty string);
    /// then the chat opens (unless `openChat` is false, as for a foreground receipt) and the count refreshes. Before
    /// `configure` it only recognises the payload (so the host does not hand it to another SDK) and does nothing.
    @discardableResult
    @inline(never)
    @_optimize(size) public func handlePushNotification(userInfo: [AnyHashable: Any], openChat: Bool = true) -> Bool {
        guard let pushRouter else {
            let ours = PushPayload.isSupportNotification(userInfo)
            // While the launch is being prepared, it is routed once the parts exist.
            if ours, launch.isPreparing {
                launch.keep(LaunchState.Call(run: { [weak self] in
                    self?.handlePushNotification(userInfo: userInfo, openChat: openChat)
                }))
            }
            return ours
        }
        return pushRouter.handlePushNotification(userInfo: userInfo, openChat: openChat)
    }

    /// Applies the chat's read results to the count while the chat is visible (spec 7.11: read generation).
    @inline(never) @_optimize(size) func followReads(of engine: ChatEngine, monitor: UnreadMonitor) async {
        let reads = ReadFollower(monitor: monitor)
        await engine.addObserver { snapshot in reads.observe(snapshot.unreadCount) }
    }
}

/// Forwards each new unread count a read produced to the monitor, in order.
final class ReadFollower: Sendable {
    private let monitor: UnreadMonitor
    private let last = Locked<Int??>(nil)
    private let chain = Locked<Task<Void, Never>?>(nil)

    @_optimize(size) init(monitor: UnreadMonitor) { self.monitor = monitor }

    // Never inlined: the engine's observer closure calls it, and closures are compiled at -O (Docs/Footprint.md).
    @inline(never) @_optimize(size) func observe(_ count: Int?) {
        // `nil`: the chat was hidden (no read result is current); forget the last value so that the first read
        // after reopening reaches the monitor even when it equals the count before closing.
        guard let count else { last.withLock { $0 = nil }; return }
        let changed = last.withLock { last -> Bool in
            if last == .some(.some(count)) { return false }
            last = .some(count)
            return true
        }
        guard changed else { return }
        let monitor = self.monitor
        chain.withLock { chain in
            let previous = chain
            chain = Task {
                await previous?.value
                let ticket = await monitor.readStarted()
                await monitor.readFinished(ticket, unreadCount: count)
            }
        }
    }
}

/// The newest `createdAt` of `messages` (a loop: `map` and `max()` would each be specialised for this one caller).
@inline(never) @_optimize(size) private func newestMessageTime(_ messages: [ChatMessage]) -> Date? {
    var newest: Date?
    for message in messages where newest.map({ message.createdAt > $0 }) ?? true { newest = message.createdAt }
    return newest
}
