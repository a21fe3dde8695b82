import Foundation
@testable import PushRouting
@testable import ReceptionCore
import ReceptionEmulator
import ReceptionTesting
import Testing
@testable import Transport
@testable import Unread

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real API client over loopback against the in-process emulator, with the unread monitor and the push router
/// wired the way the facade wires them, and the emulator's wall clock tied to the manual clock.
@MainActor
final class EmulatorRig {
    let clock = ManualClock()
    let directory: String
    let emulator: ReceptionEmulator
    let client: ReceptionAPIClient
    let badge = RecordingBadgeSink()
    let notifications = RecordingNotificationStore()
    let permission = SettableNotificationPermission(.notDetermined)
    let count = UnreadCount()
    let monitor: UnreadMonitor
    let started = Box(false)
    let updatesAppBadge: Box<Bool>
    let synchronisedBadge = Box<Bool?>(nil)
    let stage = PushTokenStage()
    private(set) var router: PushRouter?
    private let admin: URLSession

    init(updatesAppBadge: Bool = true) throws {
        let clock = self.clock
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("unread-\(UUID().uuidString)").path
        var configuration = EmulatorConfiguration(port: 0, dataDirectory: directory)
        configuration.now = { clock.now.timeIntervalSince1970 }
        emulator = try ReceptionEmulator(configuration: configuration)
        try emulator.start()
        admin = URLSession(configuration: .ephemeral)

        self.updatesAppBadge = Box(updatesAppBadge)
        let badgeBox = self.updatesAppBadge
        let synchronised = synchronisedBadge
        let stage = self.stage
        let started = self.started
        let scope = emulator.credentials.appId + "GEN1"
        let root = try #require(URL(string: "http://127.0.0.1:\(emulator.port)"))
        let endpoint = try ServiceEndpoint(appID: emulator.credentials.appId, root: root)
        client = ReceptionAPIClient(
            .init(endpoint: endpoint, transport: URLSessionTransport(), secureStore: InMemorySecureStore(), scope: scope,
                  cooldowns: CooldownBook(now: clock.now) { _ in }, clock: clock, random: FixedRandomSource(),
                  logger: .silent),
            hooks: SessionHooks(
                hasStartedChat: { started.value },
                devicePayload: { () throws(ReceptionError) -> DevicePayload in
                    let push = stage.current
                    return DevicePayload(
                        sdkVersion: "0.1.0", appVersion: "1.0", appBuild: "1", osVersion: "18.2",
                        deviceModel: "iPhone17,1", locale: "en_US", timezone: "UTC", language: "en",
                        pushToken: push?.token, pushEnvironment: push?.environment,
                        updatesAppBadge: badgeBox.value)
                },
                deviceSynchronised: { payload, _ in synchronised.value = payload.updatesAppBadge }))
        monitor = UnreadMonitor(
            count: count,
            dependencies: .init(
                badge: badge, notifications: notifications, permission: permission, clock: clock,
                random: FixedRandomSource(), logger: .silent),
            appActive: true, updatesAppBadge: updatesAppBadge)
        router = PushRouter(
            stage: stage, resolver: FixedPushEnvironmentResolver(.sandbox),
            hooks: .init(
                isConfigured: { true },
                isSessionActivated: { [client] in
                    guard started.value else { return false }
                    return (try? await client.isRegistered()) ?? false
                },
                updateDevice: { [client] () throws(ReceptionError) in
                    try await client.updateDevice(probe: false, allowRegistration: false)
                },
                refreshUnread: { [monitor] reason in
                    await monitor.refresh(reason == .pushTokenChanged ? .pushTokenChanged : .pushForwarded)
                },
                presentChat: {}),
            logger: .silent)
    }

    deinit {
        emulator.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The session the monitor watches.
    var session: UnreadSession {
        let started = self.started
        let synchronised = synchronisedBadge
        return UnreadSession(
            service: client, hasStartedChat: { started.value },
            synchronisedUpdatesAppBadge: { synchronised.value })
    }

    /// The person's first message: registers the device (spec 7.2 "first send") and starts the chat.
    @discardableResult
    func sendFirstMessage(_ text: String = "Hello support") async throws -> SendMessageResponse {
        started.value = true
        return try await client.send(
            clientId: UUID().uuidString, text: text, attachmentIds: [], probe: false, allowRegistration: true)
    }

    /// The admin ID of the only device.
    func deviceId() async throws -> String {
        let devices = try await adminRequest("GET", "devices")["devices"] as? [[String: Any]]
        return try #require(devices?.last?["id"] as? String)
    }

    /// An agent reply through the admin API.
    func agentReply(_ text: String) async throws {
        let id = try await deviceId()
        _ = try await adminRequest("POST", "devices/\(id)/messages", json: ["text": text])
    }

    /// The payloads in the emulator's push outbox, oldest first.
    func pushes() async throws -> [[String: Any]] {
        let pushes = try await adminRequest("GET", "push-outbox")["pushes"] as? [[String: Any]] ?? []
        return pushes.compactMap { $0["payload"] as? [String: Any] }
    }

    @discardableResult
    func adminRequest(_ method: String, _ path: String, json: Any? = nil) async throws -> [String: Any] {
        let url = try #require(URL(string: "http://127.0.0.1:\(emulator.port)/admin/\(path)"))
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("Bearer \(emulator.credentials.adminToken)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try json.map { try JSONSerialization.data(withJSONObject: $0) }
        let (data, response) = try await admin.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        try #require((200..<300).contains(status), "admin \(method) \(path) answered \(status)")
        return (try JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    /// Moves time, letting the monitor finish what woke up.
    func advance(seconds: Double) async {
        // An armed timer's task may not have reached its sleep yet; time must not pass before it does.
        if await monitor.hasArmedTimer { await clock.waitForSleepers(atLeast: 1) }
        await clock.advance(by: .milliseconds(Int64(seconds * 1000)))
        await settle()
    }

    /// Lets the monitor's network work finish (real loopback requests, so wait for the refresh to end).
    func settle() async {
        for _ in 0..<5 {
            await monitor.waitUntilIdle()
            await router?.waitUntilIdle()
            for _ in 0..<20 { await Task.yield() }
        }
    }
}
