import Foundation
import ReceptionCore

/// What the unread monitor needs from one session: the service, and the session facts it does not own. The facade
/// builds one per session (configure, logout, reset); tests build them over fakes.
public struct UnreadSession: Sendable {
    /// The session's service (spec 3.10 `unread`, 3.2 `updateDevice`, 6.4 `halt`).
    public var service: any ConversationService
    /// Spec 7.3: the person sent a message in this session, or it found a non-empty cache.
    public var hasStartedChat: @Sendable () async -> Bool
    /// The `createdAt` of the newest cached message, for the polling schedule's last activity (spec 7.11).
    public var newestCachedMessageAt: @Sendable () async -> Date?
    /// Spec 7.6: the `updatesAppBadge` value the service last acknowledged, `nil` when unknown or when the
    /// "badge synchronised" marker was cleared by a failed update.
    public var synchronisedUpdatesAppBadge: @Sendable () async -> Bool?
    /// Persists what an unread answer said (spec 3.10: every field goes to the plain preferences).
    public var saveSnapshot: @Sendable (UnreadSnapshot) async -> Void
    /// The snapshot stored by an earlier launch, or a fresh one.
    public var snapshot: UnreadSnapshot

    /// Makes a session description.
    @_optimize(size) public init(
        service: any ConversationService,
        hasStartedChat: @escaping @Sendable () async -> Bool,
        newestCachedMessageAt: @escaping @Sendable () async -> Date? = { nil },
        synchronisedUpdatesAppBadge: @escaping @Sendable () async -> Bool? = { nil },
        saveSnapshot: @escaping @Sendable (UnreadSnapshot) async -> Void = { _ in },
        snapshot: UnreadSnapshot = UnreadSnapshot()
    ) {
        self.service = service
        self.hasStartedChat = hasStartedChat
        self.newestCachedMessageAt = newestCachedMessageAt
        self.synchronisedUpdatesAppBadge = synchronisedUpdatesAppBadge
        self.saveSnapshot = saveSnapshot
        self.snapshot = snapshot
    }
}

extension UnreadSnapshot {
    /// Spec 3.10: the facts of one unread answer.
    @_optimize(size) init(_ response: UnreadResponse) {
        self.init(
            hasConversation: response.hasConversation, status: response.status, lastMessageAt: response.lastMessageAt,
            pushActive: response.push == true, pollingStages: response.unreadPolling)
    }
}
