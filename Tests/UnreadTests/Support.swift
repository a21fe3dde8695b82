import Foundation
@testable import ReceptionCore
import ReceptionTesting
@testable import Unread

/// A `ConversationService` for the monitor's unit tests: unread answers are scripted, calls are recorded, and an
/// unread request can be held open to test the read-generation rule.
actor FakeService: ConversationService {
    var haltReason: HaltReason?
    var registered = true
    /// Answers for the next unread calls, in order; when empty, `defaultAnswer` is used.
    var answers: [Result<UnreadResponse, ReceptionError>] = []
    var defaultAnswer: Result<UnreadResponse, ReceptionError>
    var updateFailures: [ReceptionError] = []
    private(set) var unreadProbes: [Bool] = []
    private(set) var updates = 0
    private(set) var log: [String] = []
    private var holding = false
    private var held: CheckedContinuation<Void, Never>?

    init(_ answer: UnreadResponse) {
        defaultAnswer = .success(answer)
    }

    var halt: HaltReason? { haltReason }
    var unreadCalls: Int { unreadProbes.count }

    func set(halt: HaltReason?) { haltReason = halt }
    func set(registered: Bool) { self.registered = registered }
    func set(answer: UnreadResponse) { defaultAnswer = .success(answer) }
    func enqueue(_ results: Result<UnreadResponse, ReceptionError>...) { answers.append(contentsOf: results) }
    func failUpdates(_ errors: ReceptionError...) { updateFailures.append(contentsOf: errors) }
    /// The next unread request waits until `release()`.
    func holdNextUnread() { holding = true }
    func release() {
        held?.resume()
        held = nil
    }
    var isHolding: Bool { held != nil }

    func isRegistered() async throws(ReceptionError) -> Bool { registered }

    func updateDevice(probe: Bool, allowRegistration: Bool) async throws(ReceptionError) {
        updates += 1
        log.append("update")
        if !updateFailures.isEmpty { throw updateFailures.removeFirst() }
    }

    func unread(probe: Bool) async throws(ReceptionError) -> UnreadResponse {
        unreadProbes.append(probe)
        log.append(probe ? "unread(probe)" : "unread")
        if holding {
            holding = false
            await withCheckedContinuation { held = $0 }
        }
        let result = answers.isEmpty ? defaultAnswer : answers.removeFirst()
        let response = try result.get()
        // Spec 6.4, as the real client does it: a successful probe ends the halt.
        if probe { haltReason = nil }
        return response
    }

    func history(limits: Bool) async throws(ReceptionError) -> HistoryResponse { throw Self.unexpected }
    func messages(after cursor: Int64) async throws(ReceptionError) -> [MessagesPage] { throw Self.unexpected }
    func send(clientId: String, text: String, attachmentIds: [String], probe: Bool, allowRegistration: Bool)
        async throws(ReceptionError) -> SendMessageResponse { throw Self.unexpected }
    func markRead(conversationId: String, throughSeq: Int64) async throws(ReceptionError) -> ReadResponse {
        throw Self.unexpected
    }
    func markReadLegacy() async throws(ReceptionError) { throw Self.unexpected }
    func typing(_ isTyping: Bool) async throws(ReceptionError) { throw Self.unexpected }
    func actionClick(messageId: String) async throws(ReceptionError) { throw Self.unexpected }
    func reserveUpload(jpeg: Data, width: Int, height: Int, clientId: String, index: Int, probe: Bool)
        async throws(ReceptionError) -> UploadReservation { throw Self.unexpected }
    func upload(jpeg: Data, to reservation: UploadReservation, progress: (@Sendable (Double) -> Void)?)
        async throws(ReceptionError) { throw Self.unexpected }
    func attachment(id: String) async throws(ReceptionError) -> Attachment { throw Self.unexpected }
    func teamPhoto(url: URL) async throws(ReceptionError) -> Data { throw Self.unexpected }
    func attachmentPhoto(url: URL) async throws(ReceptionError) -> Data { throw Self.unexpected }
    func events() async throws(ReceptionError) -> AsyncThrowingStream<StreamSignal, any Error> { throw Self.unexpected }

    /// The monitor must never call anything but unread, update, halt and isRegistered.
    static let unexpected = ReceptionError(code: "unexpected_call")
}

/// A value a test changes while the monitor reads it.
final class Box<Value: Sendable>: Sendable {
    private let state: Locked<Value>
    init(_ value: Value) { state = Locked(value) }
    var value: Value {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}

/// A monitor over fakes and a manual clock.
@MainActor
struct Rig {
    let clock = ManualClock()
    let service: FakeService
    let badge: RecordingBadgeSink
    let notifications = RecordingNotificationStore()
    let permission = SettableNotificationPermission(.notDetermined)
    let started: Box<Bool>
    let synchronisedBadge = Box<Bool?>(nil)
    let saved = Box<[UnreadSnapshot]>([])
    let count = UnreadCount()
    let monitor: UnreadMonitor

    init(
        answer: UnreadResponse? = nil, started: Bool = true, updatesAppBadge: Bool = true,
        badge: RecordingBadgeSink = RecordingBadgeSink(), newestCached: Date? = nil
    ) {
        let service = FakeService(answer ?? Rig.open(unread: 1, lastMessage: ManualClock().now))
        self.service = service
        self.badge = badge
        self.started = Box(started)
        monitor = UnreadMonitor(
            count: count,
            dependencies: .init(
                badge: badge, notifications: notifications, permission: permission, clock: clock,
                random: FixedRandomSource(), logger: .silent),
            appActive: false, updatesAppBadge: updatesAppBadge)
        let startedBox = self.started
        let synchronised = synchronisedBadge
        let saved = self.saved
        session = UnreadSession(
            service: service, hasStartedChat: { startedBox.value }, newestCachedMessageAt: { newestCached },
            synchronisedUpdatesAppBadge: { synchronised.value },
            saveSnapshot: { snapshot in saved.value.append(snapshot) })
    }

    let session: UnreadSession

    /// Configure while in the foreground: start the session, become active, wait for the refresh.
    func activate() async {
        await monitor.startSession(session)
        await monitor.appBecameActive()
        await monitor.waitUntilIdle()
    }

    /// Moves time and lets the monitor finish what woke up.
    func advance(seconds: Double) async {
        // An armed timer's task may not have reached its sleep yet; time must not pass before it does.
        if await monitor.hasArmedTimer { await clock.waitForSleepers(atLeast: 1) }
        await clock.advance(by: .milliseconds(Int64(seconds * 1000)))
        await settle()
    }

    func settle() async {
        for _ in 0..<5 {
            await monitor.waitUntilIdle()
            for _ in 0..<20 { await Task.yield() }
        }
    }

    /// An answer for an open conversation.
    static func open(
        unread: Int, lastMessage: Date?, push: Bool = false, stages: [UnreadPollingStage]? = nil,
        status: ConversationStatus? = .open
    ) -> UnreadResponse {
        UnreadResponse(
            hasConversation: true, unreadCount: unread, status: status, lastMessageAt: lastMessage, push: push,
            unreadPolling: stages)
    }
}
