import Foundation
import ReceptionCore
import Testing
import Unread

@Suite("UnreadScheduleTests")
struct UnreadScheduleTests {
    static let now = Date(timeIntervalSince1970: 1_790_330_400)

    static func inputs(
        age: Double? = 30, appActive: Bool = true, chatVisible: Bool = false, halted: Bool = false,
        budgetStopped: Bool = false, hasConversation: Bool = true, status: ConversationStatus? = .open,
        push: Bool = false, permission: NotificationAuthorization = .notDetermined,
        stages: [UnreadPollingStage]? = nil, cachedAge: Double? = nil
    ) -> UnreadSchedule.Inputs {
        UnreadSchedule.Inputs(
            appActive: appActive, chatVisible: chatVisible, halted: halted, budgetStopped: budgetStopped,
            snapshot: UnreadSnapshot(
                hasConversation: hasConversation, status: status,
                lastMessageAt: age.map { now.addingTimeInterval(-$0) }, pushActive: push, pollingStages: stages),
            permission: permission, newestCachedMessageAt: cachedAge.map { now.addingTimeInterval(-$0) }, now: now)
    }

    /// Spec 7.11's default table: (age in seconds, expected interval in seconds or nil).
    @Test("default stages: 15 s under a minute, 60 s under ten minutes, 600 s under a day, none after",
          arguments: [(0.0, 15), (59.0, 15), (60.0, 60), (599.0, 60), (600.0, 600), (86_399.0, 600), (86_400.0, nil)])
    func defaultStages(age: Double, expected: Int?) {
        let decision = UnreadSchedule.decide(Self.inputs(age: age))
        #expect(decision == (expected.map { .poll(after: .seconds($0)) } ?? .stagesExhausted))
    }

    @Test("the service's stages replace the defaults")
    func serverOverride() {
        let stages = [UnreadPollingStage(forMinutes: 5, everySeconds: 7)]
        #expect(UnreadSchedule.decide(Self.inputs(age: 200, stages: stages)) == .poll(after: .seconds(7)))
        #expect(UnreadSchedule.decide(Self.inputs(age: 400, stages: stages)) == .stagesExhausted)
    }

    @Test("an empty stage list from the service disables polling")
    func emptyOverride() {
        #expect(UnreadSchedule.decide(Self.inputs(age: 1, stages: [])) == .stagesExhausted)
    }

    @Test("a stage with everySeconds <= 0 disables polling while it applies")
    func zeroInterval() {
        let stages = [UnreadPollingStage(forMinutes: 1, everySeconds: 0), UnreadPollingStage(forMinutes: 10, everySeconds: 5)]
        #expect(UnreadSchedule.decide(Self.inputs(age: 10, stages: stages)) == .stagesExhausted)
        #expect(UnreadSchedule.decide(Self.inputs(age: 120, stages: stages)) == .poll(after: .seconds(5)))
    }

    @Test("pause rules, in the order of spec 7.11")
    func pauseRules() {
        #expect(UnreadSchedule.decide(Self.inputs(appActive: false)) == .inBackground)
        #expect(UnreadSchedule.decide(Self.inputs(chatVisible: true)) == .chatVisible)
        #expect(UnreadSchedule.decide(Self.inputs(halted: true)) == .halted)
        #expect(UnreadSchedule.decide(Self.inputs(budgetStopped: true)) == .budgetStopped)
        #expect(UnreadSchedule.decide(Self.inputs(hasConversation: false)) == .noConversation)
        #expect(UnreadSchedule.decide(Self.inputs(status: .resolved)) == .notOpen)
        #expect(UnreadSchedule.decide(Self.inputs(status: nil)) == .notOpen)
        #expect(UnreadSchedule.decide(Self.inputs(age: nil)) == .noActivity)
    }

    @Test("push active needs the service's push and a granting permission",
          arguments: NotificationAuthorization.allCases)
    func pushActive(permission: NotificationAuthorization) {
        let withPush = UnreadSchedule.decide(Self.inputs(push: true, permission: permission))
        let withoutPush = UnreadSchedule.decide(Self.inputs(push: false, permission: permission))
        let grants = [NotificationAuthorization.authorized, .provisional, .ephemeral].contains(permission)
        #expect(withPush == (grants ? .pushActive : .poll(after: .seconds(15))))
        #expect(withoutPush == .poll(after: .seconds(15)))
    }

    @Test("last activity is the later of the service's lastMessageAt and the newest cached message")
    func lastActivity() {
        // The service says two hours, the cache 30 seconds: the cache wins.
        #expect(UnreadSchedule.decide(Self.inputs(age: 7200, cachedAge: 30)) == .poll(after: .seconds(15)))
        // Only the cache knows an activity.
        #expect(UnreadSchedule.decide(Self.inputs(age: nil, cachedAge: 120)) == .poll(after: .seconds(60)))
    }
}
