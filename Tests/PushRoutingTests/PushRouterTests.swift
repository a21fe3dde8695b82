import Foundation
@testable import PushRouting
import ReceptionCore
import ReceptionTesting
import Testing

/// What the router asked for.
final class HookRecorder: Sendable {
    private let state = Locked<[String]>([])
    let configured = Locked(true)
    let activated = Locked(true)
    func append(_ line: String) { state.withLock { $0.append(line) } }
    var lines: [String] { state.withLock { $0 } }
}

@Suite("PushRouterTests")
@MainActor
struct PushRouterTests {
    let recorder = HookRecorder()
    let router: PushRouter

    init() {
        router = Self.router(recorder: recorder, resolver: FixedPushEnvironmentResolver(.sandbox))
    }

    static func router(recorder: HookRecorder, resolver: any PushEnvironmentResolving) -> PushRouter {
        PushRouter(
            resolver: resolver,
            hooks: .init(
                isConfigured: { recorder.configured.withLock { $0 } },
                isSessionActivated: { recorder.activated.withLock { $0 } },
                updateDevice: { () throws(ReceptionError) in recorder.append("update") },
                refreshUnread: { reason in recorder.append("refresh \(reason)") },
                presentChat: { recorder.append("present") }),
            logger: .silent)
    }

    @Test("the token is staged as lower-case hex, two characters per byte")
    func hex() async {
        router.setPushToken(Data([0x00, 0x0A, 0xBC, 0xFF, 0x7f]), environment: .production)
        #expect(router.stage.current == StagedPushToken(token: "000abcff7f", environment: .production))
    }

    @Test("ignored before configure")
    func beforeConfigure() async {
        recorder.configured.withLock { $0 = false }
        router.setPushToken(Data([1, 2]))
        await router.waitUntilIdle()
        #expect(router.stage.current == nil)
        #expect(recorder.lines.isEmpty)
    }

    @Test("an empty token is ignored")
    func emptyToken() async {
        router.setPushToken(Data())
        await router.waitUntilIdle()
        #expect(router.stage.current == nil)
        #expect(recorder.lines.isEmpty)
    }

    @Test("an unresolved environment is ignored")
    func unresolved() async {
        let router = Self.router(recorder: recorder, resolver: FixedPushEnvironmentResolver(nil))
        router.setPushToken(Data([1, 2]))
        await router.waitUntilIdle()
        #expect(router.stage.current == nil)
        router.setPushToken(Data([1, 2]), environment: .sandbox)
        #expect(router.stage.current?.environment == .sandbox)
    }

    @Test("automatic reads the resolver: a development profile gives SANDBOX")
    func automaticFromProfile() async {
        let profile = Data("junk<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>Entitlements</key><dict><key>aps-environment</key><string>development</string></dict></dict></plist>junk".utf8)
        let router = Self.router(recorder: recorder, resolver: ProvisioningProfileResolver(isSimulator: false) { profile })
        router.setPushToken(Data([0xAB]))
        #expect(router.stage.current == StagedPushToken(token: "ab", environment: .sandbox))
    }

    @Test("a token change on an activated session asks for a device update, then an unread refresh")
    func tokenChange() async {
        router.setPushToken(Data([1]))
        await router.waitUntilIdle()
        router.setPushToken(Data([1]))
        await router.waitUntilIdle()
        router.setPushToken(Data([2]))
        await router.waitUntilIdle()
        #expect(recorder.lines == ["update", "refresh pushTokenChanged", "update", "refresh pushTokenChanged"])
    }

    @Test("a token on an unused session is only staged")
    func unusedSession() async {
        recorder.activated.withLock { $0 = false }
        router.setPushToken(Data([1]))
        await router.waitUntilIdle()
        #expect(router.stage.current != nil)
        #expect(recorder.lines.isEmpty)
    }

    @Test("logout clears the staged token; the same token forwarded again is staged again")
    func logout() async {
        router.setPushToken(Data([1]))
        await router.waitUntilIdle()
        router.logout()
        #expect(router.stage.current == nil)
        router.setPushToken(Data([1]))
        await router.waitUntilIdle()
        #expect(router.stage.current?.token == "01")
        #expect(recorder.lines.filter { $0 == "update" }.count == 2)
    }

    @Test("a recognised payload presents the chat when asked and requests a refresh")
    func handle() async {
        let payload: [AnyHashable: Any] = ["reception": ["conversationId": "c1"]]
        #expect(router.handlePushNotification(userInfo: payload))
        await router.waitUntilIdle()
        #expect(recorder.lines == ["present", "refresh notificationForwarded"])
        #expect(router.handlePushNotification(userInfo: payload, openChat: false))
        await router.waitUntilIdle()
        #expect(recorder.lines == ["present", "refresh notificationForwarded", "refresh notificationForwarded"])
    }

    @Test("an unrelated payload returns false and does nothing")
    func unrelated() async {
        #expect(router.handlePushNotification(userInfo: ["aps": ["alert": "hi"]]) == false)
        #expect(router.handlePushNotification(userInfo: ["reception": ["conversationId": ""]]) == false)
        await router.waitUntilIdle()
        #expect(recorder.lines.isEmpty)
    }
}
