import Foundation
import ReceptionCore

/// The unread polling rule of spec 7.11 as a pure decision: given what the monitor knows after a refresh, whether
/// and when the next periodic check runs.
public enum UnreadSchedule {
    /// What the decision is made from.
    public struct Inputs: Sendable, Hashable {
        /// The app is in the foreground.
        public var appActive: Bool
        /// The chat is on screen (it loads messages itself then).
        public var chatVisible: Bool
        /// The session is halted (spec 6.4).
        public var halted: Bool
        /// The unread retry budget is stopped.
        public var budgetStopped: Bool
        /// What the last unread answer said.
        public var snapshot: UnreadSnapshot
        /// The notification permission right now.
        public var permission: NotificationAuthorization
        /// The newest cached message's `createdAt`, when the chat cache has one.
        public var newestCachedMessageAt: Date?
        /// Wall-clock now.
        public var now: Date

        /// Makes inputs.
        @_optimize(size) public init(
            appActive: Bool, chatVisible: Bool, halted: Bool, budgetStopped: Bool, snapshot: UnreadSnapshot,
            permission: NotificationAuthorization, newestCachedMessageAt: Date?, now: Date
        ) {
            self.appActive = appActive
            self.chatVisible = chatVisible
            self.halted = halted
            self.budgetStopped = budgetStopped
            self.snapshot = snapshot
            self.permission = permission
            self.newestCachedMessageAt = newestCachedMessageAt
            self.now = now
        }

        /// Hashes the time only; `==` compares every field, so equal values hash alike.
        @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(now) }
    }

    /// The outcome: poll after an interval, or the reason there is no periodic check.
    public enum Decision: Sendable, Hashable {
        /// Check again after this long.
        case poll(after: Duration)
        /// The app is in the background.
        case inBackground
        /// The chat is visible.
        case chatVisible
        /// The session is halted.
        case halted
        /// The retry budget stopped ("paused until the app becomes active").
        case budgetStopped
        /// The device has no conversation.
        case noConversation
        /// The conversation is not `OPEN` (resolved, or no status).
        case notOpen
        /// Push is active: the service can push and the user granted permission.
        case pushActive
        /// Neither the service nor the cache knows a last activity.
        case noActivity
        /// The last activity is older than every stage, or its stage has `everySeconds <= 0`, or the service
        /// sent an empty stage list.
        case stagesExhausted

        /// Hashes the case only; `==` compares the values too, so equal values hash alike.
        @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
            switch self {
            case .poll: hasher.combine(0)
            case .inBackground: hasher.combine(1)
            case .chatVisible: hasher.combine(2)
            case .halted: hasher.combine(3)
            case .budgetStopped: hasher.combine(4)
            case .noConversation: hasher.combine(5)
            case .notOpen: hasher.combine(6)
            case .pushActive: hasher.combine(7)
            case .noActivity: hasher.combine(8)
            case .stagesExhausted: hasher.combine(9)
            }
        }
    }

    /// Spec 7.11: "push active" = the service's `push == true` and permission authorized, provisional or ephemeral.
    @_optimize(size)
    public static func isPushActive(_ snapshot: UnreadSnapshot, permission: NotificationAuthorization) -> Bool {
        snapshot.pushActive && permission.allowsDelivery
    }

    /// Spec 7.11: the later of the service's `lastMessageAt` and the newest cached message.
    @_optimize(size)
    public static func lastActivity(_ snapshot: UnreadSnapshot, newestCachedMessageAt: Date?) -> Date? {
        switch (snapshot.lastMessageAt, newestCachedMessageAt) {
        case let (server?, cached?): max(server, cached)
        case let (server?, nil): server
        case let (nil, cached?): cached
        case (nil, nil): nil
        }
    }

    /// Decides the next periodic check (spec 7.11, 4.7).
    @_optimize(size) public static func decide(_ inputs: Inputs) -> Decision {
        guard inputs.appActive else { return .inBackground }
        guard !inputs.chatVisible else { return .chatVisible }
        guard !inputs.halted else { return .halted }
        guard !inputs.budgetStopped else { return .budgetStopped }
        guard inputs.snapshot.hasConversation else { return .noConversation }
        guard inputs.snapshot.status?.isOpen == true else { return .notOpen }
        guard !isPushActive(inputs.snapshot, permission: inputs.permission) else { return .pushActive }
        guard let activity = lastActivity(inputs.snapshot, newestCachedMessageAt: inputs.newestCachedMessageAt) else {
            return .noActivity
        }
        // A last activity in the future (a skewed clock) counts as brand new.
        let age = max(0, inputs.now.timeIntervalSince(activity))
        // Spec 7.11: the service's stages when it sent any (an empty array disables polling), else the defaults.
        let stages = inputs.snapshot.pollingStages ?? UnreadPollingStage.defaults
        guard let seconds = UnreadPollingStage.interval(forActivityAge: age, stages: stages) else {
            return .stagesExhausted
        }
        return .poll(after: .seconds(seconds))
    }
}
